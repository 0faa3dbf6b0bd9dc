package apiclient_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// The fault run: writes against apisim on a scaled clock (speeds 1, 10 and
// 60) with every way an answer goes wrong, each judged as the dashboard
// judges it (the answer; else, for a lost answer, the read-back), then the
// verdicts checked against what the server holds.
//
//	DBADMIN_FAULT_RUN=800 go test ./apiclient -run TestFaultRunVerdicts -v
//
// runs 800 writes a speed (2,400 in all); without it a short run of 40 a
// speed runs with the other tests.
//
// The faults: 10% of calls answered 500/503 before anything is applied
// (refused), 15% of successful answers truncated after the write was
// applied (an unreadable 2xx), and, on the way back, 8% of writes applied
// and their answer held past the client's timeout, 4% cut before reaching
// the server (a reset: not applied).
//
// A verdict is wrong when it says applied (an answer, or a read-back that
// found the write) for what the server does not hold, or not applied (a
// refusal) for what it holds. A read-back that finds nothing says
// "unknown: check before submitting again": never wrong, but counted, and
// counted again when the server does hold the write (undecided though
// applied: what a "not created" would have got wrong). Doubles are writes
// the server holds twice.
func TestFaultRunVerdicts(t *testing.T) {
	perSpeed := 40
	if v := os.Getenv("DBADMIN_FAULT_RUN"); v != "" {
		n, err := strconv.Atoi(v)
		require.NoError(t, err, "DBADMIN_FAULT_RUN is the number of writes a speed")
		perSpeed = n
	}
	if testing.Short() && os.Getenv("DBADMIN_FAULT_RUN") == "" {
		perSpeed = 15
	}
	var total faultRunTally
	for _, speed := range []float64{1, 10, 60} {
		t.Run(fmt.Sprintf("speed %v", speed), func(t *testing.T) {
			r := faultRun(t, speed, perSpeed)
			t.Logf("speed %v: %s", speed, r)
			total.add(r)
			assert.Zero(t, r.wrong, "wrong verdicts")
			assert.Zero(t, r.doubles, "writes held twice")
			assert.Zero(t, r.undecidedApplied, "lost answers of applied writes the read-back did not find")
			assert.Positive(t, r.unknown, "no answer was lost: the run tested nothing")
		})
	}
	t.Logf("all speeds: %s", total)
}

type faultRunTally struct {
	writes, answered, refused, unknown, verified, undecided, undecidedApplied, checkFailed, wrong, doubles int
}

func (r faultRunTally) String() string {
	return fmt.Sprintf("%d writes: %d answered, %d refused, %d answers lost (%d verified applied, %d not found: unknown, of which %d applied; %d checks failed); %d wrong verdicts, %d doubles",
		r.writes, r.answered, r.refused, r.unknown, r.verified, r.undecided, r.undecidedApplied, r.checkFailed, r.wrong, r.doubles)
}

func (r *faultRunTally) add(o faultRunTally) {
	r.writes += o.writes
	r.answered += o.answered
	r.refused += o.refused
	r.unknown += o.unknown
	r.verified += o.verified
	r.undecided += o.undecided
	r.undecidedApplied += o.undecidedApplied
	r.checkFailed += o.checkFailed
	r.wrong += o.wrong
	r.doubles += o.doubles
}

// verdict is what the client concluded about one write.
type verdict int

const (
	saysApplied verdict = iota
	saysRefused
	saysUnknown
)

