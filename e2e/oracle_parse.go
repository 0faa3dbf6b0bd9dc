package e2e

import (
	"context"
	"regexp"
	"strconv"
	"strings"
)

var (
	titleCount   = regexp.MustCompile(`^(?:Un)?[Aa]cknowledge (\d+) alerts`)
	andMore      = regexp.MustCompile(`^and (\d+) more$`)
	scrollCue    = regexp.MustCompile(`[↓↑] (\d+) (?:more|above)`)
	keptRe       = regexp.MustCompile(`Kept (\d+) (day|week|month|year)s? from`)
	shortIDRe    = regexp.MustCompile(`…([0-9a-f]{8})`)
	typedRe      = regexp.MustCompile(`Type “(.+?)” to confirm`)
	indexTitle   = regexp.MustCompile(`^Delete search index (.+)\?$`)
	indexBody    = regexp.MustCompile(`(\S+)\.(\S+) on (\S+)\. Queries`)
	crumbRe      = regexp.MustCompile(`› (\S+) › `)
	restoreBody  = regexp.MustCompile(`(?s)^(\S+) restore\s+snapshot (?:([0-9a-f]{24}) )?of (\S+), taken (\d{4}-\d\d-\d\d \d\d:\d\d), MongoDB \S+\s+-> project (.+?), cluster (\S+), MongoDB`)
	markedRe     = regexp.MustCompile(`^(\d+) marked`)
	checkTitle   = regexp.MustCompile(`^Check migration (\S+) → (\S+)$`)
	optionsRe    = regexp.MustCompile(`Source authentication (managed|username \S*), TLS (on|off); destination over (\S+); its data (kept|DROPPED)\.`)
	startRe      = regexp.MustCompile(`Live migration of (\S+) \((.+?)\) into (\S+), through (\S+)\.`)
	deleteSnapRe = regexp.MustCompile(`Snapshot ([0-9a-f]{24}) of (\S+) taken`)
	downloadRe   = regexp.MustCompile(`Prepares snapshot ([0-9a-f]{24}) of (\S+) \(taken`)
)

func keptFrom(text string) string {
	if m := keptRe.FindStringSubmatch(strings.Join(strings.Fields(text), " ")); m != nil {
		return m[1] + " " + m[2] + "s"
	}
	return ""
}

