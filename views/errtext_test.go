package views

import (
	"errors"
	"fmt"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

func TestErrTextIsOneLineForEveryKindOfError(t *testing.T) {
	conflict := &apiclient.Error{Op: "acknowledgeAlert", Status: 409, ErrorCode: "ALERT_ALREADY_ACKNOWLEDGED", Reason: "Conflict", Detail: "Alert a07 was acknowledged."}
	for name, c := range map[string]struct {
		err  error
		want string
	}{
		"nil":                 {nil, ""},
		"api, detail":         {conflict, "409 ALERT_ALREADY_ACKNOWLEDGED: Alert a07 was acknowledged."},
		"api, wrapped":        {fmt.Errorf("load: %w", conflict), "409 ALERT_ALREADY_ACKNOWLEDGED: Alert a07 was acknowledged."},
		"api, reason only":    {&apiclient.Error{Status: 503, ErrorCode: "SERVICE_UNAVAILABLE", Reason: "Service Unavailable"}, "503 SERVICE_UNAVAILABLE: Service Unavailable"},
		"api, no code":        {&apiclient.Error{Status: 502, Reason: "Bad Gateway"}, "502 Bad Gateway"},
		"api, bare status":    {&apiclient.Error{Status: 500}, "500"},
		"api, hostile detail": {&apiclient.Error{Status: 400, ErrorCode: "INVALID", Detail: "bad\x1b[2J\nvalue"}, "400 INVALID: bad value"},
		"refused by the gate": {fmt.Errorf("read: %w", &apiclient.DeniedError{Op: "getAuditingConfiguration", Reason: "needs Project Owner"}), "needs Project Owner"},
		"no answer":           {fmt.Errorf("listAlerts: %w", &url.Error{Op: "Get", URL: "https://cloud.example/api/groups/1/alerts?itemsPerPage=500", Err: errors.New("dial tcp: connection refused")}), "listAlerts: dial tcp: connection refused"},
		"local":               {errors.New("  no cluster picked \n"), "no cluster picked"},
	} {
		assert.Equal(t, c.want, ErrText(c.err), name)
	}
}
