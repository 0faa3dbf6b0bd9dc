package apisim

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// The state file holds the world as JSON. It is written atomically (temp
// file, fsync, rename) with mode 0600: at start when it did not exist, before
// the answer to every API call that changed the world, within saveDelay of a
// change the world made by itself (an incident, a job finishing), and on
// Close. A file that does not parse or fails the schema check (checkWorld)
// is refused with the reason and never overwritten; so is a file larger
// than the cap. It also holds the world's clock reading at the save: the
// server's own clock resumes from it (clock.go), so a restart never moves
// the world back in time. A file without one (written before the clock was
// saved) starts at the clock's own reading.

const stateFormat = 1

type stateFile struct {
	Format int        `json:"format"`
	Clock  *time.Time `json:"clock,omitempty"` // the world's time at the save
	World  *World     `json:"world"`
}

// loadState reads the world and the clock reading it was saved at (zero
// when the file has none); no file is a nil world and no error.
func loadState(path string, maxBytes int64) (*World, time.Time, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultStateMaxBytes
	}
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, time.Time{}, nil
	}
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("read state file: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, time.Time{}, fmt.Errorf("state file %s is not a regular file; it was left untouched", path)
	}
	if fi.Size() > maxBytes {
		return nil, time.Time{}, fmt.Errorf("state file %s is %d MiB, over the %d MiB cap; it was left untouched: raise the cap with --state-max-mb if you mean it", path, fi.Size()>>20, maxBytes>>20)
	}
	// Opened without blocking and checked again: a path swapped for a FIFO
	// after the Stat would otherwise wait for a writer.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("read state file: %w", err)
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, time.Time{}, fmt.Errorf("state file %s is not a regular file; it was left untouched", path)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxBytes+1))
	f.Close()
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("read state file: %w", err)
	}
	if int64(len(b)) > maxBytes {
		return nil, time.Time{}, fmt.Errorf("state file %s grew over the %d MiB cap while being read; it was left untouched", path, maxBytes>>20)
	}
	if err := checkText(b); err != nil {
		return nil, time.Time{}, fmt.Errorf("state file %s is corrupt: %v; it was left untouched: move it away or pass another --state", path, err)
	}
	var st stateFile
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, time.Time{}, fmt.Errorf("state file %s is corrupt (%v); it was left untouched: move it away or pass another --state", path, err)
	}
	if st.Format != stateFormat || st.World == nil {
		return nil, time.Time{}, fmt.Errorf("state file %s is not a dbadmin-sim state (format %d); it was left untouched: move it away or pass another --state", path, st.Format)
	}
	if err := checkWorld(st.World); err != nil {
		return nil, time.Time{}, fmt.Errorf("state file %s is inconsistent: %v; it was left untouched: move it away or pass another --state", path, err)
	}
	st.World.normalize()
	var saved time.Time
	if st.Clock != nil {
		saved = st.Clock.UTC()
		if err := checkClock(saved); err != nil {
			return nil, time.Time{}, fmt.Errorf("state file %s is inconsistent: %v; it was left untouched: move it away or pass another --state", path, err)
		}
	}
	return st.World, saved, nil
}

// snapshotState marshals the world under the lock.
func (s *Server) snapshotState() ([]byte, uint64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.snapshotLocked()
}

// snapshotLocked marshals the world with the clock's reading and numbers
// the snapshot; s.mu is held, so the reading is no earlier than any time
// the world holds.
func (s *Server) snapshotLocked() ([]byte, uint64, error) {
	now := s.clock.Now().UTC()
	b, err := json.Marshal(stateFile{Format: stateFormat, Clock: &now, World: s.world})
	return b, s.persist.nextGen(), err
}

type persister struct {
	path     string
	snapshot func() ([]byte, uint64, error)
	mu       sync.Mutex
	timer    *time.Timer
	closed   bool
	lastErr  error

	writeMu sync.Mutex // one write at a time
	written uint64     // generation of the newest snapshot on disk
	gen     uint64     // generation of the newest snapshot taken (under Server.mu)
}

const saveDelay = 300 * time.Millisecond

func newPersister(path string, snap func() ([]byte, uint64, error)) *persister {
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
	b, gen, err := p.snapshot()
	if err != nil {
		return fmt.Errorf("save state: %w", err)
	}
	return p.write(gen, b)
}

// nextGen numbers a snapshot; call it where the snapshot is taken (under
// Server.mu) so generations follow the order of changes.
func (p *persister) nextGen() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.gen++
	return p.gen
}

// write puts snapshot gen on disk unless a newer one is there already.
func (p *persister) write(gen uint64, b []byte) error {
	p.writeMu.Lock()
	defer p.writeMu.Unlock()
	if gen <= p.written {
		return nil
	}
	if err := p.writeFile(b); err != nil {
		return err
	}
	p.written = gen
	return nil
}

func (p *persister) writeFile(b []byte) error {
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
