package e2e

import (
	"encoding/json"
	"os"
	"strconv"
	"testing"
)

// oracleSeeds are the walks the normal test run takes (about a minute and
// a half on two busy cores), chosen for what they reach: acks and unacks
// from Alerts and Triage, Triage jumps, a snapshot, a cancelled restore, a
// search index delete, an access role (TestOracleCatchesAMutantClient
// reaches every kind the judge reads, on fixed keys).
// DBADMIN_ORACLE_WALKS=N takes N walks from seed 1000.
var oracleSeeds = []int64{1, 5, 7, 13, 14}

const oracleSteps = 40

// TestOracleWalks drives the real binary through random walks (pane
// switches, Triage jumps, filters, sorts, marks, resizes, random keys in
// every field of every form, cancels and confirms) against an apisim whose
// clock is stopped, and after each step holds every write apisim received
// to what the last dialog on screen named: its targets and its values.
//
//	ORACLE_SEED=7 go test ./e2e -run 'TestOracleWalks$' -v        one walk
//	ORACLE_REPLAY='[...]' go test ./e2e -run 'TestOracleWalks$' -v the keys a failure printed
//	DBADMIN_ORACLE_WALKS=500 ORACLE_STEPS=60 go test ./e2e -run 'TestOracleWalks$' -timeout 0
func TestOracleWalks(t *testing.T) {
	RequireTmux(t)
	steps := oracleSteps
	if v, err := strconv.Atoi(os.Getenv("ORACLE_STEPS")); err == nil && v > 0 {
		steps = v
	}
	seeds := oracleSeeds
	if v, err := strconv.Atoi(os.Getenv("DBADMIN_ORACLE_WALKS")); err == nil && v > 0 {
		seeds = nil
		for i := range v {
			seeds = append(seeds, 1000+int64(i))
		}
	}
	if v, err := strconv.ParseInt(os.Getenv("ORACLE_SEED"), 10, 64); err == nil {
		seeds = []int64{v}
	}
	if replay := os.Getenv("ORACLE_REPLAY"); replay != "" {
		var st []oracleStep
		if err := json.Unmarshal([]byte(replay), &st); err != nil {
			t.Fatalf("ORACLE_REPLAY: %v", err)
		}
		o := newOracle(t, -1, nil)
		o.replay(st)
		t.Logf("replayed %d steps, %d writes checked", len(o.steps), o.judge.Checked)
		if len(o.Fails) > 0 {
			t.Fatal(o.failure())
		}
		return
	}
	walks, total, writes := 0, 0, 0
	unread, kinds := map[string]int{}, map[string]int{}
	for _, seed := range seeds {
		ok := t.Run("seed="+strconv.FormatInt(seed, 10), func(t *testing.T) {
			o := newOracle(t, seed, nil)
			o.walk(steps)
			walks++
			total += len(o.steps)
			writes += o.judge.Checked
			for k, n := range o.judge.Unread {
				unread[k] += n
			}
			for k, n := range o.judge.Kinds {
				kinds[k] += n
			}
			t.Logf("seed %d: %d steps, %d writes checked", seed, len(o.steps), o.judge.Checked)
			if len(o.Fails) > 0 {
				t.Fatal(o.failure())
			}
		})
		if !ok && testing.Short() {
			break
		}
	}
	t.Logf("oracle: %d walks, %d steps, %d writes checked %v", walks, total, writes, kinds)
	for k, n := range unread {
		t.Logf("oracle: %d× a write the screen named only loosely: %s", n, k)
	}
}
