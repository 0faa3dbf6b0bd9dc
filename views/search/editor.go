package search

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// editKind is what an editor session writes.
type editKind int

const (
	editCreate editKind = iota
	editUpdate
	editAnalyzers
)

// editSession is one definition being written in $EDITOR. It outlives the
// editor: a refused or failed send keeps Text, so the next open starts from
// what the user typed, never from the template again.
type editSession struct {
	Kind editKind
	// Group and Cluster are where it acts: a draft made in one project is
	// never offered (nor sent) in another that has a cluster of that name.
	Group   string
	Cluster string
	// IndexID, Name, Namespace and Type are set for an update.
	IndexID   string
	Name      string
	Namespace string
	Type      apiclient.IndexType
	Version   int64
	// Text is the user's text, without our comment header.
	Text string
	// Problem is why the last attempt was refused (shown in the header).
	Problem string
	// Resend marks a create whose send was lost and read back as not
	// created: saving it unchanged asks before it is sent again.
	Resend bool
}

// key names the draft slot of a session: one per create, per index, per
// cluster's analyzers.
func (s editSession) key() string {
	switch s.Kind {
	case editUpdate:
		return "update/" + s.Group + "/" + s.Cluster + "/" + s.IndexID
	case editAnalyzers:
		return "analyzers/" + s.Group + "/" + s.Cluster
	}
	return "create/" + s.Group + "/" + s.Cluster
}

func (s editSession) what() string {
	switch s.Kind {
	case editUpdate:
		return fmt.Sprintf("index %s (%s) on %s", s.Name, s.Namespace, s.Cluster)
	case editAnalyzers:
		return "user-defined analyzers of " + s.Cluster
	}
	return "new search index on " + s.Cluster
}

// header is the comment block above the JSON: what is edited and the last
// problem.
func (s editSession) header() []string {
	h := []string{"Editing the " + s.what() + "."}
	if s.Problem != "" {
		for _, l := range strings.Split(s.Problem, "\n") {
			h = append(h, "ERROR: "+l)
		}
	}
	if s.Resend {
		h = append(h, "Its answer was lost and the read-back did not find it (it may still appear): check first.",
			"Save and quit to send; leave it unchanged to be asked before it is sent again.")
	} else {
		h = append(h, "Save and quit to send; leave it unchanged to keep the draft and send nothing.")
	}
	return append(h, "Lines starting with // at the top are ignored.")
}

// headerLines is how many lines the header takes in the file (an entry
// with line breaks takes several, as views.Edit writes it).
func (s editSession) headerLines() int {
	n := 0
	for _, h := range s.header() {
		n += strings.Count(h, "\n") + 1
	}
	return n
}

// problemIn is err as the header of the reopened file states it. A JSON
// error's (or a field check's, see fieldError) line is counted in the file as saved, whose header had
// savedHeader lines; the reopened file's header names the problem and may
// be longer or shorter, so the line is moved by the difference and names
// the same line of the text. The column does not move.
func problemIn(s editSession, err error, savedHeader int) string {
	problem := components.SanitizeText(err.Error())
	je, ok := err.(*views.JSONError)
	if !ok {
		return problem
	}
	moved := *je
	moved.Line = max(je.Line-savedHeader, 1) + withProblem(s, problem).headerLines()
	return components.SanitizeText(moved.Error())
}

// validateAnalyzers checks user-defined analyzers beyond what the client
// checks: a name (not a reserved prefix) and a tokenizer type.
func validateAnalyzers(prefix string, as []apiclient.Analyzer) error {
	for i, a := range as {
		field := fmt.Sprintf("%sanalyzers[%d]", prefix, i)
		if prefix == "" {
			field = fmt.Sprintf("[%d]", i)
		}
		switch {
		case a.Name == "":
			return &apiclient.ValidationError{Field: field + ".name", Reason: "required"}
		case strings.HasPrefix(a.Name, "lucene.") || strings.HasPrefix(a.Name, "builtin.") || strings.HasPrefix(a.Name, "mongodb."):
			return &apiclient.ValidationError{Field: field + ".name", Reason: fmt.Sprintf("%q uses a reserved prefix (lucene., builtin., mongodb.)", a.Name)}
		}
		if t, _ := a.Tokenizer["type"].(string); t == "" {
			return &apiclient.ValidationError{Field: field + ".tokenizer.type", Reason: "required"}
		}
	}
	return nil
}

// parsed is a definition that passed local validation, ready to send.
type parsed struct {
	create    apiclient.SearchIndexCreateRequest
	def       apiclient.IndexDefinition
	analyzers []apiclient.Analyzer
}

// parseEdit validates the user's text for the session: JSON syntax (with
// line and column), unknown members, required fields and enums (at the
// field's line and column, see fieldError). Nothing is sent unless it
// returns no error.
func parseEdit(s editSession, body string) (parsed, error) {
	var p parsed
	switch s.Kind {
	case editCreate:
		if err := views.DecodeJSONStrict(body, &p.create); err != nil {
			return p, err
		}
		if err := p.create.Validate(); err != nil {
			return p, fieldError(s, body, err)
		}
		if err := validateAnalyzers("definition.", p.create.Definition.Analyzers); err != nil {
			return p, fieldError(s, body, err)
		}
	case editUpdate:
		if err := views.DecodeJSONStrict(body, &p.def); err != nil {
			return p, err
		}
		if err := p.def.Validate(s.Type); err != nil {
			return p, fieldError(s, body, err)
		}
		if err := validateAnalyzers("definition.", p.def.Analyzers); err != nil {
			return p, fieldError(s, body, err)
		}
	case editAnalyzers:
		if err := views.DecodeJSONStrict(body, &p.analyzers); err != nil {
			return p, err
		}
		if err := validateAnalyzers("", p.analyzers); err != nil {
			return p, fieldError(s, body, err)
		}
	}
	return p, nil
}

// createTemplate is where `n` starts: a text index with dynamic mappings on
// the selected namespace.
func createTemplate(db, coll string) string {
	if db == "" {
		db = "mydb"
	}
	if coll == "" {
		coll = "mycollection"
	}
	t := map[string]any{
		"name": "new-index", "database": db, "collectionName": coll, "type": "search",
		"definition": map[string]any{
			"analyzer": "lucene.standard", "searchAnalyzer": "lucene.standard",
			"mappings": map[string]any{"dynamic": true, "fields": map[string]any{}}, "numPartitions": 1,
		},
	}
	return prettyJSON(t)
}

func prettyJSON(v any) string {
	var b []byte
	switch x := v.(type) {
	case json.RawMessage:
		var buf bytes.Buffer
		if json.Indent(&buf, x, "", "  ") == nil {
			b = buf.Bytes()
		} else {
			b = x
		}
	default:
		b, _ = json.MarshalIndent(v, "", "  ")
	}
	return string(b) + "\n"
}

// open starts the editor on the session; editorDone gets the answer.
func (p *Pane) open(s editSession) tea.Cmd {
	p.editing = true
	return views.Edit{Pane: ID, Key: s.key(), Tag: s, File: "search", Header: s.header(), Text: s.Text, Run: p.editor}.Open()
}
