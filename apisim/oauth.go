package apisim

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"sync"
	"time"
)

// OAuth 2.0 client credentials for service accounts, as the real token
// endpoint does it: Basic auth with client id and secret, a form with
// grant_type=client_credentials, a Bearer token valid for one hour of server
// time. Errors here use RFC 6749's body, not ApiError, because OAuth clients
// parse that shape.

const tokenLifetime = time.Hour

type tokenStore struct {
	clock  Clock
	mu     sync.Mutex
	tokens map[string]tokenEntry
}

type tokenEntry struct {
	publicKey string
	expires   time.Time
}

func newTokenStore(c Clock) *tokenStore {
	return &tokenStore{clock: c, tokens: map[string]tokenEntry{}}
}

func (t *tokenStore) issue(publicKey string) string {
	var b [24]byte
	_, _ = rand.Read(b[:])
	tok := hex.EncodeToString(b[:])
	now := t.clock.Now()
	t.mu.Lock()
	defer t.mu.Unlock()
	for k, e := range t.tokens {
		if now.After(e.expires) {
			delete(t.tokens, k)
		}
	}
	t.tokens[tok] = tokenEntry{publicKey: publicKey, expires: now.Add(tokenLifetime)}
	return tok
}

// lookup returns the public key a live token belongs to; expired reports a
// token we issued that has run out.
func (t *tokenStore) lookup(tok string) (pub string, expired bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e, ok := t.tokens[tok]
	if !ok {
		return "", false
	}
	if !t.clock.Now().Before(e.expires) {
		return "", true
	}
	return e.publicKey, false
}

func (t *tokenStore) revoke(tok string) {
	t.mu.Lock()
	delete(t.tokens, tok)
	t.mu.Unlock()
}

func oauthError(w http.ResponseWriter, status int, code, desc string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Basic realm="oauth"`)
	}
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": code, "error_description": desc})
}

// clientFromBasic authenticates a service account from Basic auth.
func (s *Server) clientFromBasic(r *http.Request) *Identity {
	user, pass, ok := r.BasicAuth()
	if !ok {
		return nil
	}
	id := s.identity(user)
	if id == nil || id.Kind != KindServiceAccount || id.PrivateKey != pass {
		return nil
	}
	return id
}

func (s *Server) handleToken(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", "the body must be a form: grant_type=client_credentials")
		return
	}
	id := s.clientFromBasic(r)
	if id == nil {
		oauthError(w, http.StatusUnauthorized, "invalid_client", "unknown client id or wrong secret")
		return
	}
	if gt := r.PostForm.Get("grant_type"); gt != "client_credentials" {
		oauthError(w, http.StatusBadRequest, "unsupported_grant_type", "grant_type must be client_credentials")
		return
	}
	tok := s.tokens.issue(id.PublicKey)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"access_token": tok,
		"token_type":   "Bearer",
		"expires_in":   int(tokenLifetime / time.Second),
	})
}

func (s *Server) handleRevoke(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", "the body must be a form: token=...")
		return
	}
	if s.clientFromBasic(r) == nil {
		oauthError(w, http.StatusUnauthorized, "invalid_client", "unknown client id or wrong secret")
		return
	}
	s.tokens.revoke(r.PostForm.Get("token"))
	w.WriteHeader(http.StatusOK)
}
