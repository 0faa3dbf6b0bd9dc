package apisim

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// DefaultStateMaxBytes caps the state file apisim reads (Options.StateMaxBytes,
// --state-max-mb): a seeded world saves to well under 1 MiB, and reading a
// file of hundreds of MiB takes seconds and gigabytes before it could be
// refused.
const DefaultStateMaxBytes = 32 << 20

// maxClock is the latest world time apisim accepts (a saved clock, a clock
// advance): the times it derives from the clock (expiry, retention, the
// next scheduled snapshot) must still encode as RFC 3339, whose years end
// at 9999.
var maxClock = time.Date(9000, 1, 1, 0, 0, 0, 0, time.UTC)

// requiredCollections must be present (not null) in a state file: every
// list the API pages over. The others may be absent in an older file.
var requiredCollections = map[string]bool{
	"projects": true, "clusters": true, "hosts": true, "alertConfigs": true, "alerts": true, "snapshots": true,
}

// checkWorld is the schema check of a loaded state: collections present,
// no null where an object is required, ids present and unique in their
// collection, projects and clusters that point at what exists, and an id
// counter ahead of every id it minted. The first problem is returned,
// named by its JSON path.
func checkWorld(w *World) error {
	if w.Org.ID == "" {
		return fmt.Errorf("world.org.id is missing")
	}
	if w.NextID == 0 {
		return fmt.Errorf("world.nextId is 0: the next id would collide with the seeded ones")
	}
	rv := reflect.ValueOf(w).Elem()
	rt := rv.Type()
	prefix := fmt.Sprintf("%08x", w.IDPrefix)
	for i := 0; i < rt.NumField(); i++ {
		f := rt.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "" || name == "-" {
			continue
		}
		v := rv.Field(i)
		path := "world." + name
		switch v.Kind() {
		case reflect.Slice:
			if v.IsNil() {
				if requiredCollections[name] {
					return fmt.Errorf("%s is null or missing: want a list", path)
				}
				continue
			}
			seen := map[string]int{}
			for j := 0; j < v.Len(); j++ {
				el := v.Index(j)
				if el.Kind() == reflect.Pointer {
					if el.IsNil() {
						return fmt.Errorf("%s[%d] is null: want an object", path, j)
					}
					el = el.Elem()
				}
				if el.Kind() != reflect.Struct {
					continue
				}
				idf := el.FieldByName("ID")
				if !idf.IsValid() || idf.Kind() != reflect.String {
					continue
				}
				id := idf.String()
				if id == "" {
					return fmt.Errorf("%s[%d].id is missing", path, j)
				}
				if k, dup := seen[id]; dup {
					return fmt.Errorf("%s[%d].id %s repeats %s[%d].id", path, j, id, path, k)
				}
				seen[id] = j
				if n, ok := mintedNumber(id, prefix); ok && n > w.NextID {
					return fmt.Errorf("world.nextId %d is behind %s[%d].id %s: new ids would repeat old ones", w.NextID, path, j, id)
				}
			}
		case reflect.Map:
			if v.Type().Elem().Kind() != reflect.Pointer {
				continue
			}
			iter := v.MapRange()
			for iter.Next() {
				if iter.Value().IsNil() {
					return fmt.Errorf("%s[%q] is null: want an object", path, iter.Key().String())
				}
			}
		}
	}
	if len(w.Projects) == 0 {
		return fmt.Errorf("world.projects is empty: a world needs at least one project")
	}
	for j, p := range w.Projects {
		if w.org(p.OrgID) == nil {
			return fmt.Errorf("world.projects[%d].orgId %q is not world.org.id nor in world.orgs", j, p.OrgID)
		}
	}
	for j, c := range w.Clusters {
		if w.project(c.GroupID) == nil {
			return fmt.Errorf("world.clusters[%d].groupId %q names no project", j, c.GroupID)
		}
		if c.Name == "" {
			return fmt.Errorf("world.clusters[%d].name is missing", j)
		}
	}
	for j, a := range w.AlertConfigs {
		if w.project(a.GroupID) == nil {
			return fmt.Errorf("world.alertConfigs[%d].groupId %q names no project", j, a.GroupID)
		}
	}
	for j, a := range w.Alerts {
		if w.project(a.GroupID) == nil {
			return fmt.Errorf("world.alerts[%d].groupId %q names no project", j, a.GroupID)
		}
	}
	for j, h := range w.Hosts {
		if w.cluster(h.GroupID, h.ClusterName) == nil {
			return fmt.Errorf("world.hosts[%d] names cluster %q of project %q, which does not exist", j, h.ClusterName, h.GroupID)
		}
	}
	for j, x := range w.Snapshots {
		if w.cluster(x.GroupID, x.ClusterName) == nil {
			return fmt.Errorf("world.snapshots[%d] names cluster %q of project %q, which does not exist", j, x.ClusterName, x.GroupID)
		}
	}
	for j, x := range w.SearchIndexes {
		if w.cluster(x.GroupID, x.ClusterName) == nil {
			return fmt.Errorf("world.searchIndexes[%d] names cluster %q of project %q, which does not exist", j, x.ClusterName, x.GroupID)
		}
	}
	for key, raw := range w.Analyzers {
		if !json.Valid(raw) || string(raw) == "null" {
			return fmt.Errorf("world.analyzers[%q] is not a list", key)
		}
	}
	return nil
}

// mintedNumber is the counter part of an id newID made with prefix.
func mintedNumber(id, prefix string) (uint64, bool) {
	if len(id) != 24 || !strings.HasPrefix(id, prefix) {
		return 0, false
	}
	n, err := strconv.ParseUint(id[8:], 16, 64)
	return n, err == nil
}

// checkText refuses a state file that is not valid UTF-8: decoding would
// turn the bad bytes into U+FFFD, and the next save would rewrite the names
// they were part of. The offset and line of the first bad byte are named.
func checkText(b []byte) error {
	if utf8.Valid(b) {
		return nil
	}
	off := 0
	for off < len(b) {
		r, n := utf8.DecodeRune(b[off:])
		if r == utf8.RuneError && n <= 1 {
			break
		}
		off += n
	}
	line := 1 + strings.Count(string(b[:off]), "\n")
	return fmt.Errorf("it is not valid UTF-8 (byte %d, line %d)", off, line)
}

// checkClock refuses a saved clock past maxClock.
func checkClock(t time.Time) error {
	if t.After(maxClock) {
		return fmt.Errorf("its clock %s is past %s: the times a change sets from it could not be saved", t.Format(time.RFC3339), maxClock.Format("2006-01-02"))
	}
	return nil
}
