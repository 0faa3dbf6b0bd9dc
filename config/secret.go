package config

import (
	"fmt"
	"log/slog"
	"strings"
)

// Secret is a credential read from a file or the environment. Every way of
// printing it (fmt verbs, slog) shows the masked form, so a stray %v in a log
// line cannot leak it; Reveal is the one way to get the value back.
type Secret string

// Reveal returns the raw value, for building the HTTP transport only.
func (s Secret) Reveal() string { return string(s) }

// IsSet reports whether the secret has a value.
func (s Secret) IsSet() bool { return s != "" }

// Masked shows only the last 4 characters, and nothing of a short secret,
// where 4 characters would be most of it.
func (s Secret) Masked() string { return mask(string(s)) }

// String implements fmt.Stringer with the masked form.
func (s Secret) String() string { return mask(string(s)) }

// GoString keeps %#v masked too.
func (s Secret) GoString() string { return fmt.Sprintf("config.Secret(%q)", mask(string(s))) }

// Format masks the secret under every verb, including %q, %x and %d.
func (s Secret) Format(f fmt.State, verb rune) {
	switch verb {
	case 'q':
		fmt.Fprintf(f, "%q", mask(string(s)))
	case 'v':
		if f.Flag('#') {
			fmt.Fprint(f, s.GoString())
			return
		}
		fmt.Fprint(f, mask(string(s)))
	default:
		fmt.Fprint(f, mask(string(s)))
	}
}

// LogValue keeps slog output masked.
func (s Secret) LogValue() slog.Value { return slog.StringValue(mask(string(s))) }

// MarshalText keeps encoders (JSON, TOML) from writing the raw value.
func (s Secret) MarshalText() ([]byte, error) { return []byte(mask(string(s))), nil }

// revealLen is how long a secret must be before its last 4 characters may be shown.
const revealLen = 8

func mask(v string) string {
	if v == "" {
		return ""
	}
	r := []rune(v)
	if len(r) < revealLen {
		return strings.Repeat("*", len(r))
	}
	return strings.Repeat("*", len(r)-4) + string(r[len(r)-4:])
}
