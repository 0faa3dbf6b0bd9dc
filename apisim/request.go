package apisim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
	"github.com/dbadmin-tui/dbadmin-tui/apiclient/limits"
)

// Request decoding and validation: pure functions of the request, shared by
// every handler and by FuzzDecodeRequest.

const maxBodyBytes = 1 << 20

var (
	hexID       = regexp.MustCompile(`^[a-f0-9]{24}$`)
	clusterLike = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9-]*$`)
)

// idParams are the path parameters the spec types as 24-hex ids.
var idParams = map[string]bool{
	"groupId": true, "orgId": true, "alertConfigId": true, "alertId": true, "indexId": true,
	"exportBucketId": true, "exportId": true, "restoreJobId": true, "snapshotId": true,
	"liveMigrationId": true, "validationId": true, "roleId": true,
}

// nameParams follow the cluster-name pattern.
var nameParams = map[string]bool{"clusterName": true, "name": true, "instanceName": true}

// validatePathParams checks each path parameter of op against its pattern.
func validatePathParams(op catalog.Op, get func(string) string) *apiError {
	for _, p := range op.Params() {
		v := get(p)
		switch {
		case v == "":
			return errField(p, "must not be empty")
		case len(v) > 512:
			return errField(p, "is longer than 512 characters")
		case idParams[p] && !hexID.MatchString(v):
			return errField(p, "must be a 24-character lowercase hexadecimal string")
		case nameParams[p] && (!clusterLike.MatchString(v) || len(v) > 64):
			return errField(p, "must match ^[a-zA-Z0-9][a-zA-Z0-9-]*$ (at most 64 characters)")
		case p == "cloudProvider" && v != "AWS" && v != "AZURE" && v != "GCP":
			return errField(p, "must be one of AWS, AZURE, GCP")
		}
	}
	return nil
}

// listParams are the spec's paging parameters.
type listParams struct {
	ItemsPerPage int
	PageNum      int
	IncludeCount bool
}

func parseListParams(q url.Values) (listParams, *apiError) {
	lp := listParams{ItemsPerPage: 100, PageNum: 1, IncludeCount: true}
	var e *apiError
	if lp.ItemsPerPage, e = queryInt(q, "itemsPerPage", 100, limits.ItemsPerPage); e != nil {
		return lp, e
	}
	if lp.PageNum, e = queryInt(q, "pageNum", 1, limits.PageNum); e != nil {
		return lp, e
	}
	if lp.IncludeCount, e = queryBool(q, "includeCount", true); e != nil {
		return lp, e
	}
	return lp, nil
}

// queryInt reads an integer query parameter that the limit check accepts.
func queryInt(q url.Values, name string, def int, check func(int) error) (int, *apiError) {
	vs, ok := q[name]
	if !ok || len(vs) == 0 {
		return def, nil
	}
	if len(vs) > 1 {
		return 0, errField(name, "must be given once")
	}
	n, err := strconv.Atoi(strings.TrimSpace(vs[0]))
	if err != nil {
		return 0, errField(name, "must be an integer, got %q", vs[0])
	}
	if e := limitError("", check(n)); e != nil {
		return 0, e
	}
	return n, nil
}

// queryBool reads a boolean query parameter.
func queryBool(q url.Values, name string, def bool) (bool, *apiError) {
	vs, ok := q[name]
	if !ok || len(vs) == 0 {
		return def, nil
	}
	switch strings.ToLower(strings.TrimSpace(vs[0])) {
	case "true", "1":
		return true, nil
	case "false", "0":
		return false, nil
	}
	return def, errField(name, "must be true or false")
}

// queryInt64 reads an optional int64 query parameter; ok is false if absent.
func queryInt64(q url.Values, name string, lo, hi int64) (int64, bool, *apiError) {
	v := q.Get(name)
	if v == "" {
		return 0, false, nil
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil {
		return 0, false, errField(name, "must be an integer")
	}
	if n < lo || n > hi {
		return 0, false, errField(name, "must be between %d and %d", lo, hi)
	}
	return n, true, nil
}

// checkContentType accepts JSON bodies: application/json or the versioned
// vendor type of this service.
func checkContentType(ct, service string, legacy bool) *apiError {
	mt, _, err := mime.ParseMediaType(ct)
	if ct == "" || err != nil {
		return newError(http.StatusUnsupportedMediaType, "UNSUPPORTED_MEDIA_TYPE",
			"Content-Type %q is not supported; send application/json or application/vnd.%s.<date>+json.", ct, service)
	}
	if mt == "application/json" {
		return nil
	}
	if !legacy {
		if _, ok := parseVendorType(mt, service); ok {
			return nil
		}
	}
	return newError(http.StatusUnsupportedMediaType, "UNSUPPORTED_MEDIA_TYPE",
		"Content-Type %q is not supported; send application/json or application/vnd.%s.<date>+json.", ct, service)
}

// parseVendorType extracts the date of application/vnd.{service}.{date}+json.
func parseVendorType(mt, service string) (string, bool) {
	prefix := "application/vnd." + service + "."
	if !strings.HasPrefix(mt, prefix) || !strings.HasSuffix(mt, "+json") {
		return "", false
	}
	date := mt[len(prefix) : len(mt)-len("+json")]
	if !validDate(date) {
		return date, false
	}
	return date, true
}

func validDate(d string) bool {
	if len(d) != 10 || d[4] != '-' || d[7] != '-' {
		return false
	}
	y, e1 := strconv.Atoi(d[:4])
	m, e2 := strconv.Atoi(d[5:7])
	day, e3 := strconv.Atoi(d[8:])
	return e1 == nil && e2 == nil && e3 == nil && y >= 2000 && m >= 1 && m <= 12 && day >= 1 && day <= 31
}

// decodeJSON strictly decodes body into v: unknown attributes, trailing data
// and wrong types are 400s that name the problem.
func decodeJSON(body []byte, v any) *apiError {
	if len(bytes.TrimSpace(body)) == 0 {
		return errBadRequest("MISSING_BODY", "A JSON request body is required.")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonError(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errBadRequest("MALFORMED_JSON", "Received JSON is malformed: unexpected data after the top-level value.")
	}
	return nil
}

func jsonError(err error) *apiError {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return errBadRequest("MALFORMED_JSON", "Received JSON is malformed: %s at byte %d.", syn.Error(), syn.Offset)
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "body"
		}
		return errField(field, "must be a JSON %s, got %s", jsonKind(typ.Type.Kind().String()), typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return errBadRequest("MALFORMED_JSON", "Received JSON is malformed: unexpected end of input.")
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		f := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		e := errInvalidAttribute(f, "this resource")
		e.Detail = fmt.Sprintf("Invalid attribute %s specified.", f)
		return e
	}
	return errBadRequest("MALFORMED_JSON", "Received JSON is malformed: %s.", err.Error())
}

func jsonKind(k string) string {
	switch k {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
		return "integer"
	case "float32", "float64":
		return "number"
	case "slice", "array":
		return "array"
	case "map", "struct", "ptr":
		return "object"
	}
	return k
}
