package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"unicode"

	"golang.org/x/oauth2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/config"
)

// describeFailure turns the who-am-I failure into one sentence that says what
// went wrong and what to do, instead of the chain of wrapped errors.
func describeFailure(err error, prof *config.Resolved, baseURL string) string {
	profile := prof.Name
	var (
		apiErr     *apiclient.Error
		retrieve   *oauth2.RetrieveError
		unknownCA  x509.UnknownAuthorityError
		badHost    x509.HostnameError
		badCert    x509.CertificateInvalidError
		verifyErr  *tls.CertificateVerificationError
		recordErr  tls.RecordHeaderError
		alertErr   tls.AlertError
		dnsErr     *net.DNSError
		decodeErr  *apiclient.DecodeError
		opErr      *net.OpError
		timeoutErr interface{ Timeout() bool }
	)
	switch {
	case errors.As(err, &retrieve):
		status := 0
		if retrieve.Response != nil {
			status = retrieve.Response.StatusCode
		}
		if status == http.StatusUnauthorized || status == http.StatusBadRequest || status == http.StatusForbidden {
			return fmt.Sprintf("authentication failed (%d from the token endpoint %s/api/oauth/token): check the client id/secret for profile %s", status, baseURL, profile)
		}
		return fmt.Sprintf("could not get a service-account token from %s/api/oauth/token (HTTP %d)", baseURL, status)
	case errors.As(err, &apiErr):
		return describeAPIError(apiErr, prof, baseURL)
	case errors.As(err, &unknownCA):
		return fmt.Sprintf("TLS handshake with %s failed: certificate signed by an unknown authority", baseURL)
	case errors.As(err, &badHost):
		return fmt.Sprintf("TLS handshake with %s failed: the certificate is not valid for %s", baseURL, badHost.Host)
	case errors.As(err, &badCert):
		return fmt.Sprintf("TLS handshake with %s failed: %s", baseURL, strings.TrimPrefix(badCert.Error(), "x509: "))
	case errors.As(err, &verifyErr):
		return fmt.Sprintf("TLS handshake with %s failed: the certificate could not be verified", baseURL)
	case errors.As(err, &recordErr):
		return fmt.Sprintf("TLS handshake with %s failed: the server did not answer in TLS (is it http:// rather than https://?)", baseURL)
	case errors.As(err, &alertErr):
		return fmt.Sprintf("TLS handshake with %s failed: the server sent alert %q", baseURL, alertErr.Error())
	case strings.Contains(err.Error(), "server gave HTTP response to HTTPS client"):
		return fmt.Sprintf("TLS handshake with %s failed: the server answered plain HTTP (use http:// if that is intended)", baseURL)
	case errors.As(err, &dnsErr):
		return fmt.Sprintf("cannot reach %s: unknown host %s", baseURL, dnsErr.Name)
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Sprintf("cannot reach %s: connection refused", baseURL)
	case errors.Is(err, syscall.ECONNRESET):
		return fmt.Sprintf("cannot reach %s: connection reset by the server", baseURL)
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &timeoutErr) && timeoutErr.Timeout():
		return fmt.Sprintf("cannot reach %s: no answer within %s", baseURL, checkWhoAmITimeout)
	case errors.As(err, &decodeErr):
		return fmt.Sprintf("%s answered who-am-I with a body that is not the Administration API's (check --base-url and --service)", baseURL)
	case errors.As(err, &opErr):
		return fmt.Sprintf("cannot reach %s: %s", baseURL, innermost(err))
	}
	return fmt.Sprintf("check against %s failed: %s", baseURL, innermost(err))
}

func describeAPIError(e *apiclient.Error, prof *config.Resolved, baseURL string) string {
	code := e.ErrorCode
	if code == "" {
		code = e.Reason
	}
	what := fmt.Sprintf("%d %s", e.Status, code)
	switch e.Status {
	case http.StatusUnauthorized:
		noun, hint := credentialNoun(prof.AuthType)
		return fmt.Sprintf("authentication failed (%s): check the %s for profile %s%s", what, noun, prof.Name, hint)
	case http.StatusForbidden:
		detail := ""
		if e.Detail != "" {
			detail = ": " + strings.TrimRight(clean(e.Detail), ". ")
		}
		return fmt.Sprintf("access denied (%s)%s; the credentials of profile %s were recognised but may not call the API (check the key's IP access list and roles)", what, detail, prof.Name)
	case http.StatusNotFound:
		return fmt.Sprintf("%s has no Administration API at /api/%s/v2 (%s): check --base-url and --service", baseURL, prof.Service, what)
	case http.StatusTooManyRequests:
		return fmt.Sprintf("rate limited by %s (%s): try again later", baseURL, what)
	}
	if e.NotAPIShape {
		return fmt.Sprintf("%s answered HTTP %d with %s (check --base-url)", baseURL, e.Status, e.Detail)
	}
	if e.Detail != "" {
		return fmt.Sprintf("%s answered %s: %s", baseURL, what, e.Detail)
	}
	return fmt.Sprintf("%s answered %s", baseURL, what)
}

// credentialNoun names what to check after a 401, and a hint to add.
func credentialNoun(authType string) (noun, hint string) {
	switch authType {
	case config.AuthServiceAccount:
		return "client id/secret", ""
	case config.AuthUserAccount:
		return "access token", " (it may have expired: log in again with the cloud CLI)"
	case config.AuthNone:
		return "auth_type", " (no_auth sends no credentials)"
	}
	return "public/private key", ""
}

// innermost is the deepest error's text: the cause without the layers.
func innermost(err error) string {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err.Error()
		}
		err = next
	}
}

// oneLine makes text safe to print as one terminal line: control characters
// and escape sequences (which could come from a server) become spaces.
func oneLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || !unicode.IsPrint(r) {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// scrub replaces any secret that slipped into text with its masked form: a
// last line of defence, the messages are built without them.
func scrub(s string, secrets []config.Secret) string {
	for _, sec := range secrets {
		if v := sec.Reveal(); len(v) >= 6 {
			s = strings.ReplaceAll(s, v, sec.Masked())
		}
	}
	return s
}

// scrubWriter scrubs secrets from everything written through it.
type scrubWriter struct {
	w       io.Writer
	secrets []config.Secret
}

func (s *scrubWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(s.w, scrub(string(p), s.secrets)); err != nil {
		return 0, err
	}
	return len(p), nil
}
