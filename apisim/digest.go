package apisim

import (
	"crypto/md5"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"hash"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// HTTP Digest (RFC 7616) with qop=auth: MD5 as the service, or SHA-256
// when Options.DigestSHA256 is set.
//
// A nonce stays valid for nonceLifetime of server time and may be reused for
// many requests, as clients that cache the challenge (icholy/digest) do. Each
// nonce count may be used once. Counts need not arrive in order: a client
// that shares one challenge across goroutines numbers its requests in order
// but they can reach us out of order, so we accept any unused count within a
// window below the highest seen and reject repeats and counts older than the
// window.

const (
	digestRealm   = "MMS Public API"
	nonceLifetime = 5 * time.Minute
	ncWindow      = 512 // counts remembered below the highest seen
	maxNonces     = 50000
	// maxPendingPerClient bounds the nonces one client address holds that
	// no request has used yet: a flood of unauthenticated requests only
	// ever replaces its own unused nonces, never a nonce another client
	// (or the same address's honest client) is signing with.
	maxPendingPerClient = 64
)

type nonceState struct {
	issued time.Time
	max    uint64
	seen   [ncWindow / 64]uint64 // bit d set: count max-d was used
	used   bool                  // a request was authenticated with it
}

func (n *nonceState) bit(d uint64) (int, uint64) { return int(d / 64), 1 << (d % 64) }

// use records nc and reports whether it was fresh.
func (n *nonceState) use(nc uint64) bool {
	if nc == 0 {
		return false
	}
	if nc > n.max {
		n.shift(nc - n.max)
		n.max = nc
		n.seen[0] |= 1
		return true
	}
	d := n.max - nc
	if d >= ncWindow {
		return false
	}
	i, m := n.bit(d)
	if n.seen[i]&m != 0 {
		return false
	}
	n.seen[i] |= m
	return true
}

// shift ages the window by s counts.
func (n *nonceState) shift(s uint64) {
	if s >= ncWindow {
		n.seen = [ncWindow / 64]uint64{}
		return
	}
	words, bits := int(s/64), s%64
	var out [ncWindow / 64]uint64
	for i := len(out) - 1; i >= words; i-- {
		v := n.seen[i-words] << bits
		if bits > 0 && i-words-1 >= 0 {
			v |= n.seen[i-words-1] >> (64 - bits)
		}
		out[i] = v
	}
	n.seen = out
}

type digestAuth struct {
	clock   Clock
	alg     string // the one algorithm offered and accepted: MD5 or SHA-256
	mu      sync.Mutex
	nonces  map[string]*nonceState
	pending map[string][]string // client address -> nonces issued to it, oldest first
}

func newDigestAuth(c Clock, sha256 bool) *digestAuth {
	alg := "MD5"
	if sha256 {
		alg = "SHA-256"
	}
	return &digestAuth{clock: c, alg: alg, nonces: map[string]*nonceState{}, pending: map[string][]string{}}
}

// remember stores a new nonce for client (d.mu held). The client's oldest
// unused nonce makes room when it holds maxPendingPerClient; when the
// whole store is full, expired nonces go, then unused ones, and a used
// (live) nonce only when nothing else is left.
func (d *digestAuth) remember(nonce, client string, now time.Time) {
	q := d.pending[client]
	for len(q) >= maxPendingPerClient {
		if n, ok := d.nonces[q[0]]; ok && !n.used {
			delete(d.nonces, q[0])
		}
		q = q[1:]
	}
	if len(d.nonces) >= maxNonces {
		for k, n := range d.nonces {
			if now.Sub(n.issued) > nonceLifetime {
				delete(d.nonces, k)
			}
		}
		for k, n := range d.nonces {
			if len(d.nonces) < maxNonces*9/10 {
				break
			}
			if !n.used {
				delete(d.nonces, k)
			}
		}
		for k := range d.nonces {
			if len(d.nonces) < maxNonces {
				break
			}
			delete(d.nonces, k)
		}
		for c, cq := range d.pending {
			kept := cq[:0]
			for _, k := range cq {
				if _, ok := d.nonces[k]; ok {
					kept = append(kept, k)
				}
			}
			if len(kept) == 0 {
				delete(d.pending, c)
			} else {
				d.pending[c] = kept
			}
		}
		q = d.pending[client]
	}
	d.nonces[nonce] = &nonceState{issued: now}
	d.pending[client] = append(q, nonce)
}

// clientOf is the address a request came from, without the port.
func clientOf(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// challenge issues a fresh nonce and returns the one WWW-Authenticate value,
// as the service sends: algorithm MD5, or SHA-256 when the server was
// started with DigestSHA256.
func (d *digestAuth) challenge(stale bool, client string) []string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	nonce := hex.EncodeToString(b[:])
	now := d.clock.Now()
	d.mu.Lock()
	d.remember(nonce, client, now)
	d.mu.Unlock()
	st := "false"
	if stale {
		st = "true"
	}
	return []string{fmt.Sprintf(`Digest realm="%s", domain="", nonce="%s", algorithm=%s, qop="auth", stale=%s`, digestRealm, nonce, d.alg, st)}
}

// digestResult says why a digest was refused.
type digestResult int

const (
	digestOK digestResult = iota
	digestBad
	digestStale
	digestReplay
)

// verify checks an Authorization: Digest header against the identities.
func (d *digestAuth) verify(r *http.Request, header string, lookup func(string) *Identity) (*Identity, digestResult, string) {
	p := parseAuthParams(header)
	user, nonce, resp := p["username"], p["nonce"], p["response"]
	if user == "" || nonce == "" || resp == "" || p["uri"] == "" {
		return nil, digestBad, "digest response is missing username, nonce, uri or response"
	}
	if p["realm"] != digestRealm {
		return nil, digestBad, "digest realm does not match"
	}
	if p["uri"] != r.URL.RequestURI() && p["uri"] != r.RequestURI {
		return nil, digestBad, "digest uri does not match the request"
	}
	if !strings.EqualFold(p["qop"], "auth") {
		return nil, digestBad, "digest qop must be auth"
	}
	nc, err := strconv.ParseUint(p["nc"], 16, 32)
	if err != nil || len(p["nc"]) != 8 || p["cnonce"] == "" {
		return nil, digestBad, "digest nc must be 8 hex digits and cnonce is required"
	}
	var h hash.Hash
	alg := strings.ToUpper(p["algorithm"])
	switch {
	case alg != d.alg && !(alg == "" && d.alg == "MD5"):
		return nil, digestBad, "digest algorithm must be " + d.alg
	case d.alg == "SHA-256":
		h = sha256.New()
	default:
		h = md5.New()
	}
	id := lookup(user)
	if id == nil || id.Kind != KindAPIKey {
		return nil, digestBad, "unknown API key"
	}
	hx := func(s string) string { h.Reset(); h.Write([]byte(s)); return hex.EncodeToString(h.Sum(nil)) }
	ha1 := hx(user + ":" + digestRealm + ":" + id.PrivateKey)
	ha2 := hx(r.Method + ":" + p["uri"])
	want := hx(ha1 + ":" + nonce + ":" + p["nc"] + ":" + p["cnonce"] + ":" + p["qop"] + ":" + ha2)
	if subtle.ConstantTimeCompare([]byte(strings.ToLower(resp)), []byte(want)) != 1 {
		return nil, digestBad, "digest response does not match"
	}
	now := d.clock.Now()
	d.mu.Lock()
	defer d.mu.Unlock()
	n, ok := d.nonces[nonce]
	if !ok || now.Sub(n.issued) > nonceLifetime || now.Before(n.issued.Add(-time.Minute)) {
		delete(d.nonces, nonce)
		return nil, digestStale, "nonce expired"
	}
	if !n.use(nc) {
		return nil, digestReplay, fmt.Sprintf("nonce count %s was already used", p["nc"])
	}
	n.used = true
	return id, digestOK, ""
}

// parseAuthParams splits `k=v, k="v, w"` into a map; keys are lower-cased.
// It never fails: a malformed header simply lacks keys.
func parseAuthParams(s string) map[string]string {
	out := map[string]string{}
	if i := strings.IndexByte(s, ' '); i >= 0 {
		s = s[i+1:]
	} else {
		return out
	}
	for len(s) > 0 {
		s = strings.TrimLeft(s, " \t,")
		eq := strings.IndexByte(s, '=')
		if eq <= 0 {
			return out
		}
		key := strings.ToLower(strings.TrimSpace(s[:eq]))
		s = s[eq+1:]
		var val string
		if strings.HasPrefix(s, `"`) {
			var b strings.Builder
			i := 1
			for ; i < len(s); i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
					b.WriteByte(s[i])
					continue
				}
				if s[i] == '"' {
					break
				}
				b.WriteByte(s[i])
			}
			val = b.String()
			if i < len(s) {
				i++
			}
			s = s[i:]
		} else {
			end := strings.IndexByte(s, ',')
			if end < 0 {
				end = len(s)
			}
			val = strings.TrimSpace(s[:end])
			s = s[end:]
		}
		out[key] = val
	}
	return out
}
