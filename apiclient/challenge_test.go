package apiclient

import (
	"net/http"
	"testing"

	"github.com/icholy/digest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFindDigestChallenge(t *testing.T) {
	md5 := `Digest realm="MMS Public API", domain="", nonce="n1, still n1", algorithm=MD5, qop="auth", stale=false`
	sha := `Digest realm="MMS Public API", domain="", nonce="n2", algorithm=SHA-256, qop="auth", stale=false`
	cases := []struct {
		name    string
		values  []string
		alg     string
		nonce   string
		wantErr error
	}{
		{"one MD5 challenge", []string{md5}, "MD5", "n1, still n1", nil},
		{"two headers", []string{md5, sha}, "SHA-256", "n2", nil},
		{"merged into one header by a proxy", []string{md5 + ", " + sha}, "SHA-256", "n2", nil},
		{"merged, strongest first", []string{sha + "," + md5}, "SHA-256", "n2", nil},
		{"other schemes around it", []string{`Basic realm="x", ` + md5 + `, Bearer realm="y", error="invalid_token"`}, "MD5", "n1, still n1", nil},
		{"unsupported algorithm skipped", []string{`Digest realm="r", nonce="n3", algorithm=SHA-1, qop="auth", ` + md5}, "MD5", "n1, still n1", nil},
		{"no algorithm means MD5", []string{`Digest realm="r", nonce="n4", qop="auth"`}, "", "n4", nil},
		{"no digest at all", []string{`Basic realm="x"`}, "", "", digest.ErrNoChallenge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := http.Header{}
			for _, v := range c.values {
				h.Add("WWW-Authenticate", v)
			}
			chal, err := findDigestChallenge(h)
			if c.wantErr != nil {
				assert.ErrorIs(t, err, c.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.alg, chal.Algorithm)
			assert.Equal(t, c.nonce, chal.Nonce)
			assert.True(t, chal.SupportsQOP("auth"))
		})
	}
}

func TestSplitChallenges(t *testing.T) {
	got := splitChallenges(`Newauth realm="apps", type=1, title="Login to \"apps\"", Basic realm="simple", Token abc==`)
	assert.Equal(t, []string{`Newauth realm="apps", type=1, title="Login to \"apps\""`, `Basic realm="simple"`, `Token abc==`}, got)
}
