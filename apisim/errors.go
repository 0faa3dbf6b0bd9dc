package apisim

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

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

// limitError is the 400 for a value the shared limits refuse (nil when err
// is nil); prefix goes before the field where the body nests it
// ("definition.").
func limitError(prefix string, err error) *apiError {
	if err == nil {
		return nil
	}
	var le *limits.Error
	if errors.As(err, &le) {
		return errField(prefix+le.Field, "%s", le.Reason)
	}
	return errBadRequest("VALIDATION_ERROR", "%s", err.Error())
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
