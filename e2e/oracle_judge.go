package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

// named is what the last dialog on screen said a write would do: which
// targets (ids, or descriptions as shown) and which values. The judge
// holds each write that follows to it.
type named struct {
	Kind  string // ack, unack, snapshot, expiration, deleteSnapshot, cancelRestore, restore, other
	Title string
	Text  string // the whole dialog, for the targets an unknown kind names
	// Screen is the whole screen the dialog was read from (the header's
	// crumb names the project).
	Screen string
	// Budget is how many writes the dialog announced; one more fails.
	Budget int
	// Answered: enter or y was pressed on it. Its writes may come on later
	// steps (a bulk acknowledgement waits out the project's rate limit).
	Answered bool

	// ack, unack
	IDs       []string // ids the dialog lists
	Descs     []string // "EVENT on place" as the dialog shows them (one title or list lines)
	TitleDesc string   // a one-alert title's "EVENT on place", held to the alert sent
	Unnamed   int      // "and N more": targets counted, not named
	Choice    string   // 1h, 4h, 24h, until…, forever
	Typed     string   // the Until field's text
	Comment   string
	CommentOK bool // the comment could be read whole

	// snapshot, expiration, deleteSnapshot, cancelRestore, restore
	Cluster     string // the cluster the dialog names (the snapshot's)
	Description string
	Retention   string // the Retention field's text
	IDSuffix    string // "…1234abcd": an id the dialog shortens
	FullID      string
	Keep        string // the expiration chosen or typed: "7 days"
	Delivery    string
	Taken       string // "2026-11-26 16:31"
	Project     string
	Target      string

	// access roles: the provider, and the text fields by label
	Provider string
	Fields   map[string]string

	// migration
	Dest, Host, Reach  string
	Managed, TLS, Drop bool
	Options            bool // the start's question states the options
}

// verdict is one write the judge refused, said so a reader can check it on
// the replayed screen.
type verdict struct {
	Write sentWrite
	Why   string
}

// judge compares writes with what the dialog before them named.
type judge struct {
	api      *apiclient.Client
	started  time.Time // when the dashboard started: its clock runs from the server's
	epoch    time.Time // the server's stopped clock
	projects map[string]string
	last     *named
	screen   string // the screen the dialog was read from
	// Unread lists the dialogs whose value the screen did not show whole.
	Unread map[string]int
	// Checked counts the writes held to a dialog; Kinds by the dialog's
	// kind.
	Checked int
	Kinds   map[string]int
}

func newJudge(api *apiclient.Client, epoch time.Time) *judge {
	j := &judge{api: api, started: time.Now(), epoch: epoch, projects: map[string]string{}, Unread: map[string]int{}, Kinds: map[string]int{}}
	if ps, err := api.Projects().All(context.Background()); err == nil {
		for _, p := range ps {
			j.projects[p.ID] = p.Name
		}
	}
	return j
}

// follows are the questions that come after a form and act on its
// answer: the form's expectation holds through them.
var follows = map[string]string{
	"Shorten an acknowledgement?":     "ack",
	"Change the expiration of":        "expiration",
	"Shorten the expiration of":       "expiration",
	"Send the new index again?":       "other",
	"Start another live migration in": "other",
}

// observe reads the screen the user answers: a dialog on it becomes what
// the next writes are held to.
func (j *judge) observe(screen string) {
	d := dialogOf(screen)
	if d == nil || d.Title == "" {
		return
	}
	j.screen = screen
	for prefix, kind := range follows {
		if strings.HasPrefix(d.Title, prefix) && j.last != nil && j.last.Kind == kind {
			if kind == "expiration" {
				j.last.Keep = keptFrom(d.Text())
				j.last.Text += "\n" + d.Text()
			}
			return
		}
	}
	j.last = j.parse(d)
}

// forget drops the expectation: the dialog was cancelled or answered.
func (j *judge) forget() { j.last = nil }

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

