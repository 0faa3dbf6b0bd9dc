// Package e2e drives the real dbadmin-tui binary in a detached tmux session:
// build it once, start it at a fixed size, send keys, and wait for text on
// the captured screen. Tests skip when tmux is not installed.
package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

var (
	buildOnce sync.Once
	binPath   string
	binGiven  bool // DBADMIN_E2E_BINARY named it: not ours to remove
	buildErr  error
	sessions  atomic.Int64
)

// RequireTmux skips the test when tmux is not on PATH.
func RequireTmux(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
}

// repoRoot is the module root, found from this file's place.
func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(file))
}

// Binary builds cmd/dbadmin-tui once per test run and returns its path
// (the binary $DBADMIN_E2E_BINARY names, when set: a measurement can run
// two builds in turn against the same tests).
func Binary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		// DBADMIN_E2E_BINARY runs a binary built elsewhere (another
		// revision, for a before-and-after measurement).
		// It is not removed at the end.
		if p := os.Getenv("DBADMIN_E2E_BINARY"); p != "" {
			binPath, binGiven = p, true
			return
		}
		dir, err := os.MkdirTemp("", "dbadmin-tui-e2e-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "dbadmin-tui")
		cmd := exec.Command("go", "build", "-o", binPath, "./cmd/dbadmin-tui")
		cmd.Dir = repoRoot()
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// Session is one program running in its own tmux server (a unique socket,
// so parallel tests and a user's own tmux never collide).
type Session struct {
	t      testing.TB
	socket string
	name   string
	// stderr is the file the program's standard error goes to: the TUI owns
	// the terminal, so anything there is a start-up failure or a defect.
	stderr  string
	demoURL string // StartDemo only
}

// Start runs the binary with args in a detached w x h tmux session. env
// adds variables (KEY=VALUE); the state directory is a fresh temp dir. The
// tmux server is killed when the test ends, passed or failed, and the test
// fails if the program wrote anything to its standard error.
func Start(t testing.TB, w, h int, env []string, args ...string) *Session {
	t.Helper()
	RequireTmux(t)
	bin := Binary(t)
	n := sessions.Add(1)
	state := t.TempDir()
	s := &Session{t: t, socket: fmt.Sprintf("dbadmin-e2e-%d-%d", os.Getpid(), n), name: "dash",
		stderr: filepath.Join(state, "stderr")}
	// sh only redirects standard error ($0 is the file) and execs the rest.
	cmdline := []string{"sh", "-c", `exec "$@" 2>"$0"`, s.stderr,
		"env", "XDG_STATE_HOME=" + state, "XDG_CONFIG_HOME=" + state, "XDG_CACHE_HOME=" + state, "TERM=xterm-256color"}
	cmdline = append(cmdline, env...)
	cmdline = append(cmdline, bin)
	cmdline = append(cmdline, args...)
	tmuxArgs := append([]string{"new-session", "-d", "-s", s.name, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h)}, cmdline...)
	// Registered first, so it runs after the server is killed.
	t.Cleanup(func() {
		if out := s.Stderr(); out != "" {
			t.Errorf("the program wrote to standard error while it ran:\n%s", out)
		}
	})
	t.Cleanup(func() {
		_, _ = s.tmux("kill-server")
		// A server whose last session ended on its own leaves its socket.
		_ = os.Remove(s.socketPath())
	})
	if out, err := s.tmux(tmuxArgs...); err != nil {
		t.Fatalf("tmux new-session: %v: %s", err, out)
	}
	return s
}

// Stderr is what the program has written to its standard error so far.
func (s *Session) Stderr() string {
	b, _ := os.ReadFile(s.stderr)
	return string(b)
}

// socketPath is where tmux puts the socket named by -L.
func (s *Session) socketPath() string {
	dir := os.Getenv("TMUX_TMPDIR")
	if dir == "" {
		dir = "/tmp"
	}
	return filepath.Join(dir, fmt.Sprintf("tmux-%d", os.Getuid()), s.socket)
}

func (s *Session) tmux(args ...string) (string, error) {
	out, err := exec.Command("tmux", append([]string{"-L", s.socket, "-f", "/dev/null"}, args...)...).CombinedOutput()
	return string(out), err
}

// SendKeys sends tmux key names ("q", "Enter", "Escape", "BTab", "C-c") or
// literal text. After Escape it pauses, so the next key is not read as an
// Alt combination.
func (s *Session) SendKeys(keys ...string) {
	s.t.Helper()
	for _, k := range keys {
		if out, err := s.tmux("send-keys", "-t", s.name, k); err != nil {
			s.t.Fatalf("send-keys %q: %v: %s", k, err, out)
		}
		if k == "Escape" {
			time.Sleep(150 * time.Millisecond)
		}
	}
}

// SendFast sends every key in one send-keys call, as fast as tmux can,
// with no pause anywhere (not even after Escape).
func (s *Session) SendFast(keys ...string) {
	s.t.Helper()
	if out, err := s.tmux(append([]string{"send-keys", "-t", s.name}, keys...)...); err != nil {
		s.t.Fatalf("send-keys %q: %v: %s", keys, err, out)
	}
}

// Capture returns the visible screen as text.
func (s *Session) Capture() string {
	out, err := s.tmux("capture-pane", "-p", "-t", s.name)
	if err != nil {
		return ""
	}
	return out
}

// WaitFor polls the screen until it contains text, and returns it; it fails
// the test with the last screen at the deadline.
func (s *Session) WaitFor(text string, timeout time.Duration) string {
	s.t.Helper()
	return s.waitUntil(func(screen string) bool { return strings.Contains(screen, text) }, timeout, "text "+fmt.Sprintf("%q", text))
}

// WaitGone polls until the screen no longer contains text.
func (s *Session) WaitGone(text string, timeout time.Duration) string {
	s.t.Helper()
	return s.waitUntil(func(screen string) bool { return !strings.Contains(screen, text) }, timeout, "no "+fmt.Sprintf("%q", text))
}

func (s *Session) waitUntil(ok func(string) bool, timeout time.Duration, what string) string {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	var screen string
	for {
		screen = s.Capture()
		if ok(screen) {
			return screen
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("waited %v for %s; screen:\n%s%s", timeout, what, screen, s.ended())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// ended says, for a failure message, that the program is gone and what it
// wrote to standard error.
func (s *Session) ended() string {
	if s.Alive() {
		return ""
	}
	return "\n(the program has ended; standard error: " + fmt.Sprintf("%q", s.Stderr()) + ")"
}

// Resize changes the window size.
func (s *Session) Resize(w, h int) {
	s.t.Helper()
	if out, err := s.tmux("resize-window", "-t", s.name, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h)); err != nil {
		s.t.Fatalf("resize-window: %v: %s", err, out)
	}
}

// Alive reports whether the program (and so the session) is still running.
func (s *Session) Alive() bool {
	_, err := s.tmux("has-session", "-t", s.name)
	return err == nil
}

// WaitExit waits for the program to end.
func (s *Session) WaitExit(timeout time.Duration) {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	for s.Alive() {
		if time.Now().After(deadline) {
			s.t.Fatalf("program still running after %v; screen:\n%s", timeout, s.Capture())
		}
		time.Sleep(50 * time.Millisecond)
	}
}
