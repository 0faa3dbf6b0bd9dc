package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// recordingEditor is $EDITOR as a script that keeps a copy of every file
// it is given (seen(i) reads the i-th, from 1) and, when the test queued
// text, saves that text over the file; with nothing queued it leaves the
// file as it was, like a user who quits without changing anything.
func recordingEditor(t *testing.T) (env []string, typeNext func(string), seen func(int) string) {
	t.Helper()
	dir := t.TempDir()
	queue, script := filepath.Join(dir, "next.json"), filepath.Join(dir, "editor.sh")
	body := "#!/bin/sh\n" +
		"n=$(ls \"" + dir + "\" | grep -c '^seen-')\n" +
		"cp \"$1\" \"" + dir + "/seen-$((n+1))\"\n" +
		"if [ -s \"" + queue + "\" ]; then cat \"" + queue + "\" > \"$1\"; : > \"" + queue + "\"; fi\n"
	if err := os.WriteFile(script, []byte(body), 0o700); err != nil {
		t.Fatal(err)
	}
	return []string{"EDITOR=" + script, "VISUAL="}, func(text string) {
			t.Helper()
			if err := os.WriteFile(queue, []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
		}, func(i int) string {
			t.Helper()
			b, err := os.ReadFile(filepath.Join(dir, "seen-"+strconv.Itoa(i)))
			if err != nil {
				t.Fatalf("editor run %d: %v", i, err)
			}
			return string(b)
		}
}

// The Search pane's editor, as the tester found it: `n` saved unchanged
// sends nothing; a refused definition reopens with an ERROR line whose
// line and column point at the bad line of the reopened file; the refusal
// shows in the pane until the next key, then goes.
func TestSearchEditorFixes(t *testing.T) {
	RequireTmux(t)
	env, typeNext, seen := recordingEditor(t)
	// Wide enough for the whole refusal notice, whose end says the last
	// editor round is over.
	s := StartDemo(t, 200, 40, env, "--demo-role", "data-access-admin", "--project", "payments", "--cluster", "payments-rs", "--pane", "search")
	s.WaitFor("embeddings", wait)

	// The template, saved as it came: nothing sent.
	s.SendKeys("n")
	s.WaitFor("no changes: nothing sent", wait)
	if !strings.Contains(seen(1), "leave it unchanged to keep the draft and send nothing") {
		t.Fatalf("the template's header:\n%s", seen(1))
	}
	if n := searchWrites(s); n != 0 {
		t.Fatalf("%d search writes after an unchanged template, want none", n)
	}

	// A syntax error on line 3 of the text: the reopened file names its
	// own line (the header grew by the ERROR line).
	typeNext("{\n  \"name\": \"e2e-bad\",\n  \"database\": \"shop\"\n  \"collectionName\": \"orders\",\n  \"definition\": {\"mappings\": {}}\n}\n")
	s.SendKeys("n")
	s.WaitFor("(draft kept: press n to continue)", wait) // the reopened file saved unchanged
	reopened := seen(3)
	m := regexp.MustCompile(`(?m)^// ERROR: line (\d+), column (\d+): `).FindStringSubmatch(reopened)
	if m == nil {
		t.Fatalf("no ERROR line with a position:\n%s", reopened)
	}
	line, _ := strconv.Atoi(m[1])
	col, _ := strconv.Atoi(m[2])
	lines := strings.Split(reopened, "\n")
	if line < 1 || line > len(lines) || col < 1 || col > len(lines[line-1]) || lines[line-1][col-1:] != `"collectionName": "orders",` {
		t.Fatalf("ERROR names line %d column %d; the reopened file:\n%s", line, col, reopened)
	}
	s.WaitFor("line "+m[1]+", column "+m[2], wait) // the pane says the same place
	if n := searchWrites(s); n != 0 {
		t.Fatalf("%d search writes after a refused definition, want none", n)
	}

	// The refusal stays in the pane until the next key there, then goes.
	// (Only the pane's notice ends with "draft kept"; the footer's toast
	// of the same refusal expires on its own clock.)
	s.SendKeys("j")
	start := time.Now()
	s.WaitGone("(draft kept: press n to continue)", wait)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the notice went %v after the key, not with it", d)
	}

	s.SendKeys("q")
	s.WaitExit(wait)
}
