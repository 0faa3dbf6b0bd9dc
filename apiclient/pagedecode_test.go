package apiclient

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

// pageSeeds are list answers a server could send, odd ones first: every
// page decodes through segmentio's decoder (decodeWhole) and must come out
// as the standard library's does, or fail where it fails.
var pageSeeds = []string{
	`{"results":[{"id":"a1","status":"OPEN","created":"2026-11-27T10:00:00Z","acknowledgedUntil":"2026-11-27T11:00:00Z"}],"totalCount":1}`,
	`{"Results":[{"ID":"a1","STATUS":"OPEN"}],"TotalCount":1}`,                   // keys in another case
	`{"results":[{"id":"a1","id":"a2"}],"totalCount":2,"totalCount":3}`,          // repeated keys: the last
	`{"results":null,"totalCount":null}`,                                         // nulls
	`{"results":[null,{"id":"a3"}]}`,                                             // a null item
	`{"results":[{"id":"caf\u00e9 \ud83d\ude00 \ud800"}]}`,                       // escapes, a lone surrogate
	"{\"results\":[{\"id\":\"bad \xff\xfe utf-8\"}]}",                            // invalid UTF-8
	`{"results":[{"id":1}]}`,                                                     // a number for a string
	`{"results":[{"created":"yesterday"}]}`,                                      // a time that is not one
	`{"results":[{"currentValue":{"number":1e400}}]}`,                            // out of range
	`{"results":[{"currentValue":{"number":"12"}}]}`,                             // a string for a number
	`{"results":[],"totalCount":1.5}`,                                            // a count that is not an int
	`{"results":[],"totalCount":-1}`,                                             //
	`{"results":[{"links":[{"href":"x","rel":"self","extra":{"a":[1,2,{}]}}]}]}`, // unknown members
	`{"results":[{"id":"a1"}]} trailing`,                                         // not one value
	`{"results":[{"id":"a1"}`,                                                    // cut short
	`[]`,                                                                         // not an object
	`{"results":{"id":"a1"}}`,                                                    // not a list
	`{"results":[{"id":"a\u0000b\t\"c\\"}]}`,                                     // control characters
	`  {"results" : [ { "id" : "a1" } ] , "links" : [ ] }  `,                     // white space
}

// TestPagesDecodeAsTheStandardLibraryDoes: the fast page decoder keeps the
// standard library's behaviour on every odd answer above (and on what the
// fuzzer finds from them): the same values, an error where it errs.
func TestPagesDecodeAsTheStandardLibraryDoes(t *testing.T) {
	for _, s := range pageSeeds {
		samePage(t, []byte(s))
	}
}

func FuzzPagesDecodeAsTheStandardLibraryDoes(f *testing.F) {
	for _, s := range pageSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { samePage(t, b) })
}

func samePage(t *testing.T, b []byte) {
	t.Helper()
	var want struct {
		Results    []Alert `json:"results"`
		TotalCount *int    `json:"totalCount"`
		Links      []Link  `json:"links"`
	}
	wantErr := json.Unmarshal(b, &want)
	got := pageBody[Alert]{max: MaxRows}
	gotErr := got.decodeWhole(b)
	if wantErr != nil || gotErr != nil {
		assert.Equal(t, wantErr != nil, gotErr != nil, "%q: errors differ: standard %v, fast %v", b, wantErr, gotErr)
		return
	}
	assert.Equal(t, want.Results, got.Results, "%q: results", b)
	assert.Equal(t, want.TotalCount, got.TotalCount, "%q: count", b)
	assert.Equal(t, want.Links, got.Links, "%q: links", b)
}
