package components

import (
	"strings"
	"testing"

	"github.com/dbadmin-tui/dbadmin-tui/themes"
)

func TestDetailMarkdownCachedByWidthAndStyle(t *testing.T) {
	d := NewDetail(dark(), nil)
	d.SetSize(60, 10)
	d.SetMarkdown("# Alert\n\nDisk usage **high** on `shard-0`.\x1b]0;pwned\x07")
	eq(t, 1, d.Renders())
	v := plain(d.View())
	mustContain(t, v, "Alert")
	mustContain(t, v, "high")
	mustNotContain(t, d.View(), "pwned")
	d.SetSize(40, 10)
	eq(t, 2, d.Renders())
	d.SetSize(60, 10)
	d.SetSize(40, 10)
	eq(t, 2, d.Renders(), "resizing back and forth hits the cache")
	d.SetTheme(themes.MustGet(themes.Light))
	eq(t, 3, d.Renders())
}

func TestDetailJSONAndScroll(t *testing.T) {
	d := NewDetail(themes.MustGet(themes.Mono), nil)
	d.SetSize(50, 5)
	if err := d.SetJSON("Snapshot", []byte(`{"id":"s1","status":"COMPLETED","tags":["a","b","c","d","e","f"]}`)); err != nil {
		t.Fatal(err)
	}
	if d.Err() != nil {
		t.Fatalf("glamour notty style: %v", d.Err())
	}
	v := plain(d.View())
	mustContain(t, v, "Snapshot")
	d, _ = d.Update(key("G"))
	mustContain(t, plain(d.View()), "]")
	if d.YOffset() == 0 {
		t.Fatal("G should scroll")
	}
	d, _ = d.Update(key("g"))
	eq(t, 0, d.YOffset())
	if err := d.SetJSON("", []byte("{not json")); err == nil {
		t.Fatal("bad JSON must be reported")
	}
	mustContain(t, plain(d.View()), "{not json")
}

func TestPickerFuzzy(t *testing.T) {
	items := []PickerItem{
		{ID: "1", Label: "prod-cluster-eu", Detail: "M30"},
		{ID: "2", Label: "staging-cluster", Detail: "M10"},
		{ID: "3", Label: "analytics\x1b[2J", Detail: "M50"},
	}
	p := NewPicker("cluster", "Pick a cluster", items, dark(), nil)
	p.SetSize(80, 24)
	eq(t, 3, p.Len())
	mustNotContain(t, p.View(), "\x1b[2J")
	for _, m := range typeText("stg") {
		p, _ = p.Update(m)
	}
	eq(t, 1, p.Len())
	it, _ := p.Selected()
	eq(t, "2", it.ID)
	p, _ = p.Update(key("backspace"))
	p, _ = p.Update(key("backspace"))
	p, _ = p.Update(key("backspace"))
	eq(t, 3, p.Len())
	p, _ = p.Update(key("down"))
	p, cmd := p.Update(key("enter"))
	res := run(cmd).(PickerResultMsg)
	eq(t, "2", res.Item.ID)
	eq(t, "cluster", res.ID)
	eq(t, true, p.Done())

	p = NewPicker("x", "t", items, dark(), nil)
	for _, m := range typeText("zzz") {
		p, _ = p.Update(m)
	}
	eq(t, 0, p.Len())
	mustContain(t, plain(p.View()), "no matches")
	_, cmd = p.Update(key("enter"))
	eq(t, true, cmd == nil)
	_, cmd = p.Update(key("esc"))
	eq(t, true, run(cmd).(PickerResultMsg).Cancelled)
	if !strings.Contains(plain(p.View()), "Pick") && !strings.Contains(plain(p.View()), "t") {
		t.Fatal("title")
	}
}

func TestDetailMonoDrawsEmphasisWithoutMarkdownMarks(t *testing.T) {
	d := NewDetail(themes.MustGet(themes.Mono), nil)
	d.SetSize(60, 10)
	d.SetMarkdown("**Status** OPEN and *acknowledged* by `oncall`")
	raw := d.View()
	v := plain(raw)
	mustContain(t, v, "Status OPEN and acknowledged by oncall")
	if strings.Contains(v, "*") || strings.Contains(v, "`") {
		t.Fatalf("markdown marks left in the mono render: %q", v)
	}
	mustContain(t, raw, "\x1b[1m") // bold, the mono theme's emphasis
	if strings.Contains(raw, "\x1b[38;") || strings.Contains(raw, "\x1b[48;") {
		t.Fatalf("mono render has colour: %q", raw)
	}
}

// Plain text breaks between words; only a word longer than the width is
// broken inside.
func TestDetailTextWrapsBetweenWords(t *testing.T) {
	d := NewDetail(themes.MustGet(themes.Mono), nil)
	d.SetSize(20, 10)
	d.SetText("the index build failed on shard payments-rs-shard-00-02-long-name today")
	lines := strings.Split(strings.TrimRight(plain(d.View()), "\n "), "\n")
	for _, l := range lines {
		l = strings.TrimRight(l, " ")
		if l == "" {
			continue
		}
		for _, w := range []string{"index", "build", "failed", "shard", "today"} {
			if strings.HasSuffix(l, w[:2]) && !strings.HasSuffix(l, w) {
				t.Fatalf("%q cut inside %q:\n%s", l, w, plain(d.View()))
			}
		}
	}
	mustContain(t, plain(d.View()), "failed on shard")
}
