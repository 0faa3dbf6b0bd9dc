// Package journal is the write journal: every write the dashboard makes,
// from `serve`'s sessions or the single-user dashboard, appended as one JSON
// line (fsync'd, owner-only) with who made it, what, on which targets, with
// which values and what came of it. It is written before the outcome is
// shown, so a handoff is read from it rather than written from memory.
package journal

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
)

// Entry is one line of the journal.
type Entry struct {
	Time    time.Time         `json:"time"`
	Who     string            `json:"who"`
	Key     string            `json:"key,omitempty"` // SSH key fingerprint; empty for the local user
	Profile string            `json:"profile,omitempty"`
	Op      string            `json:"op"`
	Method  string            `json:"method"`
	Targets map[string]string `json:"targets,omitempty"`
	Values  json.RawMessage   `json:"values,omitempty"`
	Outcome string            `json:"outcome"` // applied, refused, not sent, unknown, failed
	Status  int               `json:"status,omitempty"`
	Error   string            `json:"error,omitempty"`
}

// Journal appends entries to one file. It is safe for concurrent use.
type Journal struct {
	path string
	now  func() time.Time

	mu     sync.Mutex
	f      *os.File // opened by the first append: a session that writes nothing leaves no file
	closed bool
	failed error // the last append's failure, until one succeeds
}

// DefaultPath is $XDG_STATE_HOME/dbadmin-tui/journal.jsonl, else
// ~/.local/state/dbadmin-tui/journal.jsonl.
func DefaultPath(getenv func(string) string) (string, error) {
	if d := getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "dbadmin-tui", "journal.jsonl"), nil
	}
	home := getenv("HOME")
	if home == "" {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return "", fmt.Errorf("journal: locate the home directory: %w", err)
		}
	}
	return filepath.Join(home, ".local", "state", "dbadmin-tui", "journal.jsonl"), nil
}

// Open opens the journal at path for appending; the file (mode 0600, in a
// 0700 directory) is made by the first append, so a session that writes
// nothing leaves none. An existing file that group or others may read is
// refused here, at start: it names who did what on which project.
func Open(path string) (*Journal, error) {
	if err := CheckOwnerOnly(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return &Journal{path: path, now: time.Now}, nil
}

// open makes the file on the first append (j.mu held).
func (j *Journal) open() error {
	if err := os.MkdirAll(filepath.Dir(j.path), 0o700); err != nil {
		return err
	}
	if err := CheckOwnerOnly(j.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	f, err := os.OpenFile(j.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	j.f = f
	return nil
}

// CheckOwnerOnly refuses a file group or others may read or write.
func CheckOwnerOnly(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if runtime.GOOS != "windows" && st.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("%s is open to others (mode %04o); run: chmod 600 %s", path, st.Mode().Perm(), path)
	}
	return nil
}

// Path is the journal's file.
func (j *Journal) Path() string { return j.path }

// Append writes e as one line and syncs it to disk before returning.
func (j *Journal) Append(e Entry) error {
	if e.Time.IsZero() {
		e.Time = j.now()
	}
	line, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	line = append(line, '\n')
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return errors.New("journal: closed")
	}
	if j.f == nil {
		err = j.open()
	}
	if err == nil {
		_, err = j.f.Write(line)
	}
	if err == nil {
		err = j.f.Sync()
	}
	if err != nil {
		j.failed = fmt.Errorf("journal %s: %w", j.path, err)
		return j.failed
	}
	j.failed = nil
	return nil
}

// Failed is the last append's failure, nil once one succeeds again.
func (j *Journal) Failed() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.failed
}

// Close syncs and closes the file; later appends fail.
func (j *Journal) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.closed = true
	if j.f == nil {
		return nil
	}
	err := errors.Join(j.f.Sync(), j.f.Close())
	j.f = nil
	return err
}

// FromWrite is the entry of a write the client reported.
func FromWrite(e apiclient.WriteEvent) Entry {
	return Entry{Time: e.Sent, Who: e.Actor.Name, Key: e.Actor.Fingerprint, Profile: e.Actor.Profile,
		Op: e.Op, Method: e.Method, Targets: e.Params, Values: e.Body, Outcome: e.Outcome, Status: e.Status, Error: e.Error}
}

