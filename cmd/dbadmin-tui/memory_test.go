package main

import "testing"

// The limit is memBase while the live heap is small, and a quarter as much
// again as is live beyond that: never below what the dashboard must keep.
func TestMemLimitFollowsLiveHeap(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int64
	}{
		{0, memBase},
		{40 << 20, memBase},
		{44 << 20, memBase},
		{64 << 20, 80 << 20},
		{100 << 20, 125 << 20},
		{400 << 20, 500 << 20},
	} {
		if got := memLimitFor(c.live); got != c.want {
			t.Errorf("memLimitFor(%d MiB) = %d MiB, want %d MiB", c.live>>20, got>>20, c.want>>20)
		}
	}
}
