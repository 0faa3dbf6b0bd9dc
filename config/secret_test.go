package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSecretMask(t *testing.T) {
	cases := map[string]string{
		"":                          "",
		"abc":                       "***",
		"1234567":                   "*******",
		"abcdefgh":                  "****efgh",
		"a1b2c3d4-0000-1111-2222-9": "*********************22-9",
	}
	for in, want := range cases {
		assert.Equal(t, want, Secret(in).Masked(), in)
		assert.Equal(t, want, Secret(in).String(), in)
		assert.Equal(t, want, fmt.Sprint(Secret(in)), in)
		assert.Equal(t, in, Secret(in).Reveal())
	}
}

func TestSecretsNeverPrinted(t *testing.T) {
	r := Resolved{
		Name: "default", BaseURL: "https://x", Service: "atlas", AuthType: AuthAPIKeys,
		PublicKey: "pubkey-abcd", PrivateKey: "private-secret-9876", ClientID: "client-id-zzzz",
		ClientSecret: "client-secret-yyyy", AccessToken: "access-token-xxxx",
	}
	raw := []string{"pubkey-abcd", "private-secret", "client-id-", "client-secret-", "access-token-"}

	var logBuf bytes.Buffer
	slog.New(slog.NewTextHandler(&logBuf, nil)).Info("loaded", "profile", r, "key", r.PrivateKey)
	js, _ := json.Marshal(r)

	outputs := map[string]string{
		"String":    r.String(),
		"%v":        fmt.Sprintf("%v", r),
		"%+v":       fmt.Sprintf("%+v", r),
		"%#v":       fmt.Sprintf("%#v", r),
		"%s ptr":    fmt.Sprintf("%s", &r),
		"%q":        fmt.Sprintf("%q", r),
		"field %v":  fmt.Sprintf("%v %s %q %x %#v", r.PrivateKey, r.PrivateKey, r.PrivateKey, r.PrivateKey, r.PrivateKey),
		"Redacted":  fmt.Sprintf("%#v", r.Redacted().PrivateKey.Reveal()),
		"slog":      logBuf.String(),
		"json":      string(js),
		"struct %v": fmt.Sprintf("%+v", struct{ R Resolved }{r}),
	}
	for name, out := range outputs {
		for _, s := range raw {
			assert.NotContains(t, out, s, "%s leaked a secret: %s", name, out)
		}
	}
	assert.Contains(t, r.String(), "private_api_key=***************9876")
	assert.Contains(t, r.String(), `profile "default"`)
}
