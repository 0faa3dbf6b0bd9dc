package e2e

import (
	"os"
	"strings"
	"testing"
)

// oracleRegressions are walks the oracle refused, kept as their steps.
// known names the issue case whose fix is made elsewhere: such a walk runs
// only with ORACLE_KNOWN=1 until that fix is in, then its skip goes (none
// is waiting now).
var oracleRegressions = []struct {
	name, known string
	steps       []oracleStep
	// refuses is what the oracle says while the defect is there.
	refuses string
}{
	{
		// The jump check itself: with no filter on Alerts the board's
		// alert is the one selected.
		name: "triage jump lands on the chosen alert",
		steps: []oracleStep{
			{Keys: []string{"1"}, Want: "Triage · "},
			{Keys: []string{"/", "C-u", "NO_PRIMARY", "Enter"}},
			{Keys: []string{"j", "j", "j", "Enter"}},
		},
	},
	{
		// A dialog that opens while keys are typed takes them (the hold):
		// the enter among them is held to the form as it stood then.
		name: "keys typed as the ack dialog opens, enter among them",
		steps: []oracleStep{
			{Keys: []string{"j", "C-Space", "a"}},
			{Keys: []string{"/", "C-u", "!NO_PRIMARY", "Enter"}},
		},
	},
	{
		// Issue 24 case 1: a jump from the board keeps the Alerts filter,
		// and the cursor lands on another alert.
		name: "triage jump through an Alerts filter",
		steps: []oracleStep{
			{Keys: []string{"/", "C-u", "OUTSIDE", "Enter"}, Want: "OUTSIDE"},
			{Keys: []string{"1"}, Want: "Triage · "},
			{Keys: []string{"/", "C-u", "NO_PRIMARY", "Enter"}},
			{Keys: []string{"Enter"}},
		},
		refuses: "a Triage jump",
	},
	{
		// Issue 24 case 1, its second half: with a status filter on
		// Alerts that hides the chosen alert, the jump shows no row.
		name: "triage jump through a status filter",
		steps: []oracleStep{
			{Keys: []string{"s", "s"}, Want: "status: TRACKING"},
			{Keys: []string{"1"}, Want: "Triage · "},
			{Keys: []string{"/", "C-u", "CLUSTER_BLOCK_WRITE", "Enter"}},
			{Keys: []string{"Enter"}},
		},
		refuses: "a Triage jump",
	},
}

// TestOracleRegressions replays each walk the oracle once refused: it must
// pass now.
func TestOracleRegressions(t *testing.T) {
	RequireTmux(t)
	for _, c := range oracleRegressions {
		t.Run(c.name, func(t *testing.T) {
			if c.known != "" && os.Getenv("ORACLE_KNOWN") == "" {
				t.Skipf("%s is fixed apart; ORACLE_KNOWN=1 runs it", c.known)
			}
			o := newOracle(t, 0, nil)
			o.replay(c.steps)
			if len(o.Fails) > 0 {
				if c.refuses != "" && !strings.Contains(strings.Join(o.Fails, "\n"), c.refuses) {
					t.Logf("refused otherwise than when it was kept (%q)", c.refuses)
				}
				t.Fatal(o.failure())
			}
		})
	}
}
