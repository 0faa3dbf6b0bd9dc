package apisim

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestIndexFollowsItsList changes a list as the handlers do (appends,
// prepends, removals anywhere, filtering in place) at random and checks
// after each change that every key's lookup is what a scan of the list
// finds, in the list's order.
func TestIndexFollowsItsList(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 25))
	keys := []string{"g1", "g2", "g3", "g4"}
	ix := index[Alert]{key: func(a *Alert) string { return a.GroupID }}
	var xs []*Alert
	next := 0
	fresh := func() *Alert {
		next++
		return &Alert{ID: fmt.Sprint(next), GroupID: keys[rng.IntN(len(keys))]}
	}
	for step := range 3000 {
		switch op := rng.IntN(10); {
		case op < 4:
			for range 1 + rng.IntN(3) {
				xs = append(xs, fresh())
			}
		case op == 4:
			xs = slices.Concat([]*Alert{fresh(), fresh()}, xs)
		case op < 8 && len(xs) > 0:
			i := rng.IntN(len(xs))
			remove(&xs, func(a *Alert) bool { return a == xs[i] })
		case op == 8:
			drop := keys[rng.IntN(len(keys))]
			kept := xs[:0]
			for _, a := range xs {
				if a.GroupID != drop || rng.IntN(3) > 0 {
					kept = append(kept, a)
				}
			}
			xs = kept
		default:
			// a removal and an append between two lookups: same length
			if len(xs) > 0 {
				i := rng.IntN(len(xs))
				remove(&xs, func(a *Alert) bool { return a == xs[i] })
				xs = append(xs, fresh())
			}
		}
		for _, k := range keys {
			var want []*Alert
			for _, a := range xs {
				if a.GroupID == k {
					want = append(want, a)
				}
			}
			if got := ix.of(xs, k); !slices.Equal(got, want) {
				t.Fatalf("step %d, key %s: index has %d alerts, the list %d", step, k, len(got), len(want))
			}
		}
	}
}

// TestIndexLookupSharesNothingWritable: what a caller appends to a lookup
// and what the index takes in later never land in each other's slice.
func TestIndexLookupSharesNothingWritable(t *testing.T) {
	ix := index[Alert]{key: func(a *Alert) string { return a.GroupID }}
	xs := []*Alert{{ID: "1", GroupID: "g"}, {ID: "2", GroupID: "g"}, {ID: "3", GroupID: "g"}}
	mine := append(ix.of(xs, "g"), &Alert{ID: "mine", GroupID: "g"})
	xs = append(xs, &Alert{ID: "4", GroupID: "g"})
	got := ix.of(xs, "g")
	if mine[3].ID != "mine" || len(got) != 4 || got[3].ID != "4" {
		t.Fatalf("caller's slice ends with %s, the index's with %s", mine[3].ID, got[len(got)-1].ID)
	}
}
