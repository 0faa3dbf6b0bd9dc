package apisim

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// The state file holds the world as JSON. It is written atomically (temp
// file, fsync, rename) with mode 0600, a short while after a change and on
// Close. A file that does not parse is refused and never overwritten.

const stateFormat = 1

type stateFile struct {
	Format int    `json:"format"`
	World  *World `json:"world"`
}

func loadState(path string) (*World, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read state file: %w", err)
	}
	var st stateFile
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, fmt.Errorf("state file %s is corrupt (%v); it was left untouched: move it away or pass another --state", path, err)
	}
	if st.Format != stateFormat || st.World == nil || st.World.Org.ID == "" {
		return nil, fmt.Errorf("state file %s is not a dbadmin-sim state (format %d); it was left untouched: move it away or pass another --state", path, st.Format)
	}
	st.World.normalize()
	return st.World, nil
}

// snapshotState marshals the world under the lock.
func (s *Server) snapshotState() ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return json.Marshal(stateFile{Format: stateFormat, World: s.world})
}

type persister struct {
	path     string
	snapshot func() ([]byte, error)
	mu       sync.Mutex
	timer    *time.Timer
	closed   bool
	lastErr  error
}

const saveDelay = 300 * time.Millisecond

func newPersister(path string, snap func() ([]byte, error)) *persister {
	return &persister{path: path, snapshot: snap}
}

// touch schedules a save; changes within saveDelay are written together.
func (p *persister) touch() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || p.timer != nil {
		return
	}
	p.timer = time.AfterFunc(saveDelay, func() {
		p.mu.Lock()
		p.timer = nil
		p.mu.Unlock()
		if err := p.save(); err != nil {
			p.mu.Lock()
			p.lastErr = err
			p.mu.Unlock()
		}
	})
}

func (p *persister) close() error {
	p.mu.Lock()
	p.closed = true
	if p.timer != nil {
		p.timer.Stop()
		p.timer = nil
	}
	p.mu.Unlock()
	return p.save()
}

func (p *persister) save() error {
	b, err := p.snapshot()
	if err != nil {
		return fmt.Errorf("save state: %w", err)
	}
	dir := filepath.Dir(p.path)
	tmp, err := os.CreateTemp(dir, ".dbadmin-sim-state-*")
	if err != nil {
		return fmt.Errorf("save state: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("save state: %w", err)
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("save state: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("save state: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("save state: %w", err)
	}
	if err := os.Rename(tmp.Name(), p.path); err != nil {
		return fmt.Errorf("save state: %w", err)
	}
	return nil
}
