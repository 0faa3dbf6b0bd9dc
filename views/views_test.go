package views

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/keymap"
)

func TestMatchFilter(t *testing.T) {
	assert.True(t, MatchFilter("", "x"))
	assert.True(t, MatchFilter("!", "x"))
	assert.True(t, MatchFilter("PAY", "payments-rs"))
	assert.False(t, MatchFilter("pay", "orders"))
	assert.True(t, MatchFilter("!pay", "orders"))
	assert.False(t, MatchFilter("!pay", "orders", "payments"))
}

func TestSeqDropsStaleAnswers(t *testing.T) {
	var s Seq
	a := s.Next()
	b := s.Next()
	assert.False(t, s.Latest(a))
	assert.True(t, s.Latest(b))
}

func TestPollerKeepsOneLoop(t *testing.T) {
	var p Poller
	p.Arm(ID("alerts"), time.Hour)
	first := PollTickMsg{Pane: ID("alerts"), Gen: 1}
	p.Arm(ID("alerts"), time.Hour) // a manual refresh re-arms
	assert.False(t, p.Current(first), "the older loop's tick is dropped")
	cur := PollTickMsg{Pane: ID("alerts"), Gen: 2}
	assert.True(t, p.Current(cur))
	assert.False(t, p.Current(cur), "a tick is consumed once")
	p.Arm(ID("alerts"), time.Hour)
	p.Stop()
	assert.False(t, p.Current(PollTickMsg{Pane: ID("alerts"), Gen: 3}), "stopped while hidden")
}

func TestRequestStampsResultAndTask(t *testing.T) {
	b := NewBase(ID("alerts"), Context{}, nil)
	quiet := Get(&b, "list", 7, "", func(context.Context) (int, error) { return 42, nil })
	msg := quiet()
	assert.Equal(t, Result[int]{Pane: ID("alerts"), Key: "list", Seq: 7, Value: 42}, msg)

	boom := errors.New("boom")
	loud := Load(&b, "list", 8, "loading alerts", func(context.Context) (int, error) { return 0, boom })
	asks, _ := b.TakeAsks()
	res := loud().(Result[int])
	assert.Equal(t, []Ask{TaskStartMsg{ID: res.TaskID(), Text: "loading alerts"}}, asks, "the task is asked for with the request; a quiet one asks nothing")
	assert.ErrorIs(t, res.Err, boom)
	assert.Equal(t, Route{Pane: "alerts", Task: "loading alerts", TaskID: res.TaskID(), Load: true, Err: boom}, res.Route())
}

func TestLayoutFor(t *testing.T) {
	assert.Equal(t, LayoutNarrow, LayoutFor(0))
	assert.Equal(t, LayoutNarrow, LayoutFor(79))
	assert.Equal(t, LayoutCompact, LayoutFor(80))
	assert.Equal(t, LayoutCompact, LayoutFor(119))
	assert.Equal(t, LayoutWide, LayoutFor(120))
}

func TestPollerTickIsTheArmedGeneration(t *testing.T) {
	var p Poller
	_ = p.Arm(ID("search"), 3*time.Second)
	assert.Equal(t, 3*time.Second, p.Interval())
	tick := p.Tick()
	assert.Equal(t, ID("search"), tick.Pane)
	stale := tick
	stale.Gen--
	assert.False(t, p.Current(stale), "an older generation is dropped")
	assert.True(t, p.Current(tick))
	assert.False(t, p.Current(tick), "a tick is consumed once")
}

func TestContextChangeReload(t *testing.T) {
	old := Context{GroupID: "g1", ClusterName: "c1"}
	same := ContextChangedMsg{Ctx: old}
	assert.False(t, same.Reload(old), "only presentation changed")
	assert.False(t, same.ProjectChanged(old))
	assert.True(t, ContextChangedMsg{Ctx: old, Scope: true}.Reload(old))
	other := old
	other.ClusterName = "c2"
	assert.True(t, ContextChangedMsg{Ctx: other}.Reload(old), "another cluster")
	assert.False(t, ContextChangedMsg{Ctx: other}.ProjectChanged(old))
	other.GroupID = "g2"
	assert.True(t, ContextChangedMsg{Ctx: other}.ProjectChanged(old), "another project")
}

func TestKeysOfFillsFieldsAndMissingKeysFindsMisspellings(t *testing.T) {
	type good struct {
		CutOver keymap.Action
		Second  keymap.Action    `keys:"second"`
		Views   [2]keymap.Action `keys:"first second"`
		ignored int
	}
	type bad struct{ Cutover keymap.Action }
	a := keymap.NewAction
	reg := Registration{ID: "demo", Actions: []keymap.Action{
		a("demo.cutOver", "C", "cut over", "C"), a("demo.first", "1", "first", "1"), a("demo.second", "2", "second", "2")}}
	km := Registry{reg}.Keymap()
	k := KeysOf[good](km, reg.ID)
	assert.Equal(t, "demo.cutOver", k.CutOver.Name)
	assert.Equal(t, "demo.second", k.Views[1].Name)
	assert.Equal(t, "demo.second", k.Second.Name, "the tag names the action")
	assert.Empty(t, MissingKeys[good](reg))
	assert.Equal(t, []string{"demo.cutover"}, MissingKeys[bad](reg), "a field whose name differs in case names no action")
	assert.Zero(t, KeysOf[bad](km, reg.ID).Cutover.Name, "and matches no key")

	// Read again after a change, or from another keymap: never a stale copy.
	require.True(t, KeysOf[good](km, reg.ID).CutOver.Enabled())
	require.NoError(t, km.Disable("demo.cutOver", "not now"))
	assert.False(t, KeysOf[good](km, reg.ID).CutOver.Enabled(), "the change is seen")
	other := Registry{reg}.Keymap()
	assert.True(t, KeysOf[good](other, reg.ID).CutOver.Enabled(), "another keymap is read as it is")
	assert.False(t, KeysOf[good](km, reg.ID).CutOver.Enabled())
}

// A wanted item stays wanted until the list holds it, then is forgotten.
func TestWantedUntilSelected(t *testing.T) {
	var w Wanted
	w.Select(func(string) bool { t.Fatal("nothing wanted: nothing to select"); return false })
	w.Set("snap-1")
	w.Select(func(id string) bool { return false }) // not in the list yet
	assert.Equal(t, "snap-1", w.ID())
	w.Select(func(id string) bool { return id == "snap-1" })
	assert.Empty(t, w.ID())
}
