package serve

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/keygen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"
)

func pubKey(t *testing.T) string {
	t.Helper()
	kp, err := keygen.New("", keygen.WithKeyType(keygen.Ed25519))
	require.NoError(t, err)
	return strings.TrimSpace(kp.AuthorizedKey())
}

func TestLoadTeam(t *testing.T) {
	alice, bob := pubKey(t), pubKey(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "team.toml")
	text := `[[member]]
name = "alice"
keys = ["` + alice + ` alice@laptop"]
profile = "prod"

[[member]]
name = "bob"
keys = ["` + bob + `"]
profile = "prod-ro"
read_only = true
`
	require.NoError(t, os.WriteFile(path, []byte(text), 0o600))
	team, err := LoadTeam(path)
	require.NoError(t, err)
	require.Len(t, team.Members, 2)
	assert.Equal(t, []string{"prod", "prod-ro"}, team.Profiles())
	assert.True(t, team.Members[1].ReadOnly)
	assert.Equal(t, "alice", team.Lookup(team.Members[0].Keys[0]).Name)
	assert.Nil(t, team.Lookup(nil))

	require.NoError(t, os.Chmod(path, 0o640))
	_, err = LoadTeam(path)
	require.ErrorContains(t, err, "open to others (mode 0640)")
	require.ErrorContains(t, err, "chmod 600")
}

func TestParseTeamRefuses(t *testing.T) {
	k := pubKey(t)
	for name, tc := range map[string]struct{ text, want string }{
		"unknown key":  {`[[member]]` + "\n" + `name = "a"` + "\n" + `keys = ["` + k + `"]` + "\n" + `profile = "p"` + "\n" + `password = "x"`, "unknown key member.password"},
		"no name":      {`[[member]]` + "\n" + `keys = ["` + k + `"]` + "\n" + `profile = "p"`, "no name"},
		"no profile":   {`[[member]]` + "\n" + `name = "a"` + "\n" + `keys = ["` + k + `"]`, "no profile"},
		"no keys":      {`[[member]]` + "\n" + `name = "a"` + "\n" + `profile = "p"`, "no keys"},
		"bad key":      {`[[member]]` + "\n" + `name = "a"` + "\n" + `keys = ["ssh-ed25519 AAAAnope"]` + "\n" + `profile = "p"`, "key 1 is not an SSH public key"},
		"same name":    {`[[member]]` + "\n" + `name = "a"` + "\n" + `keys = ["` + k + `"]` + "\n" + `profile = "p"` + "\n" + `[[member]]` + "\n" + `name = "a"` + "\n" + `keys = ["` + pubKey(t) + `"]` + "\n" + `profile = "p"`, "taken by an earlier member"},
		"shared key":   {`[[member]]` + "\n" + `name = "a"` + "\n" + `keys = ["` + k + `"]` + "\n" + `profile = "p"` + "\n" + `[[member]]` + "\n" + `name = "b"` + "\n" + `keys = ["` + k + `"]` + "\n" + `profile = "p"`, "is also a's"},
		"nobody":       {``, "nobody could come in"},
		"control char": {`[[member]]` + "\n" + `name = "a\u001b[31m"` + "\n" + `keys = ["` + k + `"]` + "\n" + `profile = "p"`, "control characters"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ParseTeam("team.toml", tc.text)
			require.ErrorContains(t, err, tc.want)
		})
	}
}

func TestHostKeyKeptAndOwnerOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "host")
	first, err := HostKey(path)
	require.NoError(t, err)
	st, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	again, err := HostKey(path)
	require.NoError(t, err)
	pub := func(pem []byte) []byte {
		s, err := gossh.ParsePrivateKey(pem)
		require.NoError(t, err)
		return s.PublicKey().Marshal()
	}
	assert.Equal(t, pub(first), pub(again), "generated once, then kept")
	require.NoError(t, os.Chmod(path, 0o644))
	_, err = HostKey(path)
	require.ErrorContains(t, err, "open to others")
}
