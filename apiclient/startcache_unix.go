//go:build unix

package apiclient

import (
	"os"
	"syscall"
)

// ownedByMe reports whether the file belongs to the user running us.
func ownedByMe(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return !ok || int(st.Uid) == os.Getuid()
}

// checkModes: the mode bits say who may read the file.
const checkModes = true
