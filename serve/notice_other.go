//go:build !unix

package serve

import "charm.land/ssh"

// notice writes text on the session's terminal.
func notice(sess ssh.Session, text string) { _, _ = sess.Write([]byte(text)) }
