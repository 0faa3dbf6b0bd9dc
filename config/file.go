package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"runtime"
	"strings"
	"syscall"

	"github.com/BurntSushi/toml"
)

// FileError is a problem with one config file: bad TOML (with Line and Col),
// a key of the wrong type or value (with Key), or a file that cannot be read.
// Its message is one line and never quotes a value.
type FileError struct {
	Path string
	Line int    // 1-based; 0 when the problem has no position
	Col  int    // 1-based; 0 when unknown
	Key  string // dotted key the problem is about, if any
	Msg  string
}

func (e *FileError) Error() string {
	switch {
	case e.Line > 0 && e.Col > 0:
		return fmt.Sprintf("config: %s:%d:%d: %s", e.Path, e.Line, e.Col, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("config: %s:%d: %s", e.Path, e.Line, e.Msg)
	case e.Key != "":
		return fmt.Sprintf("config: %s: %s: %s", e.Path, e.Key, e.Msg)
	}
	return fmt.Sprintf("config: %s: %s", e.Path, e.Msg)
}

// PermissionError refuses a file that holds secrets but can be read by
// group or others.
type PermissionError struct {
	Path string
	Mode fs.FileMode
}

func (e *PermissionError) Error() string {
	return fmt.Sprintf("config: %s is readable by others (mode %04o) and holds secrets; run: chmod 600 %s",
		e.Path, e.Mode.Perm(), e.Path)
}

// tomlFile is one parsed config file.
type tomlFile struct {
	path string
	mode fs.FileMode
	root map[string]any
	text string
}

// unknownKey reports a key the file should not have. The key itself is not
// quoted (a secret pasted on a line of its own would otherwise be printed):
// the message gives its line instead.
func (f *tomlFile) unknownKey(where, key, msg string) *FileError {
	return &FileError{Path: f.path, Line: f.lineOf(key), Key: strings.TrimSuffix(where, "."), Msg: msg}
}

// lineOf is the 1-based line where key is assigned or opens a table, or 0.
func (f *tomlFile) lineOf(key string) int {
	for i, line := range strings.Split(f.text, "\n") {
		line = strings.TrimLeft(line, " \t[")
		for _, form := range []string{key, `"` + key + `"`, "'" + key + "'"} {
			if rest, ok := strings.CutPrefix(line, form); ok {
				rest = strings.TrimLeft(rest, " \t")
				if strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, ".") || strings.HasPrefix(rest, "]") {
					return i + 1
				}
			}
		}
	}
	return 0
}

// MaxFileBytes caps a config file: a real one is a few KiB, and reading a
// path that points at something endless (/dev/zero) must end.
const MaxFileBytes = 1 << 20

// readTOML parses path. A missing file is (nil, nil) unless mustExist.
// Only a regular file of at most MaxFileBytes is read: a FIFO, a device, a
// directory or a socket (also through a symlink) is refused without
// waiting on it.
func readTOML(path string, mustExist bool) (*tomlFile, error) {
	data, info, err := readRegular(path, MaxFileBytes)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && !mustExist {
			return nil, nil
		}
		var fe *FileError
		if errors.As(err, &fe) {
			return nil, fe
		}
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &FileError{Path: path, Msg: "no such file"}
		}
		if errors.Is(err, fs.ErrPermission) {
			return nil, &FileError{Path: path, Msg: "permission denied"}
		}
		return nil, &FileError{Path: path, Msg: "cannot read: " + rootCause(err)}
	}
	root := map[string]any{}
	if _, err := toml.Decode(string(data), &root); err != nil {
		return nil, tomlError(path, err)
	}
	return &tomlFile{path: path, mode: info.Mode(), root: root, text: string(data)}, nil
}

// readRegular reads a regular file of at most max bytes. It opens without
// blocking (a FIFO would wait for a writer), checks what it opened, and
// reads at most max+1 bytes, so a file that grows or lies about its size
// is refused too.
func readRegular(path string, max int64) ([]byte, fs.FileInfo, error) {
	if info, err := os.Stat(path); err != nil {
		return nil, nil, err
	} else if !info.Mode().IsRegular() {
		return nil, nil, notRegular(path, info.Mode())
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, nil, notRegular(path, info.Mode())
	}
	tooLarge := &FileError{Path: path, Msg: fmt.Sprintf("is larger than %d KiB; a config file is a few KiB: is this the right file?", max>>10)}
	if info.Size() > max {
		return nil, nil, tooLarge
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, nil, err
	}
	if int64(len(data)) > max {
		return nil, nil, tooLarge
	}
	return data, info, nil
}

// notRegular names what path is instead of a file.
func notRegular(path string, m fs.FileMode) *FileError {
	what := "not a regular file"
	switch {
	case m.IsDir():
		what = "a directory"
	case m&fs.ModeNamedPipe != 0:
		what = "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	case m&fs.ModeCharDevice != 0:
		what = "a character device"
	case m&fs.ModeDevice != 0:
		what = "a device"
	}
	return &FileError{Path: path, Msg: "is " + what + ", not a regular file: a config file must be a regular file"}
}

// quotedValue matches the double-quoted excerpts the TOML parser puts in its
// messages; they can be the start of a mistyped secret, so they are dropped.
var quotedValue = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// quotedKey matches the single-quoted keys the parser names ("Key 'x' has
// already been defined"); a key can be a pasted secret too. Excerpts of one
// or two characters ("got '=' instead") say what went wrong and stay.
var quotedKey = regexp.MustCompile(`'[^'\n]{3,}'`)

func tomlError(path string, err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		msg := quotedValue.ReplaceAllString(pe.Message, "a value")
		msg = quotedKey.ReplaceAllString(msg, "a key")
		return &FileError{Path: path, Line: pe.Position.Line, Col: pe.Position.Col, Msg: "invalid TOML: " + msg}
	}
	return &FileError{Path: path, Msg: "invalid TOML"}
}

// checkSecretsMode refuses a file with secrets that group or others can read.
// Windows has no such mode bits, so the check does not apply there.
func (f *tomlFile) checkSecretsMode(holdsSecrets bool) error {
	if !holdsSecrets || runtime.GOOS == "windows" {
		return nil
	}
	if f.mode.Perm()&0o077 != 0 {
		return &PermissionError{Path: f.path, Mode: f.mode.Perm()}
	}
	return nil
}

// rootCause is the innermost error's text, so a message names the cause
// without repeating every layer that wrapped it.
func rootCause(err error) string {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err.Error()
		}
		err = next
	}
}

// Helpers that read typed values out of a decoded table and name the key
// when the type is wrong.

func getString(f *tomlFile, t map[string]any, key, where string) (string, bool, error) {
	return getValue[string](f, t, key, where, "must be a string")
}

// getOptBool reads a boolean key, nil when the table lacks it.
func getOptBool(f *tomlFile, t map[string]any, key, where string) (*bool, error) {
	b, set, err := getValue[bool](f, t, key, where, "must be true or false")
	if err != nil || !set {
		return nil, err
	}
	return &b, nil
}

func getInt(f *tomlFile, t map[string]any, key, where string) (int64, bool, error) {
	return getValue[int64](f, t, key, where, "must be an integer")
}

// getValue reads key as a T; set is false when the table lacks it, and a
// value of another type is an error with the message wrongType.
func getValue[T any](f *tomlFile, t map[string]any, key, where, wrongType string) (value T, set bool, err error) {
	v, ok := t[key]
	if !ok {
		return value, false, nil
	}
	value, ok = v.(T)
	if !ok {
		return value, false, &FileError{Path: f.path, Key: where + key, Msg: wrongType}
	}
	return value, true, nil
}
