package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// The dashboard's soft memory limit.
//
// By default the Go runtime lets the heap grow to twice what is live before
// it collects (GOGC=100) and returns freed pages to the system slowly. With
// a 100,000-alert project the dashboard keeps about 34 MB live (the alert
// store's records and the table's one set of rows, an id and a class each,
// which a refresh rewrites in place), so without a limit the process would
// sit near twice that plus the binary's own pages (about 15-20 MB of RSS,
// outside the limit). With 80 MiB (when 55 MB were live) RSS was 93-97 MB
// steady; with this limit (56 MiB, a quarter again as is live) it is 73 MB
// steady and 78 MB at most since the start, the first full pass included
// (`DBADMIN_E2E_SPEED=1 go test -run AlertsSpeed -v ./e2e/`).
//
// The limit follows the live heap (memBase, or a quarter as much again as
// is live plus what the runtime holds besides its objects, whichever is
// more), so a project too large for memBase gets
// GOGC=25-like headroom and never a collector running flat out against a
// limit below what it must keep. GOMEMLIMIT in the environment (even
// "off") leaves the runtime as it is configured.
const memBase = 56 << 20

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

// followLive raises (or lowers back) the limit as the live heap changes:
// after each collection, when the runtime counts what is live anew. An idle
// dashboard collects nothing, so this costs it no wake-up (it read the
// heap every 5 s before).
func followLive() {
	sample := []metrics.Sample{
		{Name: "/gc/heap/live:bytes"},
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"},
	}
	collected := make(chan struct{}, 1)
	afterEachGC(func() {
		select {
		case collected <- struct{}{}:
		default: // one is pending: it reads the newest figures
		}
	})
	for range collected {
		metrics.Read(sample)
		for _, s := range sample {
			if s.Value.Kind() != metrics.KindUint64 {
				return
			}
		}
		v := func(i int) uint64 { return sample[i].Value.Uint64() }
		// What the runtime holds besides heap objects and free pages:
		// stacks, its own structures, the unused ends of spans.
		overhead := v(1) - min(v(1), v(2)+v(3)+v(4))
		debug.SetMemoryLimit(memLimitFor(v(0), overhead))
	}
}

// memLimitFor is the limit for a live heap of that many bytes when the
// runtime needs overhead bytes besides: the limit counts all of the
// runtime's memory, so a limit of a quarter again as is live, without the
// overhead, left the collector no room and had it run without pause (43 MB
// live under 56 MiB at 100,000 alerts: 12-25 CPU-s a minute idle).
func memLimitFor(live, overhead uint64) int64 {
	return max(memBase, int64(live+live/4+overhead))
}

// gcMark is an object nothing keeps: the collection that finds it
// unreachable runs its cleanup. It holds a pointer, so it is never one of
// the tiny allocator's shared blocks (whose cleanups may never run).
type gcMark struct{ _ *byte }

// afterEachGC calls fn (on the runtime's cleanup goroutine) after every
// collection from now on, each call arming the next with a new mark.
func afterEachGC(fn func()) {
	runtime.AddCleanup(new(gcMark), func(struct{}) {
		fn()
		afterEachGC(fn)
	}, struct{}{})
}
