package apiclient

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// StartCache keeps, for one caller on one service, what a start would
// otherwise ask the service again: who the caller is, the organizations,
// projects and clusters, and what was last heard of the rate limits. Each
// entry carries the time it was read, so a screen drawn from it can say how
// old it is.
//
// It lives in one file per base URL, service and principal under an
// owner-only directory (0700; the file 0600): a cache that others may read
// or write is refused, not used (it names the caller's roles and projects,
// and a forged one would steer the dashboard).
type StartCache struct {
	path string

	mu   sync.Mutex
	file startCacheFile
}

type startCacheFile struct {
	Entries map[string]cacheEntry `json:"entries"`
}

type cacheEntry struct {
	At   time.Time       `json:"at"`
	Data json.RawMessage `json:"data"`
}

// OpenStartCache opens (or starts) the cache of principal on baseURL and
// service under dir, creating dir with mode 0700. It refuses a directory or
// file that others may read or write, or that belongs to someone else; a
// file it cannot parse is started afresh.
func OpenStartCache(dir, baseURL, service, principal string) (*StartCache, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("cache directory %s: %w", dir, err)
	}
	if err := ownerOnly(dir, true); err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(baseURL + "\n" + service + "\n" + principal))
	c := &StartCache{path: filepath.Join(dir, "start-"+hex.EncodeToString(sum[:8])+".json")}
	c.file.Entries = map[string]cacheEntry{}
	if err := ownerOnly(c.path, false); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return c, nil
		}
		return nil, err
	}
	data, err := os.ReadFile(c.path)
	if err != nil {
		return nil, fmt.Errorf("cache %s: %w", c.path, err)
	}
	var f startCacheFile
	if json.Unmarshal(data, &f) == nil && f.Entries != nil {
		c.file = f
	}
	return c, nil
}

// ownerOnly refuses a path others may read or write or that another user
// owns; a missing path is fs.ErrNotExist.
func ownerOnly(path string, dir bool) error {
	fi, err := os.Lstat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return fmt.Errorf("cache %s: %w", path, err)
	}
	want, kind := os.FileMode(0o600), "file"
	if dir {
		want, kind = 0o700, "directory"
	}
	switch {
	case dir && !fi.IsDir(), !dir && !fi.Mode().IsRegular():
		return fmt.Errorf("cache %s is not a regular %s; not used", path, kind)
	case checkModes && fi.Mode().Perm()&0o077 != 0:
		return fmt.Errorf("cache %s %s is open to others (mode %04o); not used: chmod %04o %s", kind, path, fi.Mode().Perm(), want, path)
	case !ownedByMe(fi):
		return fmt.Errorf("cache %s %s belongs to another user; not used", kind, path)
	}
	return nil
}

// Path is the cache file.
func (c *StartCache) Path() string { return c.path }

// Get decodes entry name into out and says when it was read; ok is false
// when there is no such entry or it does not decode.
func (c *StartCache) Get(name string, out any) (at time.Time, ok bool) {
	if c == nil {
		return time.Time{}, false
	}
	c.mu.Lock()
	e, found := c.file.Entries[name]
	c.mu.Unlock()
	if !found || json.Unmarshal(e.Data, out) != nil {
		return time.Time{}, false
	}
	return e.At, true
}

// Put records v as entry name, read at at (kept in memory until Save).
func (c *StartCache) Put(name string, v any, at time.Time) {
	if c == nil {
		return
	}
	data, err := json.Marshal(v)
	if err != nil {
		return
	}
	c.mu.Lock()
	c.file.Entries[name] = cacheEntry{At: at, Data: data}
	c.mu.Unlock()
}

// Save writes the cache: a private temporary file renamed over the old one,
// so a reader never sees half a file and the mode is 0600 from the start.
func (c *StartCache) Save() error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	data, err := json.Marshal(c.file)
	c.mu.Unlock()
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(c.path), ".start-*.tmp")
	if err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("cache: %w", err)
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("cache: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	if err := os.Rename(tmp.Name(), c.path); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	return nil
}
