package apiclient

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"

	"github.com/icholy/digest"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// Auth is how the client proves who it is.
type Auth interface {
	// Mode names the scheme for status lines: digest, oauth, bearer, none.
	Mode() string
	// Principal is the non-secret name of the caller (public key, client id).
	Principal() string
	transport(base http.RoundTripper, baseURL string) http.RoundTripper
}

// DigestAuth signs requests with an API key pair by HTTP Digest. Requests
// go out over a few lanes (see digestLanes), each holding one challenge that
// it reuses with increasing nonce counts, so after a lane's first exchange
// each request costs one round trip.
func DigestAuth(publicKey, privateKey string) Auth {
	return digestAuth{pub: publicKey, priv: privateKey}
}

type digestAuth struct {
	pub, priv string
	warm      int // Options.WarmLanes
}

func (a digestAuth) Mode() string      { return "digest" }
func (a digestAuth) Principal() string { return a.pub }
func (a digestAuth) String() string    { return "digest(" + a.pub + ")" }
func (a digestAuth) transport(base http.RoundTripper, _ string) http.RoundTripper {
	return newDigestLanes(maxDigestLanes, a.warm, base, func(next http.RoundTripper) http.RoundTripper {
		return &digest.Transport{Username: a.pub, Password: a.priv, Transport: next, FindChallenge: findDigestChallenge}
	})
}

// OAuthAuth authenticates as a service account with the client-credentials
// grant at {base}/api/oauth/token. The token is cached until shortly before
// it expires and fetched again after a 401.
func OAuthAuth(clientID, clientSecret string) Auth {
	return oauthAuth{id: clientID, secret: clientSecret}
}

type oauthAuth struct{ id, secret string }

func (a oauthAuth) Mode() string      { return "oauth" }
func (a oauthAuth) Principal() string { return a.id }
func (a oauthAuth) String() string    { return "oauth(" + a.id + ")" }
func (a oauthAuth) transport(base http.RoundTripper, baseURL string) http.RoundTripper {
	cfg := &clientcredentials.Config{
		ClientID:     a.id,
		ClientSecret: a.secret,
		TokenURL:     baseURL + "/api/oauth/token",
		AuthStyle:    oauth2.AuthStyleInHeader,
	}
	return &bearerTransport{base: base, tokens: &tokenCache{cfg: cfg, http: &http.Client{Transport: base}}}
}

// BearerAuth sends a token obtained elsewhere (e.g. the cloud CLI's login).
func BearerAuth(token string) Auth { return bearerAuth{token: token} }

type bearerAuth struct{ token string }

func (a bearerAuth) Mode() string      { return "bearer" }
func (a bearerAuth) Principal() string { return "token" }
func (a bearerAuth) String() string    { return "bearer(****)" }
func (a bearerAuth) transport(base http.RoundTripper, _ string) http.RoundTripper {
	return &bearerTransport{base: base, static: a.token}
}

// NoAuth sends no credentials (the server answers 401 to protected calls).
func NoAuth() Auth { return noAuth{} }

type noAuth struct{}

func (noAuth) Mode() string                                                 { return "none" }
func (noAuth) Principal() string                                            { return "" }
func (noAuth) transport(base http.RoundTripper, _ string) http.RoundTripper { return base }

// tokenCache holds one service-account token and fetches a new one when it
// is missing, about to expire, or was refused.
type tokenCache struct {
	cfg  *clientcredentials.Config
	http *http.Client

	mu      sync.Mutex
	tok     *oauth2.Token
	fetches int
}

func (c *tokenCache) get(ctx context.Context) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tok != nil && c.tok.Valid() {
		return c.tok.AccessToken, nil
	}
	tok, err := c.cfg.Token(context.WithValue(ctx, oauth2.HTTPClient, c.http))
	if err != nil {
		return "", fmt.Errorf("service account token: %w", err)
	}
	c.tok = tok
	c.fetches++
	return tok.AccessToken, nil
}

// invalidate drops the token if it is still the one that was refused.
func (c *tokenCache) invalidate(refused string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tok != nil && c.tok.AccessToken == refused {
		c.tok = nil
	}
}

type bearerTransport struct {
	base   http.RoundTripper
	static string
	tokens *tokenCache
}

func (t *bearerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	token := t.static
	if t.tokens != nil {
		var err error
		if token, err = t.tokens.get(req.Context()); err != nil {
			return nil, err
		}
	}
	res, err := t.base.RoundTrip(withBearer(req, token))
	if err != nil || res.StatusCode != http.StatusUnauthorized || t.tokens == nil {
		return res, err
	}
	// The token may have been revoked or expired early: fetch a fresh one and
	// try once more, if the body can be sent again.
	if req.Body != nil && req.GetBody == nil {
		return res, nil
	}
	t.tokens.invalidate(token)
	fresh, terr := t.tokens.get(req.Context())
	if terr != nil || fresh == token {
		return res, nil
	}
	retry := req.Clone(req.Context())
	if req.GetBody != nil {
		body, berr := req.GetBody()
		if berr != nil {
			return res, nil
		}
		retry.Body = body
	}
	res.Body.Close()
	return t.base.RoundTrip(withBearer(retry, fresh))
}

func withBearer(req *http.Request, token string) *http.Request {
	r := req.Clone(req.Context())
	r.Header.Set("Authorization", "Bearer "+token)
	return r
}

// hostGuard sends requests for the base URL's host through the
// authenticating transport and every other request (a redirect to another
// host) through the plain one, so no Authorization header, bearer token or
// digest answer ever reaches a host the user did not name.
type hostGuard struct {
	host   string
	authed http.RoundTripper
	plain  http.RoundTripper
}

func (g *hostGuard) RoundTrip(req *http.Request) (*http.Response, error) {
	if strings.EqualFold(req.URL.Host, g.host) {
		return g.authed.RoundTrip(req)
	}
	if req.Header.Get("Authorization") != "" {
		req = req.Clone(req.Context())
		req.Header.Del("Authorization")
	}
	return g.plain.RoundTrip(req)
}

// IsLoopbackHost reports whether host (a name or an IP, no port) is this
// machine: localhost or a loopback address.
func IsLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
