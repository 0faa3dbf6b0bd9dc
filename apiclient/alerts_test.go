package apiclient

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// alertWire records the one request a call sent and answers with body.
func alertWire(t *testing.T, body string) (*Client, *[]string) {
	t.Helper()
	var got []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got = append(got, r.Method+" "+r.URL.RequestURI()+" "+r.Header.Get("Accept")+" "+string(b))
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(ts.Close)
	c, err := New(Options{BaseURL: ts.URL, MaxRetries: -1})
	require.NoError(t, err)
	return c, &got
}

func TestUnacknowledgeSendsTheOverrideWithTheComment(t *testing.T) {
	c, got := alertWire(t, `{"id":"`+wAlert+`","status":"OPEN"}`)
	a, err := c.Alerts().Unacknowledge(context.Background(), wGroup, wAlert, "false alarm")
	require.NoError(t, err)
	assert.Equal(t, AlertOpen, a.Status)
	require.Len(t, *got, 1)
	parts := strings.SplitN((*got)[0], " ", 4)
	assert.Equal(t, "PATCH", parts[0])
	assert.Equal(t, "/api/atlas/v2/groups/"+wGroup+"/alerts/"+wAlert, parts[1])
	assert.Equal(t, "application/vnd.atlas.2024-05-30+json", parts[2])
	var body map[string]any
	require.NoError(t, json.Unmarshal([]byte(parts[3]), &body))
	assert.Equal(t, map[string]any{"unacknowledgeAlert": true, "acknowledgementComment": "false alarm"}, body)
}

func TestListAllByAlertReadsEveryPage(t *testing.T) {
	c, got := alertWire(t, `{"results":[{"id":"`+wConfig+`","eventTypeName":"HOST_DOWN","notifications":[]}],"totalCount":1}`)
	cfgs, err := c.AlertConfigs().ListAllByAlert(context.Background(), wGroup, wAlert)
	require.NoError(t, err)
	require.Len(t, cfgs, 1)
	assert.Equal(t, "HOST_DOWN", cfgs[0].EventTypeName)
	assert.Contains(t, (*got)[0], "GET /api/atlas/v2/groups/"+wGroup+"/alerts/"+wAlert+"/alertConfigs?")
}

func TestNotificationTargetIsMasked(t *testing.T) {
	cases := map[string]Notification{
		"email dba@example.com":              {TypeName: NotifyEmail, EmailAddress: "dba@example.com"},
		"api key ****************c0de":       {TypeName: NotifyDatadog, DatadogAPIKey: "0123456789abcdefc0de"},
		"webhook ********************hook":   {TypeName: NotifyWebhook, WebhookURL: "https://example.com/hook"},
		"roles GROUP_OWNER, GROUP_READ_ONLY": {TypeName: NotifyGroup, Roles: []string{"GROUP_OWNER", "GROUP_READ_ONLY"}},
		"":                                   {TypeName: "NEW_KIND"},
	}
	for want, n := range cases {
		assert.Equal(t, want, n.Target())
	}
	// Unknown kinds keep their members, and secret-looking ones are masked.
	var n Notification
	require.NoError(t, json.Unmarshal([]byte(`{"typeName":"NEW_KIND","fancyApiKey":"abcdefgh1234","level":3}`), &n))
	m, err := json.Marshal(n.Masked())
	require.NoError(t, err)
	assert.JSONEq(t, `{"typeName":"NEW_KIND","fancyApiKey":"********1234","level":3}`, string(m))
}
