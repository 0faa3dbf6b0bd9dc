package alerts_test

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Golden screens of the whole dashboard with the alerts pane, on a fixed
// clock and the seeded world, mono theme.
func TestGoldenScreens(t *testing.T) {
	for _, size := range []struct {
		name string
		w, h int
	}{{"120x40", 120, 40}, {"80x24", 80, 24}} {
		t.Run(size.name, func(t *testing.T) {
			w := newWorld(t)
			d := newDriver(t, w, "org-owner", size.w, size.h)
			require.Contains(t, d.Screen(), "EVENT TYPE")
			if size.w < 100 {
				// STATUS is a one-cell marker, CREATED gone, AGE kept.
				require.Contains(t, d.Screen(), "S SEV  EVENT TYPE")
				require.NotContains(t, d.Screen(), "CREATED")
			} else {
				require.Contains(t, d.Screen(), "STATUS")
			}
			requireGolden(t, "list_"+size.name, d.Screen())

			d.Press("enter")
			require.Contains(t, d.Screen(), "# CPS_SNAPSHOT_FAILED")
			requireGolden(t, "detail_"+size.name, d.Screen())

			d.Press("a")
			d.Type("failover in progress, see #inc-42")
			requireGolden(t, "ack_dialog_"+size.name, d.Screen())
			d.Press("esc", "esc")

			d.Press("c")
			require.Contains(t, d.Screen(), "Alert configurations")
			requireGolden(t, "configs_"+size.name, d.Screen())
			d.Press("enter")
			requireGolden(t, "config_detail_"+size.name, d.Screen())
		})
	}
}
