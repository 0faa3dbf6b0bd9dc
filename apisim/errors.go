package apisim

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/limits"
)

// apiError is the spec's error body. Handlers return it; the framework writes it.
type apiError struct {
	Status int
	Code   string
	Detail string
	Params []any
	Fields []fieldError
	Header http.Header // extra headers, e.g. Allow or Retry-After
}

type fieldError struct {
	Field       string `json:"field"`
	Description string `json:"description"`
}

func (e *apiError) Error() string {
	return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Detail)
}

// errorBody is the JSON shape of ApiError.
type errorBody struct {
	Detail           string            `json:"detail"`
	Error            int               `json:"error"`
	ErrorCode        string            `json:"errorCode"`
	Reason           string            `json:"reason"`
	Parameters       []any             `json:"parameters"`
	BadRequestDetail *badRequestDetail `json:"badRequestDetail,omitempty"`
}

type badRequestDetail struct {
	Fields []fieldError `json:"fields"`
}

func newError(status int, code, format string, args ...any) *apiError {
	return &apiError{Status: status, Code: code, Detail: fmt.Sprintf(format, args...)}
}

// errField is a 400 VALIDATION_ERROR that names the offending field in the
// detail, the parameters and badRequestDetail, so a client can point at it.
func errField(field, format string, args ...any) *apiError {
	desc := fmt.Sprintf(format, args...)
	return &apiError{
		Status: http.StatusBadRequest,
		Code:   "VALIDATION_ERROR",
		Detail: fmt.Sprintf("Invalid value for %s: %s", field, desc),
		Params: []any{field},
		Fields: []fieldError{{Field: field, Description: desc}},
	}
}

// limitError is the 400 for the first of checks the shared limits refused
// (nil when all passed); prefix goes before the field where the body nests
// it ("definition.").
func limitError(prefix string, checks ...error) *apiError {
	for _, err := range checks {
		var le *limits.Error
		switch {
		case err == nil:
		case errors.As(err, &le):
			return errField(prefix+le.Field, "%s", le.Reason)
		default:
			return errBadRequest("VALIDATION_ERROR", "%s", err.Error())
		}
	}
	return nil
}

// ifSet checks a body member only when the body carries it.
func ifSet[T any](v *T, check func(T) error) error {
	if v == nil {
		return nil
	}
	return check(*v)
}

// errInvalidAttribute is a 400 for a member the resource (what) does not have.
func errInvalidAttribute(field, what string) *apiError {
	e := errField(field, "is not an attribute of %s", what)
	e.Code = "INVALID_ATTRIBUTE"
	return e
}

// unknownMember is the errInvalidAttribute of the first member of m (by
// name, so the answer does not depend on map order) that allowed lacks.
func unknownMember(prefix string, m map[string]json.RawMessage, allowed []string, what string) *apiError {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !slices.Contains(allowed, k) {
			return errInvalidAttribute(prefix+k, what)
		}
	}
	return nil
}

// errMissing is a 400 for a required body attribute.
func errMissing(field string) *apiError {
	e := errField(field, "is required")
	e.Code = "MISSING_ATTRIBUTE"
	e.Detail = fmt.Sprintf("The required attribute %s was not specified.", field)
	return e
}

func errNotFound(code, format string, args ...any) *apiError {
	e := newError(http.StatusNotFound, code, format, args...)
	return e
}

func errConflict(code, format string, args ...any) *apiError {
	return newError(http.StatusConflict, code, format, args...)
}

func errBadRequest(code, format string, args ...any) *apiError {
	return newError(http.StatusBadRequest, code, format, args...)
}

// writeError writes e as application/json. It never fails the caller: a
// write error means the client went away.
func writeError(w http.ResponseWriter, e *apiError, pretty bool) {
	for k, vs := range e.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	params := e.Params
	if params == nil {
		params = []any{}
	}
	body := errorBody{
		Detail:     e.Detail,
		Error:      e.Status,
		ErrorCode:  e.Code,
		Reason:     http.StatusText(e.Status),
		Parameters: params,
	}
	if len(e.Fields) > 0 {
		body.BadRequestDetail = &badRequestDetail{Fields: e.Fields}
	}
	var b []byte
	if pretty {
		b, _ = json.MarshalIndent(body, "", "  ")
	} else {
		b, _ = json.Marshal(body)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Del("Content-Length")
	w.WriteHeader(e.Status)
	_, _ = w.Write(append(b, '\n'))
}
