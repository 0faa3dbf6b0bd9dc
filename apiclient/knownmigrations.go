package apiclient

import (
	"slices"
	"strings"
	"sync"
	"time"
)

// The API cannot list live migrations: there is a get by id
// (getPushMigration) and no list per project or organization. So the
// client remembers the migrations this session started (Create) or read
// (Get), for the Triage board to cover; others cannot be known.

// MigrationCutoverWindow is how long a migration ready for cut-over waits
// before it expires (the service's 120 hours).
const MigrationCutoverWindow = 120 * time.Hour

// KnownMigration is a live migration this session started or read.
type KnownMigration struct {
	GroupID string
	Cluster string // the destination cluster, when this session started it
	Last    LiveMigration
	// Seen is when it was last read (the server's clock, Client.Now).
	Seen time.Time
	// ReadySince is when this session first saw it ready for cut-over
	// (zero while not ready): the cut-over window ends at most
	// MigrationCutoverWindow after it.
	ReadySince time.Time
}

// ExpiresBy is the latest the cut-over window can end, when ready.
func (k KnownMigration) ExpiresBy() (time.Time, bool) {
	if k.ReadySince.IsZero() || k.Last.Done() {
		return time.Time{}, false
	}
	return k.ReadySince.Add(MigrationCutoverWindow), true
}

type knownMigrations struct {
	mu sync.Mutex
	m  map[string]KnownMigration // by group id and migration id
}

func (k *knownMigrations) note(groupID, cluster string, m *LiveMigration, now time.Time) {
	if m == nil || m.ID == "" {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.m == nil {
		k.m = map[string]KnownMigration{}
	}
	key := groupID + "/" + m.ID
	old := k.m[key]
	if cluster == "" {
		cluster = old.Cluster
	}
	km := KnownMigration{GroupID: groupID, Cluster: cluster, Last: *m, Seen: now, ReadySince: old.ReadySince}
	if m.ReadyForCutover && km.ReadySince.IsZero() {
		km.ReadySince = now
	}
	k.m[key] = km
}

// KnownMigrations are the live migrations this session started or read,
// by project then id; groupID "" lists every project's.
func (c *Client) KnownMigrations(groupID string) []KnownMigration {
	c.knownMig.mu.Lock()
	defer c.knownMig.mu.Unlock()
	var out []KnownMigration
	for _, km := range c.knownMig.m {
		if groupID == "" || km.GroupID == groupID {
			out = append(out, km)
		}
	}
	slices.SortFunc(out, func(a, b KnownMigration) int {
		return strings.Compare(a.GroupID+"/"+a.Last.ID, b.GroupID+"/"+b.Last.ID)
	})
	return out
}
