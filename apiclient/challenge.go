package apiclient

import (
	"net/http"
	"strings"

	"github.com/icholy/digest"
)

// findDigestChallenge picks the strongest digest challenge the library can
// answer from every WWW-Authenticate value. A proxy may merge several
// challenges into one header (RFC 7235 section 4.1 allows
// `Digest a=1, Digest b=2`), so each value is split into its challenges
// first. SHA-512-256 is preferred to SHA-512, then SHA-256, then MD5.
func findDigestChallenge(h http.Header) (*digest.Challenge, error) {
	var best *digest.Challenge
	var last error
	for _, v := range h.Values("WWW-Authenticate") {
		for _, c := range splitChallenges(v) {
			if !digest.IsDigest(c) {
				continue
			}
			chal, err := digest.ParseChallenge(c)
			if err != nil {
				last = err
				continue
			}
			if digest.CanDigest(chal) && (best == nil || digestStrength(chal) > digestStrength(best)) {
				best = chal
			}
		}
	}
	switch {
	case best != nil:
		return best, nil
	case last != nil:
		return nil, last
	}
	return nil, digest.ErrNoChallenge
}

func digestStrength(c *digest.Challenge) int {
	switch strings.TrimSuffix(strings.ToUpper(c.Algorithm), "-SESS") {
	case "SHA-512-256":
		return 4
	case "SHA-512":
		return 3
	case "SHA-256":
		return 2
	}
	return 1
}

// splitChallenges splits one WWW-Authenticate value into its challenges
// (RFC 7235: 1#challenge, challenge = auth-scheme [1*SP (token68 /
// #auth-param)]). An element that starts with a token not followed by '='
// begins a new challenge; the others are parameters of the current one.
// Commas inside quoted strings do not split.
func splitChallenges(v string) []string {
	var out []string
	for _, el := range splitTopLevel(v) {
		el = strings.TrimSpace(el)
		if el == "" {
			continue
		}
		if startsChallenge(el) || len(out) == 0 {
			out = append(out, el)
			continue
		}
		out[len(out)-1] += ", " + el
	}
	return out
}

// startsChallenge reports whether el is `scheme` or `scheme SP ...`.
func startsChallenge(el string) bool {
	i := 0
	for i < len(el) && isTokenChar(el[i]) {
		i++
	}
	if i == 0 {
		return false
	}
	rest := strings.TrimLeft(el[i:], " \t")
	if rest == "" {
		return true
	}
	// `token=` (possibly with spaces around '=') is an auth-param.
	return i < len(el) && (el[i] == ' ' || el[i] == '\t') && rest[0] != '='
}

func isTokenChar(b byte) bool {
	switch {
	case 'a' <= b && b <= 'z', 'A' <= b && b <= 'Z', '0' <= b && b <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", b) >= 0
}

// splitTopLevel splits at commas outside quoted strings.
func splitTopLevel(v string) []string {
	var out []string
	start, quoted := 0, false
	for i := 0; i < len(v); i++ {
		switch {
		case quoted && v[i] == '\\':
			i++
		case v[i] == '"':
			quoted = !quoted
		case !quoted && v[i] == ',':
			out = append(out, v[start:i])
			start = i + 1
		}
	}
	return append(out, v[start:])
}
