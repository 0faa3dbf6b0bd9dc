package apiclient

import (
	"fmt"
	"strconv"
	"strings"
)

// Compatibility rules a dialog applies before anything is sent: which
// clusters may receive a snapshot, which may be a migration's destination,
// what an on-demand snapshot's retention defaults to. Each is a pure
// function; an ineligible choice comes with the reason to show beside it.

// Eligibility is a rule's verdict on one choice.
type Eligibility struct {
	OK     bool
	Reason string // why not, when !OK
}

func eligible() Eligibility { return Eligibility{OK: true} }

func ineligible(format string, args ...any) Eligibility {
	return Eligibility{Reason: fmt.Sprintf(format, args...)}
}

// RestoreSource is what a restore target is judged against: the snapshot's
// cluster and the MongoDB version the snapshot was taken with.
type RestoreSource struct {
	GroupID string
	Cluster Cluster
	// Version is the snapshot's mongodVersion; empty falls back to the
	// source cluster's version.
	Version string
}

// RestoreTarget judges whether target may receive a snapshot of src: not a
// lower MongoDB version than the snapshot's, the same topology (replica set
// or sharded), not paused, and a tier that can receive a restore (not a
// shared tier). The source itself may: that rolls it back in place, as the
// service allows (see InPlace).
func RestoreTarget(src RestoreSource, target Cluster) Eligibility {
	if target.Paused {
		return ineligible("paused")
	}
	if target.Tenant() {
		return ineligible("tier %s cannot receive a restore", firstNonEmpty(target.InstanceSize(), "shared"))
	}
	if sharded(src.Cluster.ClusterType) != sharded(target.ClusterType) {
		return ineligible("%s, the snapshot is of a %s", topology(target.ClusterType), topology(src.Cluster.ClusterType))
	}
	version := firstNonEmpty(src.Version, src.Cluster.MongoDBVersion)
	if c, ok := CompareMongoDBVersions(target.MongoDBVersion, version); ok && c < 0 {
		return ineligible("MongoDB %s is older than the snapshot's %s", target.MongoDBVersion, version)
	}
	return eligible()
}

// InPlace reports whether target is the snapshot's own cluster: a restore
// onto it rolls the cluster back in place.
func InPlace(src RestoreSource, target Cluster) bool {
	srcGroup := src.GroupID
	if srcGroup == "" {
		srcGroup = src.Cluster.GroupID
	}
	return target.Name == src.Cluster.Name && (target.GroupID == "" || target.GroupID == srcGroup)
}

// MigrationDestinationEligible judges whether dest may receive a live migration
// from a source running sourceVersion: the destination needs the same or a
// newer MongoDB version.
func MigrationDestinationEligible(sourceVersion string, dest Cluster) Eligibility {
	if dest.Paused {
		return ineligible("paused")
	}
	if c, ok := CompareMongoDBVersions(dest.MongoDBVersion, sourceVersion); ok && c < 0 {
		return ineligible("MongoDB %s is older than the source's %s", dest.MongoDBVersion, sourceVersion)
	}
	return eligible()
}

// SnapshotRetentionDefault is the retention, in days, an on-demand snapshot
// form starts with: the compliance policy's on-demand minimum when there is
// one, else fallback.
func SnapshotRetentionDefault(policy *CompliancePolicy, fallback int) int {
	if policy == nil || policy.OnDemandPolicyItem == nil || policy.OnDemandPolicyItem.RetentionValue < 1 {
		return fallback
	}
	it := policy.OnDemandPolicyItem
	if days := it.RetentionUnit.Days(it.RetentionValue); days > 0 {
		return days
	}
	return fallback
}

func sharded(t ClusterType) bool { return t == ClusterSharded || t == ClusterGeoSharded }

func topology(t ClusterType) string {
	if sharded(t) {
		return "sharded cluster"
	}
	return "replica set"
}

// CompareMongoDBVersions compares two MongoDB versions by major and minor
// ("6.0.18" and "6.0" are equal; "7.0" is newer than "6.3"). ok is false
// when either cannot be read (then no rule is applied).
func CompareMongoDBVersions(a, b string) (cmp int, ok bool) {
	am, ok1 := majorMinor(a)
	bm, ok2 := majorMinor(b)
	if !ok1 || !ok2 {
		return 0, false
	}
	for i := range am {
		if am[i] != bm[i] {
			if am[i] < bm[i] {
				return -1, true
			}
			return 1, true
		}
	}
	return 0, true
}

func majorMinor(v string) ([2]int, bool) {
	parts := strings.SplitN(strings.TrimSpace(v), ".", 3)
	if len(parts) < 2 {
		return [2]int{}, false
	}
	var out [2]int
	for i := range out {
		n, err := strconv.Atoi(parts[i])
		if err != nil || n < 0 {
			return [2]int{}, false
		}
		out[i] = n
	}
	return out, true
}