// check holds the writes a step caused to the last dialog named, and
// returns the ones it refuses. confirmed says the step answered a dialog
// (enter or y on it); a write on any other step was named by nothing.
func (j *judge) check(writes []sentWrite, confirmed bool) []verdict {
	var out []verdict
	if confirmed && j.last != nil {
		j.last.Answered = true
	}
	for _, w := range writes {
		j.Checked++
		if j.last == nil || !confirmed && !j.last.Answered {
			out = append(out, verdict{w, "no dialog on screen was answered before this write"})
			continue
		}
		if j.last.Budget <= 0 {
			out = append(out, verdict{w, fmt.Sprintf("one write more than the dialog %q named", j.last.Title)})
			continue
		}
		j.last.Budget--
		j.Kinds[j.last.Kind]++
		if why := j.hold(j.last, w); why != "" {
			out = append(out, verdict{w, why})
		}
	}
	return out
}

var (
	groupRe = regexp.MustCompile(`^/api/atlas/v2/groups/([0-9a-f]{24})(/.*)?$`)
	turnRe  = regexp.MustCompile(`^Turn .* (on|off)\?$`)
)

// hold is why w is not what n named ("" when it is).
func (j *judge) hold(n *named, w sentWrite) string {
	m := groupRe.FindStringSubmatch(w.Path)
	if m == nil {
		return "a write outside any project"
	}
	gid, rest := m[1], m[2]
	var body map[string]any
	_ = json.Unmarshal(w.Body, &body)
	if n.Kind != "ack" && n.Kind != "unack" {
		// The project is the one the header names (an alert's is checked
		// with the alert).
		if c := crumbRe.FindStringSubmatch(n.Screen); c != nil && j.projects[gid] != c[1] {
			return fmt.Sprintf("sent to project %q (%s); the screen was on project %q", j.projects[gid], gid, c[1])
		}
	}
	switch n.Kind {
	case "ack", "unack":
		return j.holdAck(n, w, gid, rest, body)
	case "snapshot":
		want := "/clusters/" + n.Cluster + "/backup/snapshots"
		if w.Method != "POST" || rest != want {
			return fmt.Sprintf("the dialog named an on-demand snapshot of %s; sent %s %s", n.Cluster, w.Method, rest)
		}
		if got := str(body["description"]); n.CommentOK && strings.TrimRight(got, " ") != n.Description {
			return fmt.Sprintf("description %q sent, the dialog showed %q", got, n.Description)
		}
		if got := num(body["retentionInDays"]); strconv.Itoa(got) != strings.TrimSpace(n.Retention) {
			return fmt.Sprintf("retentionInDays %d sent, the dialog showed %q", got, n.Retention)
		}
	case "expiration":
		if w.Method != "PATCH" || !strings.Contains(rest, "/backup/snapshots/") || !strings.HasSuffix(rest, n.IDSuffix) {
			return fmt.Sprintf("the dialog named snapshot …%s; sent %s %s", n.IDSuffix, w.Method, rest)
		}
		unit, value := str(body["retentionUnit"]), num(body["retentionValue"])
		if !sameKeep(n.Keep, value, unit) {
			return fmt.Sprintf("retention %d %s sent, the dialog showed %q", value, unit, n.Keep)
		}
	case "deleteSnapshot":
		if w.Method != "DELETE" || !strings.HasSuffix(rest, "/"+n.FullID) || !strings.Contains(rest, "/clusters/"+n.Cluster+"/") {
			return fmt.Sprintf("the dialog named snapshot %s of %s; sent %s %s", n.FullID, n.Cluster, w.Method, rest)
		}
	case "accessRole":
		if why := holdTargets(n, rest); why != "" {
			return why
		}
		if got := str(body["providerName"]); got != n.Provider {
			return fmt.Sprintf("providerName %q sent, the dialog showed %q", got, n.Provider)
		}
		for label, member := range map[string]string{"IAM role ARN": "iamAssumedRoleArn", "Azure application id": "atlasAzureAppId",
			"Azure service principal id": "servicePrincipalId", "Azure tenant id": "tenantId"} {
			shown, ok := n.Fields[label]
			if !ok || (n.Provider != "AZURE" && strings.HasPrefix(label, "Azure")) {
				continue
			}
			if got := str(body[member]); got != strings.TrimSpace(shown) {
				return fmt.Sprintf("%s %q sent, the dialog showed %q", member, got, shown)
			}
		}
	case "migrationCheck", "migrationStart":
		return holdMigration(n, w, rest, w.Body)
	case "deleteIndex":
		if w.Method != "DELETE" || n.FullID == "" || !strings.HasSuffix(rest, "/"+n.FullID) || !strings.Contains(rest, "/clusters/"+n.Cluster+"/") {
			return fmt.Sprintf("the dialog %q named index %s on %s; sent %s %s", n.Title, n.FullID, n.Cluster, w.Method, rest)
		}
	case "cancelRestore":
		if w.Method != "DELETE" || !strings.Contains(rest, "/restoreJobs/") || !strings.HasSuffix(rest, n.IDSuffix) {
			return fmt.Sprintf("the dialog named restore …%s; sent %s %s", n.IDSuffix, w.Method, rest)
		}
	case "restore":
		return j.holdRestore(n, w, gid, rest, body)
	default:
		// A dialog the judge does not read field by field: every id and
		// cluster the write addresses must be on it; a "Turn … on?"
		// question sends that state.
		if m := turnRe.FindStringSubmatch(n.Title); m != nil {
			if on, ok := body["enabled"].(bool); !ok || on != (m[1] == "on") {
				return fmt.Sprintf("the dialog asked %q; sent %s", n.Title, w.Body)
			}
		}
		return holdTargets(n, rest)
	}
	return ""
}

