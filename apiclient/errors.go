package apiclient

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/safetext"
)

// Error is a non-2xx answer, carrying the spec's error body (section 7).
type Error struct {
	Op               string            `json:"-"`
	Status           int               `json:"error"`
	ErrorCode        string            `json:"errorCode"`
	Reason           string            `json:"reason"`
	Detail           string            `json:"detail"`
	Parameters       []any             `json:"parameters,omitempty"`
	BadRequestDetail *BadRequestDetail `json:"badRequestDetail,omitempty"`
	// RetryAfter is the server's Retry-After, when it sent one.
	RetryAfter time.Duration `json:"-"`
	// NotAPIShape is set when the body was not the API's error shape (a proxy
	// page, truncated JSON); Detail then says what came instead.
	NotAPIShape bool `json:"-"`
}

// BadRequestDetail lists the fields a validation error is about.
type BadRequestDetail struct {
	Fields []FieldError `json:"fields"`
}

// FieldError names one invalid field.
type FieldError struct {
	Field       string `json:"field"`
	Description string `json:"description"`
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Op != "" {
		b.WriteString(e.Op)
		b.WriteString(": ")
	}
	b.WriteString(strconv.Itoa(e.Status))
	if e.ErrorCode != "" {
		b.WriteString(" ")
		b.WriteString(e.ErrorCode)
	} else if e.Reason != "" {
		b.WriteString(" ")
		b.WriteString(e.Reason)
	}
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	return b.String()
}

// AsError returns the *Error in err's chain, if any.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

func statusIs(err error, code int) bool {
	e, ok := AsError(err)
	return ok && e.Status == code
}

// IsNotFound reports a 404.
func IsNotFound(err error) bool { return statusIs(err, http.StatusNotFound) }

// IsForbidden reports a 403: the caller's roles do not allow the call.
func IsForbidden(err error) bool { return statusIs(err, http.StatusForbidden) }

// IsUnauthorized reports a 401: the credentials were refused.
func IsUnauthorized(err error) bool { return statusIs(err, http.StatusUnauthorized) }

// IsRateLimited reports a 429.
func IsRateLimited(err error) bool { return statusIs(err, http.StatusTooManyRequests) }

// answerError is the *Error a response carries: nil for a 2xx, else
// parseError's.
func answerError(op string, res *http.Response, body []byte) *Error {
	if res.StatusCode >= 200 && res.StatusCode <= 299 {
		return nil
	}
	return parseError(op, res, body)
}

// parseError turns a non-2xx response body into an *Error. It never fails:
// a body that is not the error shape still yields a clear message.
func parseError(op string, res *http.Response, body []byte) *Error {
	e := &Error{}
	if err := json.Unmarshal(body, e); err != nil || (e.ErrorCode == "" && e.Detail == "" && e.Status == 0) {
		e = &Error{NotAPIShape: true, Detail: describeBody(res.Header.Get("Content-Type"), body)}
	}
	e.Op = op
	e.Status = res.StatusCode
	if e.Reason == "" {
		e.Reason = http.StatusText(res.StatusCode)
	}
	e.RetryAfter = retryAfter(res.Header.Get("Retry-After"), time.Now())
	safetext.Strings(e)
	return e
}

// describeBody summarises an unexpected body in one printable line.
func describeBody(contentType string, body []byte) string {
	if len(body) == 0 {
		return "empty response body"
	}
	text := strings.Map(func(r rune) rune {
		if unicode.IsPrint(r) {
			return r
		}
		return ' '
	}, string(body))
	text = strings.Join(strings.Fields(text), " ")
	if len(text) > 120 {
		text = text[:120] + "…"
	}
	if contentType == "" {
		contentType = "no content type"
	}
	return fmt.Sprintf("unexpected response body (%s): %s", contentType, text)
}

// retryAfter reads a Retry-After value in seconds or as an HTTP date.
func retryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// DecodeError is a 2xx answer whose body could not be read as the expected
// type (truncated or malformed JSON).
type DecodeError struct {
	Op     string
	Status int
	Err    error
}

func (e *DecodeError) Error() string {
	return fmt.Sprintf("%s: malformed response body (HTTP %d): %v", e.Op, e.Status, e.Err)
}

func (e *DecodeError) Unwrap() error { return e.Err }

// DeniedError is returned without sending when the gate refuses an operation.
type DeniedError struct {
	Op     string
	Reason string
}

func (e *DeniedError) Error() string { return e.Op + ": not sent: " + e.Reason }
