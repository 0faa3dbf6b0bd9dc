package config

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Global settings of our own file.
const (
	keyTheme     = "theme"
	keyKeys      = "keys"
	keyPoll      = "poll"
	keyLogBuffer = "log_buffer"
	keyExportDir = "export_dir"
)

// ownGlobalKeys are our file's top-level settings; every other top-level
// table is a profile.
var ownGlobalKeys = map[string]bool{keyTheme: true, keyKeys: true, keyPoll: true, keyLogBuffer: true, keyExportDir: true}

// Themes lists the accepted theme names; "" picks one from the terminal.
var Themes = []string{"dark", "light", "mono"}

// Intervals are the base polling periods of the panes by pane id. Panes
// adapt around them (faster while something moves, slower after errors).
type Intervals map[string]time.Duration

// DefaultLogBuffer is how many access-log lines the tail pane keeps, the
// same as the pane's own default.
const DefaultLogBuffer = 50_000

type settings struct {
	theme     string
	keys      map[string][]string
	poll      Intervals
	logBuffer int
	exportDir string
}

func defaultSettings(panes Intervals) settings {
	return settings{poll: maps.Clone(panes), logBuffer: DefaultLogBuffer}
}

// readSettings reads the global keys of our file over the defaults; panes
// are the registered panes' default intervals, the keys [poll] accepts.
func readSettings(f *tomlFile, panes Intervals) (settings, error) {
	s := defaultSettings(panes)
	if f == nil {
		return s, nil
	}
	for k, v := range f.root {
		if ownGlobalKeys[k] {
			continue
		}
		if _, isTable := v.(map[string]any); !isTable {
			return s, f.unknownKey("", k, fmt.Sprintf("unknown setting (want %s, or a [profile] table)", strings.Join(sortedNames(ownGlobalKeys), ", ")))
		}
	}
	theme, _, err := getString(f, f.root, keyTheme, "")
	if err != nil {
		return s, err
	}
	if theme != "" && !slices.Contains(Themes, theme) {
		return s, &FileError{Path: f.path, Key: keyTheme, Msg: fmt.Sprintf("unknown theme (want %s, or leave it empty to follow the terminal)", strings.Join(Themes, ", "))}
	}
	s.theme = theme
	if n, ok, err := getInt(f, f.root, keyLogBuffer, ""); err != nil {
		return s, err
	} else if ok {
		if n <= 0 || n > 10_000_000 {
			return s, &FileError{Path: f.path, Key: keyLogBuffer, Msg: "must be a number of lines between 1 and 10000000"}
		}
		s.logBuffer = int(n)
	}
	if s.exportDir, _, err = getString(f, f.root, keyExportDir, ""); err != nil {
		return s, err
	}
	if s.exportDir != "" && !filepath.IsAbs(s.exportDir) && !strings.HasPrefix(s.exportDir, "~/") {
		return s, &FileError{Path: f.path, Key: keyExportDir, Msg: fmt.Sprintf("must be an absolute path or start with ~/ (got %q)", s.exportDir)}
	}
	if s.keys, err = readKeys(f); err != nil {
		return s, err
	}
	if s.poll, err = readPoll(f, panes); err != nil {
		return s, err
	}
	return s, nil
}

// readKeys reads [keys]: action = "k" or action = ["k1", "k2"]. The keymap
// package validates action and key names; this only checks the shape.
func readKeys(f *tomlFile) (map[string][]string, error) {
	t, ok, err := f.section(keyKeys)
	if !ok || err != nil {
		return nil, err
	}
	out := make(map[string][]string, len(t))
	for action, v := range t {
		key := keyKeys + "." + action
		switch kv := v.(type) {
		case string:
			if kv == "" {
				return nil, &FileError{Path: f.path, Key: key, Msg: "empty key"}
			}
			out[action] = []string{kv}
		case []any:
			list := make([]string, 0, len(kv))
			for _, item := range kv {
				s, ok := item.(string)
				if !ok || s == "" {
					return nil, &FileError{Path: f.path, Key: key, Msg: `must list keys as strings, e.g. ["a", "ctrl+a"]`}
				}
				list = append(list, s)
			}
			out[action] = list
		default:
			return nil, &FileError{Path: f.path, Key: key, Msg: `must be a key or a list of keys, e.g. ["a", "ctrl+a"]`}
		}
	}
	return out, nil
}

// readPoll reads [poll]: pane = "15s", for the panes given.
func readPoll(f *tomlFile, panes Intervals) (Intervals, error) {
	iv := maps.Clone(panes)
	t, ok, err := f.section(keyPoll)
	if !ok || err != nil {
		return iv, err
	}
	names := sortedNames(panes)
	for pane, v := range t {
		key := keyPoll + "." + pane
		if _, ok := panes[pane]; !ok {
			return iv, f.unknownKey(keyPoll, pane, "unknown pane (want "+strings.Join(names, ", ")+")")
		}
		s, ok := v.(string)
		if !ok {
			return iv, &FileError{Path: f.path, Key: key, Msg: `must be a duration string such as "15s"`}
		}
		d, err := time.ParseDuration(s)
		if err != nil {
			return iv, &FileError{Path: f.path, Key: key, Msg: `bad duration (use a value such as "15s" or "1m")`}
		}
		if d < time.Second || d > 24*time.Hour {
			return iv, &FileError{Path: f.path, Key: key, Msg: "duration out of range (1s to 24h)"}
		}
		iv[pane] = d
	}
	return iv, nil
}

// section is the file's top-level table [name]; ok is false when the file
// has none.
func (f *tomlFile) section(name string) (t map[string]any, ok bool, err error) {
	raw, ok := f.root[name]
	if !ok {
		return nil, false, nil
	}
	if t, ok = raw.(map[string]any); !ok {
		return nil, false, &FileError{Path: f.path, Key: name, Msg: "must be a table: [" + name + "]"}
	}
	return t, true, nil
}
