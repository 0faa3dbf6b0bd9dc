package views

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

// The header's short error names what went wrong in a word or two: an API
// error's status, else the kind of failure. It never shows a URL, nor the
// first word of a wrapped chain ("list", "getPushMigration:").
func TestErrorCodeNamesTheKindOfFailure(t *testing.T) {
	// A real refused connection, as the client sees it.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	_, refused := http.Get("http://" + addr + "/api/atlas/v2/groups")
	require.Error(t, refused)

	cases := []struct {
		err          error
		code, status string
	}{
		{&apiclient.Error{Status: 503, ErrorCode: "SERVICE_UNAVAILABLE"}, "503 SERVICE_UNAVAILABLE", "503"},
		{fmt.Errorf("list alerts: %w", refused), "connection refused", "connection refused"},
		{fmt.Errorf("getPushMigration: %w", &url.Error{Op: "Get", URL: "http://x/y", Err: &net.DNSError{Err: "no such host", Name: "x"}}), "host not found", "host not found"},
		{fmt.Errorf("list: %w", &url.Error{Op: "Get", URL: "http://x/y", Err: io.ErrUnexpectedEOF}), "connection lost", "connection lost"},
		{fmt.Errorf("list: %w: %w", apiclient.ErrRateLimitWait, context.DeadlineExceeded), "rate limited", "rate limited"},
		{fmt.Errorf("list: %w", context.DeadlineExceeded), "timeout", "timeout"},
		{fmt.Errorf("list: %w", &url.Error{Op: "Get", URL: "https://x/y", Err: x509.UnknownAuthorityError{}}), "TLS certificate not trusted", "TLS certificate not trusted"},
		{fmt.Errorf("list: %w", &url.Error{Op: "Get", URL: "http://x/y", Err: errors.New("proxyconnect tcp: refused by policy")}), "no answer", "no answer"},
		{errors.New("the schedule is not loaded"), "the schedule is not loaded", "the schedule is not loaded"},
	}
	for _, c := range cases {
		assert.Equal(t, c.code, ErrorCode(c.err), "%v", c.err)
		assert.Equal(t, c.status, ErrorStatus(c.err), "%v", c.err)
	}
	assert.Equal(t, "", ErrorCode(nil))
}