func faultRun(t *testing.T, speed float64, n int) faultRunTally {
	sim, err := apisim.New(apisim.Options{Seed: 7, Speed: speed, FaultRate: 0.10, MalformedRate: 0.15, RateLimitPerMin: 1 << 20})
	require.NoError(t, err)
	h := sim.Handler()
	var mu sync.Mutex
	rng := rand.New(rand.NewPCG(uint64(speed), 29))
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Header.Get("Authorization") != "" && !strings.Contains(r.URL.Path, "/sim/") {
			mu.Lock()
			roll := rng.Float64()
			mu.Unlock()
			switch {
			case roll < 0.08: // applied, the answer held past the client's timeout
				h.ServeHTTP(httptest.NewRecorder(), r)
				select {
				case <-r.Context().Done():
				case <-time.After(3 * time.Second): // longer than the client waits
				}
				if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
					_ = conn.Close()
				}
				return
			case roll < 0.12: // cut before the server
				conn, _, err := http.NewResponseController(w).Hijack()
				if err == nil {
					_ = conn.Close()
				}
				return
			}
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { ts.Close(); _ = sim.Close() })
	c, err := apiclient.New(apiclient.Options{BaseURL: ts.URL, Service: "atlas",
		Auth:       apiclient.DigestAuth("org-owner", "org-owner-secret"),
		HTTPClient: &http.Client{Timeout: time.Second},
		MaxRetries: 3, Backoff: time.Millisecond})
	require.NoError(t, err)
	ctx := context.Background()
	g := apisim.DemoPaymentsID
	clusters := []string{"payments-prod", "payments-rs", "payments-legacy"}

	type write struct {
		marker   string
		verdict  verdict
		notFound bool // a lost answer whose read-back found nothing
	}
	writes := make([]write, n)
	var tally faultRunTally
	var tmu sync.Mutex
	count := func(f func(*faultRunTally)) { tmu.Lock(); f(&tally); tmu.Unlock() }
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				marker := fmt.Sprintf("fr-%v-%d", speed, i)
				var err error
				var verify func(sent time.Time) (bool, error)
				if i%3 == 0 { // a cluster takes one on-demand snapshot at a time: most are refused
					cl := clusters[(i/3)%len(clusters)]
					req := apiclient.TakeSnapshotRequest{Description: marker, RetentionInDays: 1}
					_, err = c.Backups().TakeSnapshot(ctx, g, cl, req)
					verify = func(sent time.Time) (bool, error) {
						_, ok, err := c.Backups().VerifyTakeSnapshot(ctx, g, cl, req, sent)
						return ok, err
					}
				} else {
					cfg := apiclient.AlertConfig{EventTypeName: "NO_PRIMARY", Enabled: true,
						Notifications: []apiclient.Notification{{TypeName: apiclient.NotifyEmail, EmailAddress: marker + "@example.com", IntervalMin: 5}}}
					_, err = c.AlertConfigs().Create(ctx, g, cfg)
					verify = func(sent time.Time) (bool, error) {
						_, ok, err := c.AlertConfigs().VerifyCreate(ctx, g, cfg, sent)
						return ok, err
					}
				}
				w := write{marker: marker}
				ou, lost := apiclient.AsOutcomeUnknown(err)
				switch {
				case err == nil:
					w.verdict = saysApplied
					count(func(t *faultRunTally) { t.answered++ })
				case !lost:
					w.verdict = saysRefused
					count(func(t *faultRunTally) { t.refused++ })
				default:
					count(func(t *faultRunTally) { t.unknown++ })
					ok, verr := verify(ou.Sent)
					switch {
					case verr != nil:
						w.verdict = saysUnknown
						count(func(t *faultRunTally) { t.checkFailed++ })
					case ok:
						w.verdict = saysApplied
						count(func(t *faultRunTally) { t.verified++ })
					default:
						w.verdict, w.notFound = saysUnknown, true
						count(func(t *faultRunTally) { t.undecided++ })
					}
				}
				writes[i] = w
			}
		}()
	}
	wg.Wait()

	// What the server holds, read without faults.
	held := map[string]int{}
	clean, err := apiclient.New(apiclient.Options{BaseURL: ts.URL, Service: "atlas", Auth: apiclient.DigestAuth("org-owner", "org-owner-secret"), MaxRetries: 30, Backoff: time.Millisecond})
	require.NoError(t, err)
	for _, cl := range clusters {
		rs, err := clean.Backups().AllSnapshots(ctx, g, cl)
		require.NoError(t, err)
		for _, s := range rs {
			held[s.Description]++
		}
		sh, err := clean.Backups().ShardedSnapshots(ctx, g, cl)
		require.NoError(t, err)
		for _, s := range sh.Results {
			held[s.Description]++
		}
	}
	cfgs, err := clean.AlertConfigs().ListAll(ctx, g)
	require.NoError(t, err)
	for _, a := range cfgs {
		for _, nt := range a.Notifications {
			if m, ok := strings.CutSuffix(nt.EmailAddress, "@example.com"); ok {
				held[m]++
			}
		}
	}
	tally.writes = n
	for _, w := range writes {
		k := held[w.marker]
		if k > 1 {
			tally.doubles++
		}
		switch {
		case w.verdict == saysApplied && k == 0, w.verdict == saysRefused && k > 0:
			tally.wrong++
			t.Errorf("%s: verdict %d, the server holds it %d times", w.marker, w.verdict, k)
		case w.notFound && k > 0:
			tally.undecidedApplied++
		}
	}
	return tally
}