// parse reads a dialog into what it names.
func (j *judge) parse(d *dialog) *named {
	text := d.Text()
	flat := strings.Join(strings.Fields(text), " ")
	n := &named{Kind: "other", Title: d.Title, Text: text, Budget: 1, Screen: j.screen}
	switch {
	case strings.HasPrefix(d.Title, "Acknowledge "), strings.HasPrefix(d.Title, "Unacknowledge "):
		n.Kind = "ack"
		if strings.HasPrefix(d.Title, "Un") {
			n.Kind = "unack"
		}
		n.Budget = 1
		if m := titleCount.FindStringSubmatch(d.Title); m != nil {
			n.Budget, _ = strconv.Atoi(m[1])
		} else {
			desc := strings.TrimPrefix(strings.TrimPrefix(d.Title, "Unacknowledge "), "Acknowledge ")
			if i := strings.Index(desc, " ("); i >= 0 && strings.HasSuffix(desc, "left out)") {
				desc = desc[:i]
			}
			n.Descs = append(n.Descs, desc)
			n.TitleDesc = desc
		}
		include := false
		if f, ok := d.field("Include the hidden rows"); ok {
			include = toggled(f)
		}
		for _, f := range d.fields() {
			hidden := strings.Contains(f.Label, "hidden by the filter")
			if !strings.HasPrefix(f.Label, "Acts on") && !(hidden && include) {
				continue
			}
			var listed []string
			if rest, ok := strings.CutPrefix(f.Label, "Acts on: "); ok {
				// One target on the label's line (beside hidden rows).
				listed = append(listed, rest)
			}
			for _, b := range f.Body {
				b = strings.TrimSpace(b)
				if m := andMore.FindStringSubmatch(b); m != nil {
					k, _ := strconv.Atoi(m[1])
					n.Unnamed += k
					continue
				}
				if strings.HasPrefix(b, "(") && strings.HasSuffix(b, "scroll)") {
					// A list scrolled: the targets out of its window are
					// counted, not named on this screen.
					for _, m := range scrollCue.FindAllStringSubmatch(b, -1) {
						k, _ := strconv.Atoi(m[1])
						n.Unnamed += k
					}
					continue
				}
				b = strings.TrimPrefix(b, "• ")
				listed = append(listed, b)
			}
			if m := markedRe.FindStringSubmatch(f.Label); hidden && m != nil {
				k, _ := strconv.Atoi(m[1])
				n.Budget += k // the hidden rows included, named or counted
			}
			for _, b := range listed {
				if id := modelIDRe.FindString(b); id != "" && strings.HasPrefix(b, id) {
					n.IDs = append(n.IDs, id)
					continue
				}
				n.Descs = append(n.Descs, b)
			}
		}
		if len(n.IDs) > 0 || len(n.Descs) > 1 {
			n.Descs = dropTitleDesc(n.Descs, d.Title)
		}
		if f, ok := d.field("Acknowledge until"); ok {
			n.Choice = chosen(f)
		}
		if f, ok := d.field("Until"); ok {
			n.Typed, _ = withoutLive(f).Value()
		}
		if f, ok := d.field("Comment"); ok {
			n.Comment, n.CommentOK = f.Value()
		}
	case strings.HasPrefix(d.Title, "On-demand snapshot of "):
		n.Kind = "snapshot"
		n.Cluster = strings.TrimPrefix(d.Title, "On-demand snapshot of ")
		if f, ok := d.field("Description"); ok {
			n.Description, n.CommentOK = f.Value()
		}
		if f, ok := d.field("Retention"); ok {
			n.Retention, _ = f.Value()
		}
	case strings.HasPrefix(d.Title, "Expiration of snapshot "):
		n.Kind = "expiration"
		if m := shortIDRe.FindStringSubmatch(d.Title); m != nil {
			n.IDSuffix = m[1]
		}
		if f, ok := d.field("Keep for"); ok {
			n.Keep = chosen(f)
		}
		if f, ok := d.field("Other"); ok && strings.HasPrefix(n.Keep, "other") {
			n.Keep, _ = f.Value()
		}
	case indexTitle.MatchString(d.Title):
		// Named by name, database, collection and cluster; deleted by id:
		// the id is the one the project holds under that name now.
		n.Kind = "deleteIndex"
		name := indexTitle.FindStringSubmatch(d.Title)[1]
		if m := indexBody.FindStringSubmatch(flat); m != nil {
			n.Cluster = m[3]
			n.FullID = j.indexID(name, m[1], m[2], m[3])
		}
	case checkTitle.MatchString(d.Title):
		n.Kind = "migrationCheck"
		m := checkTitle.FindStringSubmatch(d.Title)
		n.Cluster, n.Dest = m[1], m[2]
		if f, ok := d.field("Migration host"); ok {
			n.Host, _ = f.Value()
		}
		if f, ok := d.field("Source authentication"); ok {
			n.Managed = strings.HasPrefix(chosen(f), "managed")
		}
		if f, ok := d.field("TLS to the source"); ok {
			n.TLS = toggled(f)
		}
		if f, ok := d.field("Reach the destination over"); ok {
			n.Reach = chosen(f)
		}
	case strings.HasPrefix(d.Title, "New access role in "), strings.HasPrefix(d.Title, "Authorize AWS role "):
		n.Kind = "accessRole"
		n.Fields = map[string]string{}
		for _, f := range d.fields() {
			if f.Label == "Provider" {
				n.Provider = chosen(f)
				continue
			}
			v, ok := f.Value()
			if !ok {
				j.Unread["an access role field longer than it shows"]++
				continue
			}
			n.Fields[f.Label] = v
		}
		if strings.HasPrefix(d.Title, "Authorize") {
			n.Provider = "AWS"
		}
	case d.Title == "Start the live migration?":
		n.Kind = "migrationStart"
		if m := startRe.FindStringSubmatch(flat); m != nil {
			n.Cluster, n.Project, n.Dest, n.Host = m[1], m[2], m[3], m[4]
		}
		n.Drop = strings.Contains(flat, "WARNING:")
		if m := optionsRe.FindStringSubmatch(flat); m != nil {
			n.Managed, n.TLS, n.Reach = m[1] == "managed", m[2] == "on", m[3]
			n.Drop = m[4] == "DROPPED"
			n.Options = true
		}
	case strings.HasPrefix(d.Title, "Delete snapshot "):
		n.Kind = "deleteSnapshot"
		if m := deleteSnapRe.FindStringSubmatch(flat); m != nil {
			n.FullID, n.Cluster = m[1], m[2]
		}
	case strings.HasPrefix(d.Title, "Cancel restore "):
		n.Kind = "cancelRestore"
		if m := shortIDRe.FindStringSubmatch(d.Title); m != nil {
			n.IDSuffix = m[1]
		}
	case strings.HasPrefix(d.Title, "Restore onto "):
		n.Kind = "restore"
		if m := restoreBody.FindStringSubmatch(strings.TrimSpace(flat[len(d.Title):])); m != nil {
			n.Delivery, n.FullID, n.Cluster, n.Taken, n.Project, n.Target = m[1], m[2], m[3], m[4], m[5], m[6]
		}
	case strings.HasPrefix(d.Title, "Start a download restore?"):
		n.Kind = "restore"
		n.Delivery = "download"
		if m := downloadRe.FindStringSubmatch(flat); m != nil {
			n.FullID, n.Cluster = m[1], m[2]
		}
	}
	return n
}

// indexID is the id of the search index the project on screen (the
// header's crumb) holds under that name, database and collection on the
// cluster, "" when none.
func (j *judge) indexID(name, db, coll, cluster string) string {
	m := crumbRe.FindStringSubmatch(j.screen)
	if m == nil {
		return ""
	}
	for gid, p := range j.projects {
		if p != m[1] {
			continue
		}
		ixs, err := j.api.Search().ListCluster(context.Background(), gid, cluster)
		if err != nil {
			return ""
		}
		for _, ix := range ixs {
			if ix.Name == name && ix.Database == db && ix.CollectionName == coll {
				return ix.IndexID
			}
		}
	}
	return ""
}

// withoutLive is a text field without the lines the form draws under its
// value (what enter sends with it, or that it is not sent): the value is
// then the last line left.
func withoutLive(f field) field {
	for i, b := range f.Body {
		t := strings.TrimSpace(b)
		if strings.HasPrefix(t, "sends ") || strings.HasPrefix(t, "not sent") {
			f.Body = f.Body[:i]
			break
		}
	}
	return f
}

// dropTitleDesc leaves out of a list the title's own description (a
// single alert's title and its list line name the same row).
func dropTitleDesc(descs []string, title string) []string {
	var out []string
	for _, d := range descs {
		if strings.HasSuffix(title, d) && strings.HasPrefix(title, "Acknowledge ") {
			continue
		}
		out = append(out, d)
	}
	return out
}
