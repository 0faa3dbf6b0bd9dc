package apisim

import (
	"fmt"
	"regexp"
	"strings"
)

// resourceAttributes are the matcher fields of a cluster or one of its
// hosts, named as listAlertConfigurationMatchersFieldNames names them.
func resourceAttributes(cl *Cluster, h *Process) map[string]string {
	a := map[string]string{"CLUSTER_NAME": cl.Name}
	if h == nil {
		a["REPLICA_SET_NAME"] = shardName(cl, 0)
		return a
	}
	a["HOSTNAME"] = h.Hostname
	a["PORT"] = fmt.Sprint(h.Port)
	a["HOSTNAME_AND_PORT"] = h.ID
	a["TYPE_NAME"] = matcherTypeName(h.TypeName)
	a["ATLAS_NODE_TYPE"] = "ELECTABLE"
	if h.ReplicaSetName != "" {
		a["REPLICA_SET_NAME"] = h.ReplicaSetName
	}
	if h.ShardName != "" {
		a["SHARD_NAME"] = h.ShardName
	}
	return a
}

// matcherTypeName maps a process type to the TYPE_NAME matcher values
// (PRIMARY, SECONDARY, CONFIG, MONGOS).
func matcherTypeName(t string) string {
	switch {
	case t == "SHARD_MONGOS":
		return "MONGOS"
	case strings.HasPrefix(t, "SHARD_CONFIG"):
		return "CONFIG"
	case strings.HasSuffix(t, "PRIMARY"):
		return "PRIMARY"
	case strings.HasSuffix(t, "SECONDARY"):
		return "SECONDARY"
	}
	return t
}

// matchesAll reports whether every matcher holds for the attributes. A
// matcher on a field the event does not carry never holds: a configuration
// narrowed to a host type does not fire for a billing event.
func matchesAll(ms []Matcher, attrs map[string]string) bool {
	for _, m := range ms {
		v, ok := attrs[m.FieldName]
		if !ok || !matchOne(m.Operator, v, m.Value) {
			return false
		}
	}
	return true
}

// matchOne applies one operator. Comparisons are case-sensitive; REGEX must
// match the whole value.
func matchOne(op, got, want string) bool {
	switch op {
	case "EQUALS":
		return got == want
	case "NOT_EQUALS":
		return got != want
	case "CONTAINS":
		return strings.Contains(got, want)
	case "NOT_CONTAINS":
		return !strings.Contains(got, want)
	case "STARTS_WITH":
		return strings.HasPrefix(got, want)
	case "ENDS_WITH":
		return strings.HasSuffix(got, want)
	case "REGEX":
		re, err := regexp.Compile(`^(?:` + want + `)$`)
		return err == nil && re.MatchString(got)
	}
	return false
}
