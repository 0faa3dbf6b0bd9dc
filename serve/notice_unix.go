//go:build unix

package serve

import (
	"time"

	"charm.land/ssh"
	"golang.org/x/sys/unix"
)

// notice writes text where the dashboard wrote its last frame, so that it
// lands after the dashboard left the alternate screen and stays on the
// terminal. With a server-side pty that is the pty itself: a copier
// forwards it to the channel, and writing to the channel directly could
// overtake the dashboard's last bytes (the notice would be drawn on the
// alternate screen and wiped with it). It returns once the copier has
// taken everything, so that the session may end without cutting it short.
func notice(sess ssh.Session, text string) {
	pty, _, ok := sess.Pty()
	if !ok || sess.EmulatedPty() || pty.Slave == nil || pty.Master == nil {
		_, _ = sess.Write([]byte(text))
		return
	}
	if _, err := pty.Slave.WriteString(text); err != nil {
		_, _ = sess.Write([]byte(text))
		return
	}
	raw, err := pty.Master.SyscallConn()
	if err != nil {
		return
	}
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); {
		queued := 0
		_ = raw.Control(func(fd uintptr) { queued, err = unix.IoctlGetInt(int(fd), unix.TIOCINQ) })
		if err != nil || queued == 0 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	// The copier read the last bytes; let it hand them to the channel.
	time.Sleep(50 * time.Millisecond)
}
