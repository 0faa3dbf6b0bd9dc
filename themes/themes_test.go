package themes

import (
	"image/color"
	"reflect"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
)

func TestGetAndNames(t *testing.T) {
	for _, n := range Names() {
		th, err := Get(n)
		if err != nil || th.Name != n {
			t.Fatalf("Get(%q) = %v, %v", n, th.Name, err)
		}
		if th.Glamour == "" {
			t.Fatalf("%s: no glamour style", n)
		}
	}
	_, err := Get("solarized")
	if err == nil || !strings.Contains(err.Error(), "dark, light, mono") {
		t.Fatalf("unknown theme error should list names, got %v", err)
	}
}

func TestResolve(t *testing.T) {
	cases := []struct {
		configured string
		noColor    bool
		dark       bool
		want       string
	}{
		{"dark", true, true, Mono},
		{"light", false, true, Light},
		{"", false, true, Dark},
		{"", false, false, Light},
		{"auto", false, false, Light},
		{"bogus", false, true, Dark},
		{"MONO", false, true, Mono},
	}
	for _, c := range cases {
		if got := Resolve(c.configured, c.noColor, c.dark).Name; got != c.want {
			t.Errorf("Resolve(%q, %v, %v) = %s, want %s", c.configured, c.noColor, c.dark, got, c.want)
		}
	}
}

// Mono must not set a single colour, and its cursor row must be reversed.
func TestMonoHasNoColour(t *testing.T) {
	th := MustGet(Mono)
	v := reflect.ValueOf(th.Styles)
	for i := 0; i < v.NumField(); i++ {
		st := v.Field(i).Interface().(lipgloss.Style)
		name := v.Type().Field(i).Name
		for _, c := range []color.Color{st.GetForeground(), st.GetBackground(), st.GetBorderTopForeground()} {
			if _, none := c.(lipgloss.NoColor); c != nil && !none {
				t.Errorf("mono %s has colour %v", name, c)
			}
		}
	}
	if !th.TableSelected.GetReverse() {
		t.Fatal("mono cursor row must be reverse")
	}
}

func TestClass(t *testing.T) {
	th := MustGet(Dark)
	if !reflect.DeepEqual(th.Class("critical").GetForeground(), th.SeverityCritical.GetForeground()) {
		t.Fatal("critical class")
	}
	if !reflect.DeepEqual(th.Class("whatever").GetForeground(), th.TableCell.GetForeground()) {
		t.Fatal("unknown class falls back to cell")
	}
}
