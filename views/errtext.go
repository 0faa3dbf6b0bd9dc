package views

import (
	"cmp"
	"errors"
	"net/url"
	"strconv"
	"strings"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
)

// ErrText is an error on one line, as every pane shows it: an API answer
// as "status errorCode: detail" (the reason where the body has no detail),
// a request the client's gate refused as its reason (it needs a role), a
// request that got no answer as its cause without the URL and query, which
// would push the cause off the screen. Server words are sanitized.
func ErrText(err error) string {
	if err == nil {
		return ""
	}
	var pe PartError
	if errors.As(err, &pe) {
		return components.Sanitize(pe.Part) + ": " + ErrText(pe.Err)
	}
	var s string
	var denied *apiclient.DeniedError
	var ue *url.Error
	if e, ok := apiclient.AsError(err); ok {
		s = strconv.Itoa(e.Status)
		if code := cmp.Or(e.ErrorCode, e.Reason); code != "" {
			s += " " + code
		}
		detail := e.Detail
		if detail == "" && e.ErrorCode != "" {
			detail = e.Reason
		}
		if detail != "" {
			s += ": " + detail
		}
	} else if errors.As(err, &denied) {
		s = denied.Reason
	} else {
		s = err.Error()
		if errors.As(err, &ue) && ue.Err != nil {
			s = strings.Replace(s, ue.Error(), ue.Err.Error(), 1)
		}
	}
	return components.Sanitize(strings.TrimSpace(s))
}

// PartError is a failed read of one part of what a pane reads in several
// (the flex clusters of a project whose dedicated ones came back): ErrText
// names the part first.
type PartError struct {
	Part string
	Err  error
}

func (e PartError) Error() string { return e.Part + ": " + e.Err.Error() }
func (e PartError) Unwrap() error { return e.Err }