// Hook journals every write of a client (apiclient.Client.SetWriteHook or
// SessionOptions.Hook); a failure to write the journal goes to OnError.
type Hook struct {
	J       *Journal
	OnError func(error)
}

// Before lets every write go: the journal refuses nothing.
func (h Hook) Before(apiclient.Actor, catalog.Op, map[string]string, any) error { return nil }

// After appends the write.
func (h Hook) After(e apiclient.WriteEvent) {
	if err := h.J.Append(FromWrite(e)); err != nil && h.OnError != nil {
		h.OnError(err)
	}
}

// Read returns the entries of the file at path written at or after since,
// oldest first. A line that is not an entry (a torn last line after a
// crash) is skipped and counted in bad.
func Read(path string, since time.Time) (entries []Entry, bad int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	return Decode(f, since)
}

// Decode reads entries from r (see Read).
func Decode(r io.Reader, since time.Time) (entries []Entry, bad int, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		if len(strings.TrimSpace(sc.Text())) == 0 {
			continue
		}
		var e Entry
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Op == "" {
			bad++
			continue
		}
		if !e.Time.Before(since) {
			entries = append(entries, e)
		}
	}
	return entries, bad, sc.Err()
}

// Line is an entry on one line: time, who, what on which targets, outcome.
func Line(e Entry, loc *time.Location) string {
	who := e.Who
	if who == "" {
		who = "?"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s  %-10s %s", e.Time.In(loc).Format("01-02 15:04:05"), who, e.Op)
	if t := Targets(e.Targets); t != "" {
		b.WriteString(" " + t)
	}
	if len(e.Values) > 0 && string(e.Values) != "null" && string(e.Values) != "{}" {
		b.WriteString(" " + string(e.Values))
	}
	b.WriteString(" → " + e.Outcome)
	if e.Status != 0 {
		fmt.Fprintf(&b, " %d", e.Status)
	}
	if e.Outcome != "applied" && e.Error != "" {
		b.WriteString(": " + e.Error)
	}
	return b.String()
}

// Targets is the targets as key=value, in a fixed order.
func Targets(t map[string]string) string {
	keys := make([]string, 0, len(t))
	for k := range t {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, k+"="+t[k])
	}
	return strings.Join(parts, " ")
}

// Summary is the handoff: how many writes, by whom, what failed or is
// unknown (to check first), then every entry.
func Summary(entries []Entry, since time.Time, loc *time.Location) string {
	var b strings.Builder
	writes := 0
	for _, e := range entries {
		if !strings.HasPrefix(e.Outcome, "verified: ") {
			writes++
		}
	}
	fmt.Fprintf(&b, "Writes since %s: %d\n", since.In(loc).Format("2006-01-02 15:04"), writes)
	if len(entries) == 0 {
		return b.String()
	}
	by := map[string]int{}
	ops := map[string]int{}
	// An unknown outcome a later read-back settled is no longer to check:
	// the read-back's entry says what became of it.
	settledAt := map[string]int{}
	for i, e := range entries {
		if strings.HasPrefix(e.Outcome, "verified: ") {
			settledAt[e.Op+" "+Targets(e.Targets)] = i
		}
	}
	var attention []Entry
	for i, e := range entries {
		if !strings.HasPrefix(e.Outcome, "verified: ") {
			by[e.Who]++ // a read-back is the same write, not another
		}
		switch {
		case e.Outcome == "applied" || e.Outcome == "verified: applied":
			ops[e.Op]++
		case e.Outcome == "unknown" && settledAt[e.Op+" "+Targets(e.Targets)] > i:
		default:
			attention = append(attention, e)
		}
	}
	b.WriteString("By: " + counts(by) + "\n")
	if len(ops) > 0 {
		b.WriteString("Applied: " + counts(ops) + "\n")
	}
	if len(attention) > 0 {
		fmt.Fprintf(&b, "\nNot applied or unknown (%d) — check these first:\n", len(attention))
		for _, e := range attention {
			b.WriteString("  " + Line(e, loc) + "\n")
		}
	}
	b.WriteString("\nAll writes:\n")
	for _, e := range entries {
		b.WriteString("  " + Line(e, loc) + "\n")
	}
	return b.String()
}

func counts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		name := k
		if name == "" {
			name = "?"
		}
		parts[i] = fmt.Sprintf("%s %d", name, m[k])
	}
	return strings.Join(parts, ", ")
}
