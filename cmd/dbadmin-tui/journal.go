package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os/user"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/journal"
)

func journalUsage() string {
	return `Usage: dbadmin-tui journal [--since 8h] [--journal PATH]

Prints the handoff: the writes made since then (by every person under
serve), who made them, what was not applied or is unknown, then each write.

  --since D        how far back (default 8h, a shift)
  --journal PATH   the journal (default $XDG_STATE_HOME/dbadmin-tui/journal.jsonl)
`
}

func runJournal(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fset := flag.NewFlagSet("dbadmin-tui journal", flag.ContinueOnError)
	fset.SetOutput(io.Discard)
	since := fset.Duration("since", 8*time.Hour, "")
	path := fset.String("journal", "", "")
	if err := fset.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, journalUsage())
			return 0
		}
		fmt.Fprintf(stderr, "dbadmin-tui journal: %s (see dbadmin-tui journal --help)\n", firstLine(err.Error()))
		return 2
	}
	if fset.NArg() > 0 || *since <= 0 {
		fmt.Fprintf(stderr, "dbadmin-tui journal: want only --since (positive) and --journal\n")
		return 2
	}
	if *path == "" {
		p, err := journal.DefaultPath(getenv)
		if err != nil {
			fmt.Fprintf(stderr, "dbadmin-tui journal: %v\n", err)
			return 1
		}
		*path = p
	}
	from := time.Now().Add(-*since)
	entries, bad, err := journal.Read(*path, from)
	if errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(stdout, "No journal yet at %s: no write was made.\n", *path)
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "dbadmin-tui journal: %v\n", err)
		return 1
	}
	fmt.Fprint(stdout, journal.Summary(entries, from, time.Local))
	if bad > 0 {
		fmt.Fprintf(stdout, "\n%d unreadable lines skipped (a write cut short by a crash?)\n", bad)
	}
	return 0
}

// openLocalJournal makes the single-user dashboard journal its user's
// writes, as serve does for every session.
func openLocalJournal(a *app, getenv func(string) string, stderr io.Writer) error {
	path, err := journal.DefaultPath(getenv)
	if err != nil {
		return err
	}
	j, err := journal.Open(path)
	if err != nil {
		return err
	}
	closeRest := a.close
	a.close = func() { closeRest(); _ = j.Close() }
	name := getenv("USER")
	if u, err := user.Current(); err == nil && name == "" {
		name = u.Username
	}
	if name == "" {
		name = "local"
	}
	a.client.SetWriteHook(apiclient.Actor{Name: name, Profile: a.profile},
		journal.Hook{J: j, OnError: func(err error) { fmt.Fprintf(stderr, "dbadmin-tui: %v\n", err) }})
	return nil
}
