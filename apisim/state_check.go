package apisim

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// DefaultStateMaxBytes caps the state file apisim reads (Options.StateMaxBytes,
// --state-max-mb): a seeded world saves to well under 1 MiB, and reading a
// file of hundreds of MiB takes seconds and gigabytes before it could be
// refused.
const DefaultStateMaxBytes = 32 << 20

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
