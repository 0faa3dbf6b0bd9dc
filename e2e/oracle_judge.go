package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
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
