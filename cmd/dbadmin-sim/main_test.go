package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBadFlagsExitTwo(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "keys.json")
	_ = os.WriteFile(bad, []byte(`{"not":"an array"}`), 0o600)
	for _, args := range [][]string{
		{"--nope"}, {"--speed", "abc"}, {"--speed", "-1"}, {"--fault-rate", "2"}, {"--rate-limit", "lots"},
		{"--latency", "-1s"}, {"--service", "a/b"}, {"extra"}, {"--keys", bad}, {"--keys", filepath.Join(t.TempDir(), "missing")},
	} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d", args, code)
		}
		msg := errb.String()
		if strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, "dbadmin-sim: ") || strings.Contains(msg, "goroutine") {
			t.Errorf("%v: stderr %q", args, msg)
		}
		if out.Len() != 0 {
			t.Errorf("%v: stdout %q", args, out.String())
		}
	}
}

func TestRateLimitFlag(t *testing.T) {
	c, err := parseFlags([]string{"--rate-limit", "120/min", "--addr", "127.0.0.1:0"}, &bytes.Buffer{})
	if err != nil || c.rateLimit != 120 {
		t.Fatalf("%+v %v", c, err)
	}
}

func TestNonLoopbackNeedsKeys(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"--addr", "0.0.0.0:0"}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "--keys") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}

func TestHelpListsFlagsAndDemoKeysAndExitsZero(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"-h"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d, want 0", code)
	}
	for _, want := range []string{"-addr", "-rate-limit", "-state", "org-owner/org-owner-secret", "demo-sa/demo-sa-secret"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("help lacks %q:\n%s", want, errb.String())
		}
	}
}
