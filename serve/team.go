package serve

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	gossh "golang.org/x/crypto/ssh"
)

// The team file says who may come in and as whom:
//
//	[[member]]
//	name = "alice"
//	keys = ["ssh-ed25519 AAAA... alice@laptop"]
//	profile = "prod"        # the profile (credentials) her actions use
//
//	[[member]]
//	name = "lead"
//	keys = ["ssh-ed25519 AAAA..."]
//	profile = "prod"
//	read_only = true        # every write refused, in the client she calls
//
// It is refused unless only its owner may read it, like the config file.

// Member is one person of the team.
type Member struct {
	Name     string
	Profile  string
	ReadOnly bool
	Keys     []gossh.PublicKey
}

// Team is the parsed team file.
type Team struct {
	Path    string
	Members []*Member
	byKey   map[string]*Member // by the key's wire form
}

type teamFile struct {
	Member []struct {
		Name     string   `toml:"name"`
		Keys     []string `toml:"keys"`
		Profile  string   `toml:"profile"`
		ReadOnly bool     `toml:"read_only"`
	} `toml:"member"`
}

// LoadTeam reads and checks the team file at path: owner-only, known keys
// only, every member with a name, at least one key and a profile, no name
// or key twice.
func LoadTeam(path string) (*Team, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("team file: %w", err)
	}
	if runtime.GOOS != "windows" && st.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("team file %s is open to others (mode %04o) and says who may act with which credentials; run: chmod 600 %s",
			path, st.Mode().Perm(), path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("team file: %w", err)
	}
	return ParseTeam(path, string(data))
}

// ParseTeam checks a team file's text (see LoadTeam; no mode check).
func ParseTeam(path, text string) (*Team, error) {
	var f teamFile
	md, err := toml.Decode(text, &f)
	if err != nil {
		return nil, fmt.Errorf("team file %s: %w", path, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		names := make([]string, len(und))
		for i, k := range und {
			names[i] = k.String()
		}
		return nil, fmt.Errorf("team file %s: unknown key %s (a member has name, keys, profile, read_only)", path, strings.Join(names, ", "))
	}
	t := &Team{Path: path, byKey: map[string]*Member{}}
	names := map[string]bool{}
	for i, m := range f.Member {
		where := fmt.Sprintf("team file %s: member %d", path, i+1)
		name := strings.TrimSpace(m.Name)
		switch {
		case name == "":
			return nil, fmt.Errorf("%s: no name", where)
		case strings.ContainsFunc(name, func(r rune) bool { return r < ' ' || r == 0x7f }):
			return nil, fmt.Errorf("%s: the name has control characters", where)
		case names[name]:
			return nil, fmt.Errorf("%s: the name %q is taken by an earlier member", where, name)
		case strings.TrimSpace(m.Profile) == "":
			return nil, fmt.Errorf("%s (%s): no profile: name the profile whose credentials this member's actions use", where, name)
		case len(m.Keys) == 0:
			return nil, fmt.Errorf("%s (%s): no keys", where, name)
		}
		names[name] = true
		mem := &Member{Name: name, Profile: strings.TrimSpace(m.Profile), ReadOnly: m.ReadOnly}
		for j, line := range m.Keys {
			pk, _, _, _, err := gossh.ParseAuthorizedKey([]byte(line))
			if err != nil {
				return nil, fmt.Errorf("%s (%s): key %d is not an SSH public key (%v); paste a line of ~/.ssh/id_ed25519.pub", where, name, j+1, err)
			}
			if other := t.byKey[string(pk.Marshal())]; other != nil {
				return nil, fmt.Errorf("%s (%s): key %d (%s) is also %s's: a key names one person", where, name, j+1, gossh.FingerprintSHA256(pk), other.Name)
			}
			t.byKey[string(pk.Marshal())] = mem
			mem.Keys = append(mem.Keys, pk)
		}
		t.Members = append(t.Members, mem)
	}
	if len(t.Members) == 0 {
		return nil, fmt.Errorf("team file %s: no [[member]]: nobody could come in", path)
	}
	return t, nil
}

// Lookup is the member whose key pk is, or nil.
func (t *Team) Lookup(pk gossh.PublicKey) *Member {
	if t == nil || pk == nil {
		return nil
	}
	return t.byKey[string(pk.Marshal())]
}

// Profiles are the profiles the members use, sorted, each once.
func (t *Team) Profiles() []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range t.Members {
		if !seen[m.Profile] {
			seen[m.Profile] = true
			out = append(out, m.Profile)
		}
	}
	sort.Strings(out)
	return out
}

// WriteTeamFile writes text to path owner-only (the demo's team file).
func WriteTeamFile(path, text string) error {
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		return err
	}
	return errors.Join(os.Chmod(path, 0o600))
}
