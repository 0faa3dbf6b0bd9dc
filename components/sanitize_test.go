package components

import (
	"math/rand"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

func TestSanitize(t *testing.T) {
	cases := []struct{ in, line, text string }{
		{"plain", "plain", "plain"},
		{"a\x1b]0;pwned\x07b", "ab", "ab"},
		{"a\x1b]0;pwned\x1b\\b", "ab", "ab"},
		{"\x1b[2Jclear", "clear", "clear"},
		{"\x1b[31mred\x1b[0m", "red", "red"},
		{"x\x1b[?1049hy", "xy", "xy"},
		{"x\x1bPq#0;2;0;0;0\x1b\\y", "xy", "xy"},
		{"x\x1b_apc\x07y", "xy", "xy"},
		{"x\x1bcy", "xy", "xy"},
		{"x\x1b(By", "xy", "xy"},
		{"x\u009b2Jy", "xy", "xy"},
		{"x\u009d0;t\u009cy", "xy", "xy"},
		{"x\u0085y", "xy", "xy"},
		{"bell\a", "bell", "bell"},
		{"two\nlines", "two lines", "two\nlines"},
		{"crlf\r\nx", "crlf x", "crlf\nx"},
		{"over\rwrite", "overwrite", "overwrite"},
		{"tab\tx", "tab x", "tab    x"},
		{"bs\b\x7fx", "bsx", "bsx"},
		{"évil\u202egnp.exe", "évilgnp.exe", "évilgnp.exe"},
		{"bad\xffutf", "bad\uFFFDutf", "bad\uFFFDutf"},
		{"unterminated \x1b]0;pwned", "unterminated ", "unterminated "},
		{"trailing esc \x1b", "trailing esc ", "trailing esc "},
		{"日本語 ok", "日本語 ok", "日本語 ok"},
	}
	for _, c := range cases {
		if got := Sanitize(c.in); got != c.line {
			t.Errorf("Sanitize(%q) = %q, want %q", c.in, got, c.line)
		}
		if got := SanitizeText(c.in); got != c.text {
			t.Errorf("SanitizeText(%q) = %q, want %q", c.in, got, c.text)
		}
	}
}

// Property: whatever bytes come in, nothing that a terminal acts on comes out.
func TestSanitizeProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	alphabet := []string{"\x1b", "[", "]", "P", "\\", "\a", "\x9b", "\u009b", "\u009d", "\u0090", "0", ";", "m", "J", "a", "é", "\n", "\r", "\t", "\x00", "\x7f", "\xc2", "\x9c", "\u202e", " "}
	for n := 0; n < 20000; n++ {
		var b strings.Builder
		for j := rng.Intn(40); j > 0; j-- {
			b.WriteString(alphabet[rng.Intn(len(alphabet))])
		}
		in := b.String()
		for _, out := range []string{Sanitize(in), SanitizeText(in)} {
			if !utf8.ValidString(out) {
				t.Fatalf("invalid UTF-8 from %q: %q", in, out)
			}
			for _, r := range out {
				if r == 0x1b || r == 0x07 || r == '\r' || (r >= 0x80 && r <= 0x9f) || isBidi(r) || (r < 0x20 && r != '\n') || r == 0x7f {
					t.Fatalf("control %U survived in %q (from %q)", r, out, in)
				}
			}
		}
		if strings.Contains(Sanitize(in), "\n") {
			t.Fatalf("newline in single-line output from %q", in)
		}
	}
}

func TestSanitizeCleanDoesNotAllocate(t *testing.T) {
	s := "a perfectly clean cell – with ünïcode"
	if n := testing.AllocsPerRun(100, func() { _ = Sanitize(s) }); n != 0 {
		t.Fatalf("clean string allocated %v times", n)
	}
}

func TestTruncateAndThousands(t *testing.T) {
	eq(t, "abc", Truncate("abc", 3))
	eq(t, "ab…", Truncate("abcd", 3))
	eq(t, "", Truncate("abc", 0))
	styled := "\x1b[1mbold text\x1b[0m"
	eq(t, 4, Width(Truncate(styled, 4)))
	eq(t, true, strings.HasSuffix(ansi.Strip(Truncate(styled, 4)), "…"))
	eq(t, 3, Width("日x")) // a wide rune and a letter
	eq(t, "1,234,567", Thousands(1234567))
	eq(t, "-1,234", Thousands(-1234))
	eq(t, "999", Thousands(999))
}

func TestAgeIsShortAndNeverNegative(t *testing.T) {
	for d, want := range map[time.Duration]string{
		-time.Second: "0s", 45 * time.Second: "45s", 12 * time.Minute: "12m",
		30 * time.Hour: "30h", 49 * time.Hour: "2d", 10 * 24 * time.Hour: "10d",
	} {
		eq(t, want, Age(d), d.String())
	}
}
