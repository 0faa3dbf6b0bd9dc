package search

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

const indexesPath = "POST /api/atlas/v2/groups/" + apisim.DemoPaymentsID + "/clusters/payments-rs/search/indexes"

// A create whose answer comes back truncated: one POST, the pane says it is
// checking, reads the index back by name and namespace and reports it
// created (verified), watching it as if the answer had come.
func TestLostCreateAnswerIsVerifiedNotResent(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 30)
	h.selectIndex("default")
	w.Control("PUT", "/faults", `{"malformedWrites": 1}`)
	mark := w.Mark()
	h.ed.steps = append(h.ed.steps, save(newIndexJSON))
	h.ActionKey("n")
	assert.Equal(t, []string{indexesPath}, w.WritesSince(mark), "sent once, never again")
	assert.Contains(t, h.ToastTexts(), "index by-customer on payments-rs: "+views.OutcomeChecking)
	assert.Equal(t, "index by-customer on payments-rs created (verified); building", h.LastToast().Text)
	assert.False(t, h.LastToast().Err)
	assert.Len(t, h.ed.seen, 1, "the editor was not reopened")
	ix, err := indexOf(w, "payments-rs", "shop", "orders", "by-customer")
	require.NoError(t, err)
	assert.True(t, h.P.watching[ix.IndexID], "watched as a created index")
	assert.Empty(t, h.P.creating)
	assert.NotContains(t, h.P.drafts, editSession{Kind: editCreate, Group: h.P.Ctx.GroupID, Cluster: "payments-rs"}.key(), "the draft went with the create")
	assert.Regexp(t, `by-customer\s+search\s+PENDING`, h.Screen())
}

// While the read-back runs the pane says so, `n` is disabled with the
// reason and sends nothing; a read-back that finds nothing says "not
// found on the server yet - check before submitting again", keeps the text, and `n` sends it once.
func TestLostCreateCheckingDisablesNewThenNotCreated(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 16)
	h.selectIndex("default")
	req := apiclient.SearchIndexCreateRequest{Name: "never-made", Database: "shop", CollectionName: "orders", Type: apiclient.IndexSearch}
	// The kept text has a comment line of the user's in it.
	s := editSession{Kind: editCreate, Group: h.P.Ctx.GroupID, Cluster: "payments-rs", Text: strings.Replace(newIndexJSON, "{\n", "{\n  // by customer, for the orders page\n", 1)}
	h.P.drafts[s.key()] = s
	h.P.creating[s.key()] = createSending
	mark := w.Mark()

	// The lost answer arrives; its read-back is not run yet.
	_, check := h.P.Update(views.Result[sent]{Pane: ID, Key: keyCreate, Value: sent{Session: s,
		Lost: &lostCreate{GroupID: apisim.DemoPaymentsID, Sent: w.Client.Now(), Req: req}}})
	require.NotNil(t, check)
	screen := h.Screen()
	assert.Contains(t, screen, "index never-made on payments-rs: "+views.OutcomeChecking)
	requireGolden(t, "lost_create_checking_120x16", screen)
	var disabled string
	for _, a := range h.P.Actions() {
		if a.Name == keysOf(h.P.Ctx.Keys).New.Name {
			disabled = a.DisabledReason
		}
	}
	assert.Equal(t, "a new index on payments-rs was "+views.OutcomeChecking, disabled)
	h.Action(keysOf(h.P.Ctx.Keys).New.Name) // as if the gate let it through
	assert.Empty(t, h.ed.seen, "no editor, nothing to send")
	assert.Contains(t, h.LastToast().Text, "new index: a new index on payments-rs was "+views.OutcomeChecking)

	h.Run(check)
	assert.Empty(t, w.WritesSince(mark), "the check only reads")
	assert.Equal(t, "index never-made on payments-rs "+views.NotCreated+" (your text is kept: press n)", h.LastToast().Text)
	assert.Contains(t, h.Screen(), views.NotCreated)
	assert.Empty(t, h.P.creating)

	// Submitting again is the user's choice: the kept text, saved
	// unchanged, is sent once the user says yes; the save alone sends
	// nothing.
	h.ed.steps = append(h.ed.steps, func(file string) (string, error) {
		assert.Contains(t, file, `"name": "by-customer"`, "the kept draft")
		assert.Contains(t, file, "// Its answer was lost and the read-back did not find it (it may still appear): check first.")
		assert.Contains(t, file, "// Save and quit to send; leave it unchanged to be asked before it is sent again.")
		return file, nil
	})
	h.ActionKey("n")
	require.Len(t, h.ed.seen, 1)
	assert.Empty(t, w.WritesSince(mark), "an unchanged save only asks")
	require.Len(t, h.Confirms, 1)
	assert.Equal(t, "Send the new index again?", h.LastConfirm().Title)
	assert.Contains(t, h.LastConfirm().Body, "index by-customer was not found on payments-rs")
	h.Confirm("")
	assert.Equal(t, []string{indexesPath}, w.WritesSince(mark))
	assert.Contains(t, h.LastToast().Text, "index by-customer created")

	// The confirmation's answer is not replayed: the draft went with the create.
	h.Confirm("")
	assert.Equal(t, []string{indexesPath}, w.WritesSince(mark))
	assert.Contains(t, h.LastToast().Text, "no create is waiting to be sent again; nothing sent")
}
