package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// sendResizeSend types keys, resizes the window to w x h, types more keys
// and resizes back, in one tmux command: the window changes between the
// keys, as when a pane is dragged while typing.
func (s *Session) sendResizeSend(first []string, w, h int, then []string, backW, backH int) {
	s.t.Helper()
	args := append([]string{"send-keys", "-t", s.name}, first...)
	args = append(args, ";", "resize-window", "-t", s.name, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), ";", "send-keys", "-t", s.name)
	args = append(args, then...)
	args = append(args, ";", "resize-window", "-t", s.name, "-x", fmt.Sprint(backW), "-y", fmt.Sprint(backH))
	if out, err := s.tmux(args...); err != nil {
		s.t.Fatalf("tmux %q: %v: %s", args, err, out)
	}
}

// Issue 24 case 7: keys typed around a resize that passes through a size
// too small to draw (a pane being dragged) are applied in order once the
// window is larger again. `:` `back`, the window too small, `ups` enter
// typed while the too-small screen shows, then back to its size: Backups
// opens (apisim saw its reads), and a `q` typed next is not in a palette.
// Then the same typed in one go with the resizes between the keys, and a
// palette `:q` typed while small quits once the window is larger.
func TestKeysAcrossAResizeAreAppliedInOrder(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			s := StartDemo(t, size[0], size[1], nil, "--project", "payments", "--pane", "alerts")
			s.WaitFor("open (", wait)
			backups := func() {
				t.Helper()
				s.waitUntil(func(sc string) bool {
					return strings.Contains(sc, "Backups · pick a cluster") && !strings.Contains(sc, "│ :")
				}, wait, "Backups open, no palette")
			}
			clusterReads := func() int {
				n := 0
				for _, r := range s.SimRequests() {
					if r.Method == "GET" && strings.HasSuffix(r.Path, "/groups/"+apisim.DemoPaymentsID+"/clusters") {
						n++
					}
				}
				return n
			}

			s.SendFast(":", "back")
			s.WaitFor(":back", wait)
			s.Resize(50, 12)
			s.WaitFor("Terminal too small", wait)
			s.SendFast("ups", "Enter")
			s.WaitFor("4 keys kept", wait)
			s.Resize(size[0], size[1])
			backups()
			if clusterReads() == 0 {
				t.Fatalf("Backups is on screen but apisim saw no read of the project's clusters")
			}

			// In one go, the resizes between the keys: Alerts, then Backups.
			s.sendResizeSend([]string{":", "ale"}, 50, 12, []string{"rts", "Enter", ":", "back", "ups", "Enter"}, size[0], size[1])
			backups()
			if s.Capture(); !s.Alive() {
				t.Fatal("the program ended")
			}

			// A palette command typed whole while the window is too small:
			// :q quits once it is larger again.
			s.SendFast(":")
			s.WaitFor(":", wait)
			s.Resize(50, 12)
			s.WaitFor("Terminal too small", wait)
			s.SendFast("q", "Enter")
			// Whether "2 keys kept" is seen first depends on when the
			// terminal's size reaches the program (about 1 run in 3 under
			// load it quit at once); either way the :q typed is not lost.
			if s.Alive() {
				s.Resize(size[0], size[1])
			}
			s.WaitExit(wait)
		})
	}
}