// holdTargets is why a write addresses what the dialog did not show.
func holdTargets(n *named, rest string) string {
	parts := strings.Split(strings.Trim(rest, "/"), "/")
	for i, p := range parts {
		isID := modelIDRe.MatchString(p) && len(p) == 24
		isName := i > 0 && parts[i-1] == "clusters"
		if !isID && !isName {
			continue
		}
		if strings.Contains(n.Text, p) || (isID && strings.Contains(n.Text, "…"+p[16:])) {
			continue
		}
		return fmt.Sprintf("the dialog %q does not name %s", n.Title, p)
	}
	return ""
}

func (j *judge) holdAck(n *named, w sentWrite, gid, rest string, body map[string]any) string {
	parts := strings.Split(strings.Trim(rest, "/"), "/")
	if w.Method != "PATCH" || len(parts) != 2 || parts[0] != "alerts" {
		return fmt.Sprintf("the dialog %q named alerts; sent %s %s", n.Title, w.Method, rest)
	}
	id := parts[1]
	a, err := j.api.Alerts().Get(context.Background(), gid, id)
	if err != nil {
		return "the alert written cannot be read: " + err.Error()
	}
	// An alert is named by its id: several share an event and place.
	switch {
	case contains(n.IDs, id):
		n.IDs = remove(n.IDs, id)
	case n.Unnamed > 0:
		n.Unnamed--
		j.Unread["an ack dialog's target out of its list's window (scrolled, or and N more)"]++
	default:
		return fmt.Sprintf("alert %s (%s on %s in %s) is not one the dialog %q named (ids %v, names %q)",
			id, a.EventTypeName, placeOf(*a), j.projects[gid], n.Title, n.IDs, n.Descs)
	}
	if n.TitleDesc != "" && !descMatches(n.TitleDesc, *a, j.projects[gid]) {
		return fmt.Sprintf("alert %s is %s on %s in %s; the dialog's title named %q",
			id, a.EventTypeName, placeOf(*a), j.projects[gid], n.TitleDesc)
	}
	if !n.CommentOK {
		j.Unread["a comment longer than its field shows"]++
	}
	if n.CommentOK && strings.TrimRight(str(body["acknowledgementComment"]), " ") != n.Comment {
		return fmt.Sprintf("comment %q sent, the dialog showed %q", str(body["acknowledgementComment"]), n.Comment)
	}
	if n.Kind == "unack" {
		if body["unacknowledgeAlert"] != true || body["acknowledgedUntil"] != nil {
			return fmt.Sprintf("an unacknowledge was named; sent %s", w.Body)
		}
		return ""
	}
	if body["unacknowledgeAlert"] == true {
		return "an acknowledgement was named; an unacknowledge was sent"
	}
	sent, err := time.Parse(time.RFC3339, str(body["acknowledgedUntil"]))
	if err != nil {
		return fmt.Sprintf("acknowledgedUntil %q is not a date-time", str(body["acknowledgedUntil"]))
	}
	lo, hi, ok := j.untilRange(n)
	if !ok {
		return fmt.Sprintf("acknowledgedUntil %s sent, but the dialog showed %q with Until %q, which names no date", sent.UTC().Format(time.RFC3339), n.Choice, n.Typed)
	}
	if sent.Before(lo) || sent.After(hi) {
		want := lo.UTC().Format(time.RFC3339)
		if !lo.Equal(hi) {
			want = "between " + want + " and " + hi.UTC().Format(time.RFC3339)
		}
		return fmt.Sprintf("acknowledgedUntil %s sent, the dialog showed %q (Until %q): want %s", sent.UTC().Format(time.RFC3339), n.Choice, n.Typed, want)
	}
	return ""
}

