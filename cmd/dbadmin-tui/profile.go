package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
)

// profileEnv names a file to write a CPU profile of the whole run to
// (`go tool pprof` reads it): DBADMIN_CPUPROFILE=cpu.out dbadmin-tui ...
// It is written when the dashboard exits. For measuring what the dashboard
// spends (a load, a minute idle), not for everyday use.
const profileEnv = "DBADMIN_CPUPROFILE"

// startProfile starts the CPU profile profileEnv asks for and returns what
// stops and writes it; a file that cannot be made is said on stderr and the
// dashboard runs without a profile.
func startProfile(getenv func(string) string, stderr io.Writer) (stop func()) {
	path := getenv(profileEnv)
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		if err = pprof.StartCPUProfile(f); err != nil {
			_ = f.Close()
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "dbadmin-tui: %s: %v (running without a profile)\n", profileEnv, err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintf(stderr, "dbadmin-tui: %s: %v\n", profileEnv, err)
		}
	}
}
