package e2e

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// logLineRE matches a row of the access-log tail: "2025-06-01 12:00:01  ok ..."
var logLineRE = regexp.MustCompile(`^[ ›]\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}  (ok  |FAIL)  `)

// shownLines reads the line count from the tail's indicator
// ("| 1,204 lines" or "| 226 of 1,009").
func shownLines(screen string) int {
	m := regexp.MustCompile(`\| ([\d,]+) (lines|of [\d,]+)`).FindStringSubmatch(screen)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
	return n
}

// TestAccessLogTail: on the demo, the tail of a cluster grows on its own;
// F shows only failures; scrolling up pauses it and G resumes.
func TestAccessLogTail(t *testing.T) {
	s := StartDemo(t, 150, 36, nil, "--demo-role", "monitoring-admin")
	s.WaitFor("2 Alerts", wait)
	s.SendKeys("5")
	s.WaitFor("no cluster selected", wait)
	s.SendKeys("@")
	s.WaitFor("Choose organization", wait)
	s.SendKeys("Enter")
	s.WaitFor("Choose project", wait)
	s.SendKeys("Enter")
	s.WaitFor("Choose cluster", wait)
	s.SendKeys("payments-rs")
	s.SendKeys("Enter")
	s.WaitFor("Access log · cluster payments-rs", wait)
	first := waitLines(t, s, 0)
	s.WaitFor("following |", wait)
	// It grows on its own (the demo clock runs ten times faster).
	waitLines(t, s, first)

	s.SendKeys("F")
	screen := s.WaitFor("| failures only", wait)
	rows := 0
	for _, l := range strings.Split(screen, "\n") {
		if logLineRE.MatchString(l) {
			rows++
			if !strings.Contains(l, "  FAIL  ") {
				t.Errorf("a success shown with failures only: %q", l)
			}
		}
	}
	if rows == 0 {
		t.Fatalf("no failure rows on screen:\n%s", screen)
	}

	s.SendKeys("k")
	s.WaitFor("PAUSED", wait)
	s.WaitFor("(G resumes)", wait)
	s.SendKeys("G")
	s.WaitGone("PAUSED", wait)
	s.WaitFor("following | wrap off", wait)

	s.SendKeys("q")
	s.WaitExit(wait)
}

// waitLines waits until the tail shows more than n lines and returns the
// count.
func waitLines(t *testing.T, s *Session, n int) int {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		if got := shownLines(s.Capture()); got > n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tail did not grow past %d lines:\n%s", n, s.Capture())
		}
		time.Sleep(200 * time.Millisecond)
	}
}
