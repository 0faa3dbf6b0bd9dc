package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"sync"
	"time"
)

// profileEnv names a file to write a CPU profile of the whole run to
// (`go tool pprof` reads it): DBADMIN_CPUPROFILE=cpu.out dbadmin-tui ...
// It is written when the dashboard exits. For measuring what the dashboard
// spends (a load, a minute idle), not for everyday use. profileAfterEnv
// (a Go duration, "70s") starts the profile that long after the start, so
// that it holds an idle window alone and not the load before it.
const (
	profileEnv      = "DBADMIN_CPUPROFILE"
	profileAfterEnv = "DBADMIN_CPUPROFILE_AFTER"
)

// startProfile starts the CPU profile profileEnv asks for and returns what
// stops and writes it; a file that cannot be made, or a delay that is not
// a duration, is said on stderr and the dashboard runs without a profile.
func startProfile(getenv func(string) string, stderr io.Writer) (stop func()) {
	path := getenv(profileEnv)
	if path == "" {
		return func() {}
	}
	var after time.Duration
	if s := getenv(profileAfterEnv); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil || d < 0 {
			fmt.Fprintf(stderr, "dbadmin-tui: %s=%q is not a duration such as 70s (running without a profile)\n", profileAfterEnv, s)
			return func() {}
		}
		after = d
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(stderr, "dbadmin-tui: %s: %v (running without a profile)\n", profileEnv, err)
		return func() {}
	}
	var (
		mu      sync.Mutex
		started bool
		stopped bool
	)
	begin := func() {
		mu.Lock()
		defer mu.Unlock()
		if stopped {
			return
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(stderr, "dbadmin-tui: %s: %v (running without a profile)\n", profileEnv, err)
			return
		}
		started = true
	}
	var timer *time.Timer
	if after == 0 {
		begin()
	} else {
		timer = time.AfterFunc(after, begin)
	}
	return func() {
		if timer != nil {
			timer.Stop()
		}
		mu.Lock()
		defer mu.Unlock()
		stopped = true
		if started {
			pprof.StopCPUProfile()
		}
		if err := f.Close(); err != nil {
			fmt.Fprintf(stderr, "dbadmin-tui: %s: %v\n", profileEnv, err)
		}
	}
}
