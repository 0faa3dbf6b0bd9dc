package main

import (
	"runtime"
	"testing"
	"time"
)

// The limit is memBase while the live heap is small, and a quarter as much
// again as is live, plus the runtime's own overhead, beyond that: never
// below what the dashboard must keep, and with room for the collector.
func TestMemLimitFollowsLiveHeap(t *testing.T) {
	for _, c := range []struct {
		live, overhead uint64
		want           int64
	}{
		{0, 0, memBase},
		{40 << 20, 0, memBase},
		{40 << 20, 4 << 20, memBase},
		{44 << 20, 0, memBase},
		// 100,000 alerts: 43 MB live and 13 MB besides filled 56 MiB.
		{43 << 20, 13 << 20, (43<<20 + 43<<18 + 13<<20)},
		{64 << 20, 0, 80 << 20},
		{64 << 20, 10 << 20, 90 << 20},
		{100 << 20, 0, 125 << 20},
		{400 << 20, 20 << 20, 520 << 20},
	} {
		if got := memLimitFor(c.live, c.overhead); got != c.want {
			t.Errorf("memLimitFor(%d MiB, %d MiB) = %d MiB, want %d MiB", c.live>>20, c.overhead>>20, got>>20, c.want>>20)
		}
	}
}

// afterEachGC calls back after each collection, not only the first.
func TestAfterEachGC(t *testing.T) {
	got := make(chan struct{}, 10)
	afterEachGC(func() { got <- struct{}{} })
	for i := range 3 {
		deadline := time.After(10 * time.Second)
	wait:
		for {
			runtime.GC()
			select {
			case <-got:
				break wait
			case <-deadline:
				t.Fatalf("no call after collection %d", i+1)
			case <-time.After(10 * time.Millisecond):
			}
		}
	}
}
