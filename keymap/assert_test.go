package keymap

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// require is a tiny stand-in for testify's require, which this module's
// go.sum cannot resolve.
var require = checker{}

type checker struct{}

func msg(args []any) string {
	if len(args) == 0 {
		return ""
	}
	if f, ok := args[0].(string); ok && len(args) > 1 {
		return " " + sprintf(f, args[1:]...)
	}
	return " " + sprintf("%v", args...)
}

func (checker) True(t *testing.T, v bool, args ...any) {
	t.Helper()
	if !v {
		t.Fatalf("expected true%s", msg(args))
	}
}

func (checker) False(t *testing.T, v bool, args ...any) {
	t.Helper()
	if v {
		t.Fatalf("expected false%s", msg(args))
	}
}

func (checker) NoError(t *testing.T, err error, args ...any) {
	t.Helper()
	if err != nil {
		t.Fatalf("unexpected error: %v%s", err, msg(args))
	}
}

func (checker) Error(t *testing.T, err error, args ...any) {
	t.Helper()
	if err == nil {
		t.Fatalf("expected an error%s", msg(args))
	}
}

func (checker) ErrorContains(t *testing.T, err error, sub string, args ...any) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), sub) {
		t.Fatalf("expected error containing %q, got %v%s", sub, err, msg(args))
	}
}

func (checker) Equal(t *testing.T, want, got any, args ...any) {
	t.Helper()
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("want %#v, got %#v%s", want, got, msg(args))
	}
}

func (checker) Len(t *testing.T, v any, n int, args ...any) {
	t.Helper()
	if l := reflect.ValueOf(v).Len(); l != n {
		t.Fatalf("want len %d, got %d%s", n, l, msg(args))
	}
}

func (checker) NotEmpty(t *testing.T, v any, args ...any) {
	t.Helper()
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || rv.IsZero() || (rv.Kind() == reflect.Slice || rv.Kind() == reflect.String || rv.Kind() == reflect.Map) && rv.Len() == 0 {
		t.Fatalf("expected non-empty%s", msg(args))
	}
}

func (checker) Contains(t *testing.T, haystack, needle any, args ...any) {
	t.Helper()
	switch h := haystack.(type) {
	case string:
		if !strings.Contains(h, needle.(string)) {
			t.Fatalf("%q does not contain %q%s", h, needle, msg(args))
		}
		return
	}
	rv := reflect.ValueOf(haystack)
	for i := 0; i < rv.Len(); i++ {
		if reflect.DeepEqual(rv.Index(i).Interface(), needle) {
			return
		}
	}
	t.Fatalf("%v does not contain %v%s", haystack, needle, msg(args))
}

func sprintf(f string, a ...any) string { return fmt.Sprintf(f, a...) }
