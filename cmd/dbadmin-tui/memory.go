package main

import (
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// The dashboard's soft memory limit.
//
// By default the Go runtime lets the heap grow to twice what is live before
// it collects (GOGC=100) and returns freed pages to the system slowly. With
// a 100,000-alert project the dashboard keeps 50 to 80 MB live (the alert
// store's records and the table's rows; while a refresh rebuilds the rows
// the table's old ones are still held), so even with the compact store the
// process sat at 151 MB RSS steady and 186 MB during refreshes
// (`DBADMIN_E2E_RSS=1 go test -run AlertsRSS -v ./e2e/`, 1 s polls). With
// this limit: 135 MB steady, 137 MB at most during refreshes, 109 MB after
// them. About 20 MB of RSS is the binary's own pages, outside the limit.
//
// The limit follows the live heap (memBase, or half as much again as is
// live, whichever is more), so a project too large for memBase gets
// GOGC=50-like headroom and never a collector running flat out against a
// limit below what it must keep. GOMEMLIMIT in the environment (even
// "off") leaves the runtime as it is configured.
const (
	memBase  = 96 << 20
	memEvery = 5 * time.Second
)

var limitOnce sync.Once

// limitMemory sets the soft limit and keeps it above the live heap (once a
// process).
func limitMemory(getenv func(string) string) {
	if getenv("GOMEMLIMIT") != "" {
		return
	}
	limitOnce.Do(func() {
		debug.SetMemoryLimit(memBase)
		go followLive()
	})
}

// followLive raises (or lowers back) the limit as the live heap changes.
func followLive() {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	for range time.Tick(memEvery) {
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return
		}
		debug.SetMemoryLimit(memLimitFor(sample[0].Value.Uint64()))
	}
}

// memLimitFor is the limit for a live heap of that many bytes.
func memLimitFor(live uint64) int64 {
	return max(memBase, int64(live+live/2))
}