// untilRange is the acknowledgedUntil the dialog's choice gives: a typed
// date exactly, a length from the client's now (the server's stopped clock
// plus the time the dashboard has run, give or take a minute).
func (j *judge) untilRange(n *named) (lo, hi time.Time, ok bool) {
	from, to := j.epoch.Add(-time.Minute), j.epoch.Add(time.Since(j.started)+time.Minute)
	switch n.Choice {
	case "1h", "4h", "24h":
		d, _ := time.ParseDuration(n.Choice)
		return from.Add(d), to.Add(d), true
	case "forever":
		return from.AddDate(100, 0, 0), to.AddDate(100, 0, 0), true
	case "until…":
		s := strings.TrimSpace(n.Typed)
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t, err = time.ParseInLocation("2006-01-02 15:04", s, time.UTC)
		}
		if err != nil {
			return time.Time{}, time.Time{}, false
		}
		t = t.Truncate(time.Second)
		return t, t, true
	}
	return time.Time{}, time.Time{}, false
}

// descMatches says whether a shown "EVENT on place", possibly cut, names
// alert a: the event type is there whole, or the text is cut inside it;
// the place is the Alerts pane's ("cluster/host") or the board's ("org ›
// project › cluster", cut from the left), read from its end: the cluster,
// if the alert has one, then the project, as far as the text reaches.
func descMatches(d string, a apiclient.Alert, project string) bool {
	event, place, found := strings.Cut(d, " on ")
	if !matchesShown(event, a.EventTypeName) {
		return false
	}
	if !found {
		// The event alone (no room for the place): the id names the alert.
		return true
	}
	if matchesShown(place, placeOf(a)) {
		return true
	}
	ps := strings.Split(place, " › ")
	if a.ClusterName != "" {
		if !matchesShown(ps[len(ps)-1], a.ClusterName) {
			return false
		}
		ps = ps[:len(ps)-1]
	}
	return len(ps) == 0 || matchesShown(ps[len(ps)-1], project)
}

func firstWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return strings.TrimSuffix(f[0], ":")
}

// placeOf is an alert's place as the Alerts pane names it.
func placeOf(a apiclient.Alert) string {
	var parts []string
	for _, s := range []string{a.ClusterName, a.HostnameAndPort} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	if a.HostnameAndPort == "" && a.ReplicaSetName != "" && a.ClusterName == "" {
		parts = append(parts, a.ReplicaSetName)
	}
	if len(parts) == 0 {
		return "project"
	}
	return strings.Join(parts, "/")
}

var restorePath = regexp.MustCompile(`^/(clusters|flexClusters|serverless)/([^/]+)/backup/restoreJobs$`)

// holdRestore holds a restore to its last question: the source cluster,
// the delivery, the snapshot (by id, or by when it was taken), the target
// project and cluster. A flex or serverless source restores through its
// own path, with the target named targetDeploymentItemName and no delivery.
func (j *judge) holdRestore(n *named, w sentWrite, gid, rest string, body map[string]any) string {
	m := restorePath.FindStringSubmatch(rest)
	if w.Method != "POST" || m == nil {
		return fmt.Sprintf("the dialog named a restore; sent %s %s", w.Method, rest)
	}
	if m[2] != n.Cluster {
		return fmt.Sprintf("the dialog named a snapshot of %s; sent %s", n.Cluster, rest)
	}
	flex := m[1] == "flexClusters"
	target, project := str(body["targetClusterName"]), str(body["targetGroupId"])
	if flex {
		target, project = str(body["targetDeploymentItemName"]), str(body["targetProjectId"])
	} else if got := str(body["deliveryType"]); got != n.Delivery {
		return fmt.Sprintf("deliveryType %q sent, the dialog showed %q", got, n.Delivery)
	}
	snap := str(body["snapshotId"])
	if n.FullID != "" && snap != n.FullID {
		return fmt.Sprintf("snapshotId %s sent, the dialog showed snapshot %s", snap, n.FullID)
	}
	if n.Taken != "" {
		taken, err := j.snapshotTaken(gid, m[1], n.Cluster, snap)
		if err != nil {
			return fmt.Sprintf("snapshot %s sent cannot be read: %v", snap, err)
		}
		if taken != n.Taken {
			return fmt.Sprintf("snapshot %s (taken %s) sent, the dialog named the one taken %s", snap, taken, n.Taken)
		}
	}
	if n.Delivery == "download" && !flex {
		if body["targetClusterName"] != nil {
			return fmt.Sprintf("a download restore was named; sent target %v", body["targetClusterName"])
		}
		return ""
	}
	if target != n.Target {
		return fmt.Sprintf("target %q sent, the dialog showed %q", target, n.Target)
	}
	if got := j.projects[project]; got != n.Project {
		return fmt.Sprintf("target project %s (%q) sent, the dialog showed project %q", project, got, n.Project)
	}
	return ""
}

