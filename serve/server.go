// Package serve is `dbadmin-tui serve`: the dashboard over SSH for an
// on-call team. Every session gets a dashboard of its own, sized to its own
// terminal; the sessions of one upstream identity share one client (its
// connections, Scheduler and ReadShare). Who may come in, as whom, is the
// team file; only public keys are accepted.
package serve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	"charm.land/wish/v2/activeterm"
	bm "charm.land/wish/v2/bubbletea"
	"github.com/charmbracelet/keygen"
	gossh "golang.org/x/crypto/ssh"
)

// Options configure a Server.
type Options struct {
	Team        *Team
	HostKeyPath string // generated (ed25519, 0600) when missing
	// Dashboard builds a session's model. It is called after the key was
	// accepted and the terminal is known.
	Dashboard func(s *Session) (tea.Model, []tea.ProgramOption, error)
	// IdleTimeout closes a session after no key for this long (0: never).
	IdleTimeout time.Duration
	// MaxSessions refuses a session beyond this many (0: no cap).
	MaxSessions int
	Hub         *Hub // default NewHub()
	// Notify is the message each dashboard gets when who is here or who
	// acts on what changed (reload: someone's write was applied, read
	// again); default PresenceMsg.
	Notify func(reload bool) tea.Msg
	Log    *slog.Logger // who came and went; default: discard
}

// Session is one SSH session's dashboard.
type Session struct {
	ID          int
	Member      *Member
	Fingerprint string
	Remote      string
	Width       int
	Height      int
	Started     time.Time

	ssh      ssh.Session
	program  *tea.Program
	lastKey  atomic.Int64 // unix nanoseconds
	closeWhy atomic.Pointer[string]
}

// Server is the SSH server.
type Server struct {
	o    Options
	srv  *ssh.Server
	hub  *Hub
	log  *slog.Logger
	next atomic.Int64

	mu       sync.Mutex
	sessions map[int]*Session
	closing  bool
	done     chan struct{}
}

type ctxKey string

const memberKey ctxKey = "member"

// New builds the server; Serve starts it.
func New(o Options) (*Server, error) {
	if o.Team == nil || o.Dashboard == nil {
		return nil, errors.New("serve: a team and a dashboard are required")
	}
	if o.Hub == nil {
		o.Hub = NewHub()
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	s := &Server{o: o, hub: o.Hub, log: o.Log, sessions: map[int]*Session{}, done: make(chan struct{})}
	o.Hub.changed = s.broadcast
	hostKey, err := HostKey(o.HostKeyPath)
	if err != nil {
		return nil, err
	}
	s.srv, err = wish.NewServer(
		wish.WithHostKeyPEM(hostKey),
		wish.WithPublicKeyAuth(s.auth),
		ssh.AllocatePty(),
		wish.WithMiddleware(
			bm.MiddlewareWithProgramHandler(s.program),
			activeterm.Middleware(),
			s.admit,
		),
	)
	if err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	return s, nil
}

// HostKey reads the host key at path, generating it (ed25519, owner-only)
// the first time. A key others may read is refused: whoever holds it can
// pose as this server.
func HostKey(path string) ([]byte, error) {
	if path == "" {
		return nil, errors.New("serve: no host key path")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("serve: host key: %w", err)
	}
	if st, err := os.Stat(path); err == nil && st.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("serve: host key %s is open to others (mode %04o); run: chmod 600 %s", path, st.Mode().Perm(), path)
	}
	kp, err := keygen.New(path, keygen.WithKeyType(keygen.Ed25519), keygen.WithWrite())
	if err != nil {
		return nil, fmt.Errorf("serve: host key %s: %w", path, err)
	}
	return kp.RawPrivateKey(), nil
}

// Hub is the sessions' presence and acknowledgement guard.
func (s *Server) Hub() *Hub { return s.hub }

// auth accepts a key the team file lists, refuses the rest before any
// screen.
func (s *Server) auth(ctx ssh.Context, key ssh.PublicKey) bool {
	m := s.o.Team.Lookup(key)
	if m == nil {
		s.log.Info("refused", "user", ctx.User(), "key", gossh.FingerprintSHA256(key), "from", remote(ctx.RemoteAddr()))
		return false
	}
	ctx.SetValue(memberKey, m)
	return true
}

func remote(a net.Addr) string {
	if a == nil {
		return ""
	}
	return a.String()
}

