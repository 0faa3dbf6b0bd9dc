package components

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// Truncating a long plain string through its prefix gives what truncating
// the whole string gives, for ASCII, wide characters, emoji sequences and
// combining marks alike, cut anywhere.
func TestTruncateLongPlainStringsByPrefix(t *testing.T) {
	pieces := []string{"a", "W", " ", "日", "本", "👍🏽", "👩‍👩‍👧", "e\u0301", "\u200b", "ﷺ", "…", "\u0301\u0301\u0301"}
	rng := rand.New(rand.NewPCG(1, 17))
	for i := range 500 {
		var b strings.Builder
		for b.Len() < 200+rng.IntN(3000) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s, w := b.String(), 1+rng.IntN(120)
		if i%50 == 0 {
			s = strings.Repeat("\u0301", 2000) + s // mostly zero-width at the start
		}
		want := s
		if ansi.StringWidth(s) > w {
			want = ansi.Truncate(s, w, "…")
		}
		if got := Truncate(s, w); got != want {
			t.Fatalf("Truncate(%q…, %d) = %q, want %q", s[:40], w, got, want)
		}
	}
}