// snapshotTaken is when a snapshot was taken, as the Backups pane shows
// it (a flex snapshot's start, else its scheduled time).
func (j *judge) snapshotTaken(gid, kind, cluster, id string) (string, error) {
	ctx := context.Background()
	var t time.Time
	switch kind {
	case "flexClusters":
		s, err := j.api.Backups().FlexSnapshot(ctx, gid, cluster, id)
		if err != nil {
			return "", err
		}
		switch {
		case s.StartTime != nil:
			t = *s.StartTime
		case s.ScheduledTime != nil:
			t = *s.ScheduledTime
		}
	case "serverless":
		s, err := j.api.Backups().ServerlessSnapshot(ctx, gid, cluster, id)
		if err != nil {
			return "", err
		}
		t = s.CreatedAt
	default:
		s, err := j.api.Backups().Snapshot(ctx, gid, cluster, id)
		if err != nil {
			return "", err
		}
		t = s.CreatedAt
	}
	return t.UTC().Format("2006-01-02 15:04"), nil
}

// holdMigration holds a live migration's check or start to its dialog:
// source, destination, host (the check's also the options it shows; the
// start's whether it drops the destination's data).
func holdMigration(n *named, w sentWrite, rest string, raw []byte) string {
	want := "/liveMigrations"
	if n.Kind == "migrationCheck" {
		want += "/validate"
	}
	if w.Method != "POST" || rest != want {
		return fmt.Sprintf("the dialog %q named a migration; sent %s %s", n.Title, w.Method, rest)
	}
	var b struct {
		Source struct {
			ClusterName           string `json:"clusterName"`
			ManagedAuthentication bool   `json:"managedAuthentication"`
			SSL                   bool   `json:"ssl"`
		} `json:"source"`
		Destination struct {
			ClusterName        string `json:"clusterName"`
			HostnameSchemaType string `json:"hostnameSchemaType"`
		} `json:"destination"`
		MigrationHosts      []string `json:"migrationHosts"`
		DropDestinationData bool     `json:"dropDestinationData"`
	}
	if err := json.Unmarshal(raw, &b); err != nil {
		return "the body is not a migration: " + err.Error()
	}
	switch {
	case b.Source.ClusterName != n.Cluster:
		return fmt.Sprintf("source %q sent, the dialog showed %q", b.Source.ClusterName, n.Cluster)
	case b.Destination.ClusterName != n.Dest:
		return fmt.Sprintf("destination %q sent, the dialog showed %q", b.Destination.ClusterName, n.Dest)
	case len(b.MigrationHosts) != 1 || b.MigrationHosts[0] != n.Host:
		return fmt.Sprintf("migrationHosts %q sent, the dialog showed %q", b.MigrationHosts, n.Host)
	case n.Kind == "migrationStart" && b.DropDestinationData != n.Drop:
		return fmt.Sprintf("dropDestinationData %v sent; the dialog warned of a drop: %v", b.DropDestinationData, n.Drop)
	case n.Kind == "migrationStart" && !n.Options:
		return "" // an older question names no options: nothing more to hold
	case b.Source.ManagedAuthentication != n.Managed:
		return fmt.Sprintf("managedAuthentication %v sent, the dialog showed managed: %v", b.Source.ManagedAuthentication, n.Managed)
	case b.Source.SSL != n.TLS:
		return fmt.Sprintf("ssl %v sent, the dialog showed TLS on: %v", b.Source.SSL, n.TLS)
	case n.Reach != "" && b.Destination.HostnameSchemaType != n.Reach:
		return fmt.Sprintf("hostnameSchemaType %q sent, the dialog showed %q", b.Destination.HostnameSchemaType, n.Reach)
	}
	return ""
}

