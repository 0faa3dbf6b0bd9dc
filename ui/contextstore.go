package ui

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	tea "charm.land/bubbletea/v2"
)

// ContextStore remembers the org/project/cluster chosen per profile in a
// small JSON file, so the next start opens where the user left off.
type ContextStore struct {
	Path string
	mu   sync.Mutex
}

// Remembered is one profile's last context.
type Remembered struct {
	OrgID       string `json:"orgId,omitempty"`
	GroupID     string `json:"groupId,omitempty"`
	ClusterName string `json:"clusterName,omitempty"`
}

// DefaultContextPath is $XDG_STATE_HOME/dbadmin-tui/context.json, else
// ~/.local/state/dbadmin-tui/context.json.
func DefaultContextPath(getenv func(string) string) (string, error) {
	dir, err := stateDir(getenv)
	if err != nil {
		return "", fmt.Errorf("context file: %w", err)
	}
	return filepath.Join(dir, "context.json"), nil
}

// DefaultExportDir is where saved files (access-log exports) go:
// $XDG_STATE_HOME/dbadmin-tui/exports, else ~/.local/state/dbadmin-tui/exports.
func DefaultExportDir(getenv func(string) string) (string, error) {
	dir, err := stateDir(getenv)
	if err != nil {
		return "", fmt.Errorf("export directory: %w", err)
	}
	return filepath.Join(dir, "exports"), nil
}

// stateDir is $XDG_STATE_HOME/dbadmin-tui, else ~/.local/state/dbadmin-tui.
func stateDir(getenv func(string) string) (string, error) {
	if d := getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "dbadmin-tui"), nil
	}
	home := getenv("HOME")
	if home == "" {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return "", err
		}
	}
	return filepath.Join(home, ".local", "state", "dbadmin-tui"), nil
}

func (s *ContextStore) read() (map[string]Remembered, error) {
	data, err := os.ReadFile(s.Path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]Remembered{}, nil
	}
	if err != nil {
		return nil, err
	}
	all := map[string]Remembered{}
	if err := json.Unmarshal(data, &all); err != nil {
		return nil, fmt.Errorf("%s: %w", s.Path, err)
	}
	return all, nil
}

// Load returns the profile's remembered context.
func (s *ContextStore) Load(profile string) (Remembered, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	all, err := s.read()
	if err != nil {
		return Remembered{}, false
	}
	r, ok := all[profile]
	return r, ok
}

// Save records the profile's context (atomically, owner-only).
func (s *ContextStore) Save(profile string, r Remembered) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	all, err := s.read()
	if err != nil {
		all = map[string]Remembered{} // a corrupt file is replaced
	}
	all[profile] = r
	data, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(s.Path), 0o700); err != nil {
		return fmt.Errorf("context file: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.Path), ".context-*.json")
	if err != nil {
		return fmt.Errorf("context file: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("context file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("context file: %w", err)
	}
	return os.Rename(tmp.Name(), s.Path)
}

// remember saves the current context for the profile, off the UI goroutine.
func (m *Model) remember() tea.Cmd {
	store, profile := m.opts.State, m.opts.Profile
	if store == nil || m.scope.project.ID == "" {
		return nil
	}
	r := Remembered{OrgID: m.scope.org.ID, GroupID: m.scope.project.ID, ClusterName: m.scope.cluster}
	return func() tea.Msg {
		if err := store.Save(profile, r); err != nil {
			return toastFromErr("remember context", err)
		}
		return nil
	}
}
