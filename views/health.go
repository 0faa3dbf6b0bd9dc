package views

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strconv"
	"syscall"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

// Health says how fresh a pane's data is.
type Health struct {
	OK         time.Time // the last load that succeeded (wall clock)
	StaleSince time.Time // the first failed load after OK; zero when fresh
	Err        error     // the last failed load's error
	// HeldSince: the loads since then were never sent, the scheduler
	// keeping them back for the rate-limit budget it planned. That is a
	// wait, not a failure: the data is as of OK, and Next (zero: not
	// known) is when the pane asks again.
	HeldSince time.Time
	Next      time.Time
	// Cached: the data is a copy the last start kept, read at OK (see
	// apiclient.StartCopies); the pane is asking the service again.
	Cached bool
	// Parts, for a pane whose data comes in parts read apart (the Triage
	// board's kinds), says how fresh each is; set by SetParts. The header
	// then shows the oldest part's age and names the stale ones, and the
	// pane says itself which rows are stale.
	Parts []PartHealth
}

// PartHealth is the freshness of one part of a pane's data.
type PartHealth struct {
	Name       string
	OK         time.Time // the oldest of the part's last good reads (wall clock); zero: none yet
	StaleSince time.Time // since when its reads fail; zero when fresh
	Err        error     // the last failed read's error
	Cached     bool      // some of its answers are the last start's copies (OK is theirs)
}

// Stale reports whether the part's last read failed.
func (p PartHealth) Stale() bool { return !p.StaleSince.IsZero() }

// SetParts sets the health of a pane whose data comes in parts, in the
// order the header names them: OK is the oldest part's last good read,
// StaleSince and Err the earliest failing part's.
func (b *Base) SetParts(parts []PartHealth) {
	h := Health{Parts: parts}
	for _, p := range parts {
		if !p.OK.IsZero() && (h.OK.IsZero() || p.OK.Before(h.OK)) {
			h.OK = p.OK
		}
		if p.Stale() && (h.StaleSince.IsZero() || p.StaleSince.Before(h.StaleSince)) {
			h.StaleSince, h.Err = p.StaleSince, p.Err
		}
		h.Cached = h.Cached || p.Cached
	}
	b.health = h
}

// Stale reports whether the last load failed.
func (h Health) Stale() bool { return !h.StaleSince.IsZero() }

// Held reports whether the last load waited for the budget instead of
// being sent (see HeldSince); a held pane is not stale.
func (h Health) Held() bool { return !h.HeldSince.IsZero() }

// IsPlannedWait reports whether err is a request the client's scheduler
// kept back for the rate-limit budget until its time ran out: it was never
// sent, so it says nothing about the server.
func IsPlannedWait(err error) bool { return errors.Is(err, apiclient.ErrRateLimitWait) }

// Summary is the header's short form: "stale since 22:14:03 · 503
// SERVICE_UNAVAILABLE"; empty when fresh.
func (h Health) Summary() string {
	if !h.Stale() {
		return ""
	}
	return "stale since " + h.StaleSince.Format("15:04:05") + " · " + ErrorCode(h.Err)
}

// ErrorCode is an error's short form for the header: the status and
// errorCode of an API error, else what kind of failure it was ("connection
// refused", "timeout", "no answer"), never a URL or a wrapped chain; a
// pane's own error (not a request's) is its text.
func ErrorCode(err error) string {
	var e *apiclient.Error
	if errors.As(err, &e) {
		if e.ErrorCode != "" {
			return fmt.Sprintf("%d %s", e.Status, e.ErrorCode)
		}
		return fmt.Sprintf("%d", e.Status)
	}
	if err == nil {
		return ""
	}
	if class := errClass(err); class != "" {
		return class
	}
	return err.Error()
}

// ErrorStatus is ErrorCode's shortest form: an API error's status alone
// ("503"), else the kind of failure.
func ErrorStatus(err error) string {
	if e, ok := apiclient.AsError(err); ok {
		return strconv.Itoa(e.Status)
	}
	return ErrorCode(err)
}

// errClass names a request that got no API answer; "" when err is not one.
func errClass(err error) string {
	var dns *net.DNSError
	var ne net.Error
	var ue *url.Error
	var tlsErr *tls.CertificateVerificationError
	var unknownCA x509.UnknownAuthorityError
	var badHost x509.HostnameError
	var badCert x509.CertificateInvalidError
	switch {
	case errors.Is(err, apiclient.ErrRateLimitWait):
		return "rate limited"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.As(err, &dns):
		return "host not found"
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "connection lost"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return "timeout"
	case errors.As(err, &tlsErr), errors.As(err, &unknownCA), errors.As(err, &badHost), errors.As(err, &badCert):
		return "TLS certificate not trusted"
	case errors.As(err, &ue):
		return "no answer"
	}
	return ""
}

func roundDur(d time.Duration) time.Duration {
	if d < 0 {
		return 0
	}
	return d.Round(time.Second)
}