// sameKeep says whether value unit is the length shown ("7 days").
func sameKeep(shown string, value int, unit string) bool {
	f := strings.Fields(strings.ToLower(shown))
	if len(f) != 2 {
		return false
	}
	v, err := strconv.Atoi(f[0])
	if err != nil || v != value {
		return false
	}
	u := strings.TrimSuffix(f[1], "s")
	return strings.EqualFold(u, strings.TrimSuffix(strings.ToLower(unit), "s"))
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func num(v any) int {
	f, _ := v.(float64)
	return int(f)
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func remove(xs []string, x string) []string {
	for i, y := range xs {
		if y == x {
			return append(xs[:i:i], xs[i+1:]...)
		}
	}
	return xs
}

var cellSep = regexp.MustCompile(`\s{2,}`)

// promptOpen says whether the filter prompt ("/…") or the palette (":…")
// is open on the screen's last lines: enter answers it, not the list.
func promptOpen(screen string) bool {
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	for _, l := range lines[max(len(lines)-4, 0):] {
		if strings.HasPrefix(l, "/") || strings.HasPrefix(l, ":") {
			return true
		}
	}
	return false
}

// cursorRow is the cells of the row under the cursor (▸), or nil.
func cursorRow(screen string) []string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.HasPrefix(l, "▸") {
			return cellSep.Split(strings.TrimSpace(strings.TrimPrefix(l, "▸")), -1)
		}
	}
	return nil
}

// checkJump holds a Triage jump to what the board showed under the
// cursor: enter on an alert row opens Alerts with that alert selected (its
// event type, cluster and age on the selected row), never another row or
// an empty list. "" when it does, or when the step was no such jump.
func checkJump(before, after string, keys []string) string {
	if len(keys) != 1 || keys[0] != "Enter" || dialogOf(before) != nil || paneOf(before) != "triage" || promptOpen(before) {
		return ""
	}
	row := cursorRow(before)
	k := slices.Index(row, "alert")
	if k < 0 {
		return ""
	}
	var where, event, age string
	for _, c := range row[k+1:] {
		switch {
		case strings.Contains(c, " › "):
			where = c
		case ageRe.MatchString(c):
			age = c
		case event == "" && eventRe.MatchString(firstWord(strings.TrimPrefix(c, "new: "))):
			event = firstWord(strings.TrimPrefix(c, "new: "))
		}
	}
	if where == "" || event == "" {
		return ""
	}
	ps := strings.Split(where, " › ")
	cluster := ps[len(ps)-1]
	if paneOf(after) != "alerts" {
		return fmt.Sprintf("enter on the board's alert %s on %s did not open Alerts", event, where)
	}
	got := cursorRow(after)
	if got == nil {
		return fmt.Sprintf("enter on the board's alert %s on %s opened Alerts with no row selected", event, where)
	}
	evOK, clOK, ageOK := false, len(ps) < 3, age == ""
	for _, c := range strings.Fields(strings.Join(got, " ")) {
		if matchesShown(c, event) || matchesShown(event, c) {
			evOK = true
		}
		if ageRe.MatchString(c) && c == age {
			ageOK = true
		}
		cc, cl := strings.TrimSuffix(c, "…"), strings.TrimSuffix(strings.TrimPrefix(cluster, "…"), "…")
		if len(cc) >= 3 && len(cl) >= 3 && (strings.HasPrefix(cc, cl) || strings.HasPrefix(cl, cc) || strings.Contains(cluster, cc)) {
			clOK = true
		}
	}
	if !evOK || !clOK || !ageOK {
		return fmt.Sprintf("enter on the board's alert %s on %s (%s) opened Alerts on another row: %q", event, where, age, strings.Join(got, "  "))
	}
	return ""
}

var (
	ageRe   = regexp.MustCompile(`^\d+[smhd]$`)
	eventRe = regexp.MustCompile(`^[A-Z][A-Z0-9_]{3,}…?$`)
)
