package apiclient

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostileJSON is a JSON string literal carrying an OSC 8 link, a C1 CSI, a
// bidi override, a NUL and an OSC 0 title.
const hostileJSON = `"id\u001b]8;;https://evil.example\u0007x\u001b]8;;\u0007\u009b2J\u202e\u0000\u001b]0;pwned\u0007"`

func TestDecodedStringsAreSanitized(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if strings.HasSuffix(r.URL.Path, "/missing") {
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"error":404,"errorCode":` + hostileJSON + `,"detail":` + hostileJSON + `}`))
			return
		}
		_, _ = w.Write([]byte(`{"id":` + hostileJSON + `,"mongodVersion":` + hostileJSON + `,"description":` + hostileJSON + `}`))
	}))
	defer srv.Close()
	c := newTestClient(t, srv.URL, Options{MaxRetries: -1})
	s, err := c.Backups().Snapshot(context.Background(), "g", "c", "s1")
	require.NoError(t, err)
	for _, v := range []string{s.ID, s.MongodVersion, s.Description} {
		assert.Equal(t, "idx", v)
	}
	_, err = c.Backups().Snapshot(context.Background(), "g", "c", "missing")
	apiErr, ok := AsError(err)
	require.True(t, ok, "%v", err)
	assert.Equal(t, "idx", apiErr.ErrorCode)
	assert.Equal(t, "idx", apiErr.Detail)
}
