package accesslogs

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The IP filter names an address, a network or the first parts of one:
// the board's row of failures from 10.0.0.1 never shows 10.0.0.12's.
func TestIPFilterMatchesWholeParts(t *testing.T) {
	for _, c := range []struct {
		filter, ip string
		want       bool
	}{
		{"10.0.0.1", "10.0.0.1", true},
		{"10.0.0.1", "10.0.0.12", false},
		{"10.2", "10.2.7.1", true},
		{"10.2.", "10.2.7.1", true},
		{"10.2", "10.20.7.1", false},
		{"10.2.0.0/16", "10.2.250.3", true},
		{"10.2.0.0/16", "10.3.0.1", false},
		{"2001:db8::1", "2001:db8::1", true},
		{"2001:db8::1", "2001:db8::10", false},
		{"2001:db8::/32", "2001:db8:ffff::1", true},
		{"2001:db8", "2001:db8::1", true},
	} {
		assert.Equal(t, c.want, ipMatches(c.filter, c.ip), "%s ~ %s", c.filter, c.ip)
	}
}
