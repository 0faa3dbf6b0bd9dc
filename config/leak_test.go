package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A config error names the file, the line and the key the user wrote on
// purpose; it never prints a value, nor a key that may be a pasted secret.
func TestConfigErrorsNeverPrintValues(t *testing.T) {
	const secret = "s3cr3tVALUE"
	cases := map[string]string{
		"bare secret line":       secret + "\n",
		"secret as unknown key":  secret + " = 1\n",
		"secret key in profile":  "[p]\n" + secret + " = \"x\"\n",
		"quoted key in profile":  "[p]\n'" + secret + "' = 1\n",
		"unquoted value":         "[p]\nprivate_api_key = " + secret + "\n",
		"unterminated string":    "[p]\nprivate_api_key = '" + secret + "\n",
		"unterminated multiline": "[p]\nprivate_api_key = \"\"\"" + secret + "\n",
		"bad escape":             "[p]\nprivate_api_key = \"abc\\q" + secret + "\"\n",
		"duplicate key":          "[p]\n" + secret + " = 1\n" + secret + " = 2\n",
		"wrong type":             "[p]\nprivate_api_key = [\"" + secret + "\"]\n",
		"theme value":            "theme = \"" + secret + "\"\n",
		"poll duration":          "[poll]\nalerts = \"" + secret + "\"\n",
		"poll pane":              "[poll]\n" + secret + " = \"15s\"\n",
		"role":                   "[p]\n[[p.roles]]\nrole = \"" + secret + "\"\ngroup_id = \"x\"\n",
		"role table key":         "[p]\n[[p.roles]]\nrole = \"GROUP_OWNER\"\n" + secret + " = \"x\"\n",
		"service value":          "[p]\nservice = \"" + secret + "\"\n",
		"auth type value":        "[p]\nauth_type = \"" + secret + "\"\n",
		"hex with secret":        "[p]\nprivate_api_key = 0x" + secret + "\n",
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.toml")
			require.NoError(t, os.WriteFile(path, []byte(text), 0o600))
			_, err := Load(LoadOptions{ConfigPath: path, Profile: "p", Env: func(string) string { return "" }})
			require.Error(t, err)
			assert.NotContains(t, err.Error(), secret)
			assert.NotContains(t, err.Error(), "s3cr3t")
			assert.Contains(t, err.Error(), path, "the message still says where")
		})
	}
}

func TestUnknownKeyIsReportedByLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	require.NoError(t, os.WriteFile(path, []byte("[p]\npublic_api_key = \"a\"\n\nAbCdEf0123 = \"b\"\n"), 0o600))
	_, err := Load(LoadOptions{ConfigPath: path, Profile: "p", Env: func(string) string { return "" }})
	require.Error(t, err)
	assert.Equal(t, "config: "+path+":4: unknown key", err.Error())
}