// admit is the outermost middleware: the cap, the log of who came and
// went, and the notice a closed session leaves on the terminal.
func (s *Server) admit(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		m, _ := sess.Context().Value(memberKey).(*Member)
		if m == nil {
			wish.Fatalln(sess, "dbadmin-tui: not a team member")
			return
		}
		se := &Session{ID: int(s.next.Add(1)), Member: m, Remote: remote(sess.RemoteAddr()), Started: time.Now(), ssh: sess}
		if pk := sess.PublicKey(); pk != nil {
			se.Fingerprint = gossh.FingerprintSHA256(pk)
		}
		if pty, _, ok := sess.Pty(); ok {
			se.Width, se.Height = pty.Window.Width, pty.Window.Height
		}
		se.lastKey.Store(time.Now().UnixNano())
		s.mu.Lock()
		switch {
		case s.closing:
			s.mu.Unlock()
			wish.Fatalln(sess, "dbadmin-tui: the server is shutting down")
			return
		case s.o.MaxSessions > 0 && len(s.sessions) >= s.o.MaxSessions:
			n := len(s.sessions)
			s.mu.Unlock()
			s.log.Info("refused: session cap", "who", m.Name, "key", se.Fingerprint, "sessions", n)
			wish.Fatalln(sess, fmt.Sprintf("dbadmin-tui: all %d sessions this server takes are in use; try again later", n))
			return
		}
		s.sessions[se.ID] = se
		s.mu.Unlock()
		sess.Context().SetValue(sessionKey, se)
		s.log.Info("came", "who", m.Name, "key", se.Fingerprint, "from", se.Remote, "session", se.ID,
			"profile", m.Profile, "read_only", m.ReadOnly)
		s.hub.add(se)
		defer func() {
			s.mu.Lock()
			delete(s.sessions, se.ID)
			s.mu.Unlock()
			s.hub.remove(se)
			why := "left"
			if w := se.closeWhy.Load(); w != nil {
				why = *w
			}
			s.log.Info("went", "who", m.Name, "session", se.ID, "after", time.Since(se.Started).Round(time.Second).String(), "why", why)
		}()
		stop := make(chan struct{})
		if s.o.IdleTimeout > 0 {
			go s.watchIdle(se, stop)
		}
		next(sess)
		close(stop)
		if w := se.closeWhy.Load(); w != nil {
			notice(sess, "\r\ndbadmin-tui: "+*w+"\r\n")
		}
		_ = sess.Exit(0)
	}
}

const sessionKey ctxKey = "session"

// program builds the session's Bubble Tea program on the session's pty.
func (s *Server) program(sess ssh.Session) *tea.Program {
	se, _ := sess.Context().Value(sessionKey).(*Session)
	if se == nil {
		return nil
	}
	model, opts, err := s.o.Dashboard(se)
	if err != nil {
		s.log.Error("dashboard", "who", se.Member.Name, "err", err)
		wish.Errorln(sess, "dbadmin-tui: "+err.Error()+"\r")
		return nil
	}
	opts = append(opts, bm.MakeOptions(sess)...)
	// The server's signals are the server's: a SIGINT or SIGTERM stops it
	// (Shutdown, with a notice to every session), not each dashboard.
	opts = append(opts, tea.WithoutSignalHandler())
	// After MakeOptions: the last filter is the one kept. A key press is
	// what keeps a session alive; a suspend (ctrl+z) has no shell to go
	// back to.
	opts = append(opts, tea.WithFilter(func(_ tea.Model, msg tea.Msg) tea.Msg {
		switch msg.(type) {
		case tea.KeyPressMsg, tea.MouseClickMsg, tea.PasteMsg:
			se.lastKey.Store(time.Now().UnixNano())
		case tea.SuspendMsg:
			return tea.ResumeMsg{}
		}
		return msg
	}))
	p := tea.NewProgram(model, opts...)
	s.mu.Lock()
	se.program = p
	s.mu.Unlock()
	return p
}

func (s *Server) watchIdle(se *Session, stop chan struct{}) {
	t := time.NewTicker(min(s.o.IdleTimeout/4, 15*time.Second))
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			idle := time.Since(time.Unix(0, se.lastKey.Load()))
			if idle >= s.o.IdleTimeout {
				s.closeSession(se, fmt.Sprintf("closed after %s without a key", s.o.IdleTimeout))
				return
			}
		}
	}
}

// closeSession ends a session's dashboard; why is printed on its terminal.
func (s *Server) closeSession(se *Session, why string) {
	se.closeWhy.CompareAndSwap(nil, &why)
	s.mu.Lock()
	p := se.program
	s.mu.Unlock()
	if p != nil {
		p.Quit()
	} else {
		_ = se.ssh.Close()
	}
}

// PresenceMsg tells a dashboard that who is here or who acts on what
// changed; the model draws again.
type PresenceMsg struct{}

func (s *Server) broadcast(reload bool) {
	var msg tea.Msg = PresenceMsg{}
	if s.o.Notify != nil {
		msg = s.o.Notify(reload)
	}
	s.mu.Lock()
	ps := make([]*tea.Program, 0, len(s.sessions))
	for _, se := range s.sessions {
		if se.program != nil {
			ps = append(ps, se.program)
		}
	}
	s.mu.Unlock()
	for _, p := range ps {
		go p.Send(msg)
	}
}

// Sessions is how many sessions are open.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}

// Serve accepts connections on l until Shutdown.
func (s *Server) Serve(l net.Listener) error {
	err := s.srv.Serve(l)
	if errors.Is(err, ssh.ErrServerClosed) {
		return nil
	}
	return err
}

// Shutdown refuses new sessions, closes every open one with notice on its
// terminal, and waits for them (until ctx ends).
func (s *Server) Shutdown(ctx context.Context, notice string) error {
	s.mu.Lock()
	s.closing = true
	open := make([]*Session, 0, len(s.sessions))
	for _, se := range s.sessions {
		open = append(open, se)
	}
	s.mu.Unlock()
	for _, se := range open {
		s.closeSession(se, notice)
	}
	for s.Sessions() > 0 {
		select {
		case <-ctx.Done():
			_ = s.srv.Close()
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
	// Every session has ended; a client that keeps its connection open
	// (a multiplexing master) is given a moment, then cut.
	grace, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := s.srv.Shutdown(grace); err != nil {
		return s.srv.Close()
	}
	return nil
}
