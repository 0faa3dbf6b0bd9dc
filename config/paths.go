package config

import (
	"fmt"
	"os"
	"path/filepath"
)

// AppName is the directory under the user's config dir that holds our file.
const AppName = "dbadmin-tui"

// cliConfigPath is where the cloud CLI keeps its profiles: its own
// directory under $XDG_CONFIG_HOME when set, else the platform config dir.
func cliConfigPath(env func(string) string) (string, error) {
	if x := env("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "atlascli", "config.toml"), nil
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("config: locate the cloud CLI's config directory: %w", err)
	}
	return filepath.Join(dir, "atlascli", "config.toml"), nil
}

// ownConfigPath is our file: $XDG_CONFIG_HOME/dbadmin-tui/config.toml, else
// ~/.config/dbadmin-tui/config.toml on every platform, as users of terminal
// tools expect.
func ownConfigPath(env func(string) string) (string, error) {
	if x := env("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, AppName, "config.toml"), nil
	}
	home := env("HOME")
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("config: locate the home directory: %w", err)
		}
		home = h
	}
	return filepath.Join(home, ".config", AppName, "config.toml"), nil
}

// DefaultPath is where Load looks for our own config file when no path is
// given, for help texts and error hints.
func DefaultPath(env func(string) string) (string, error) {
	if env == nil {
		env = os.Getenv
	}
	return ownConfigPath(env)
}

// CacheDir is where the dashboard keeps what it may read again instead of
// asking the service (who the caller is, the organization tree, the rate
// limits it last heard): $XDG_CACHE_HOME/dbadmin-tui, else
// ~/.cache/dbadmin-tui.
func CacheDir(env func(string) string) (string, error) {
	if env == nil {
		env = os.Getenv
	}
	if x := env("XDG_CACHE_HOME"); x != "" {
		return filepath.Join(x, AppName), nil
	}
	home := env("HOME")
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("cache: locate the home directory: %w", err)
		}
		home = h
	}
	return filepath.Join(home, ".cache", AppName), nil
}
