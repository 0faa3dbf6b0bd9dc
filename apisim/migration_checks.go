package apisim

import (
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The migration check: what validateMigration confirms before a migration
// proceeds (credentials, disk space, database versions, SCRAM-SHA only, the
// one migration host), as a function of the request and the seeded world so
// every failure is reachable on purpose. createPushMigration runs the same
// checks; a request that fails them makes a job that goes FAILED.

// MigrationUser is the source user the demo source deployments accept when
// a request brings its own credentials (managedAuthentication false); its
// password is MigrationUser + "-secret".
const MigrationUser = "mig-user"

// minSourceVersion is the oldest source a push live migration accepts.
var minSourceVersion = [3]int{6, 0, 13}

// sourceAuthMechanisms names the source deployments that authenticate with
// something other than SCRAM-SHA; every other deployment uses SCRAM.
var sourceAuthMechanisms = map[string]string{"hr-x509": "MONGODB-X509"}

// sourceTimeSeries are the time-series collections of the demo source
// deployments; on 6.0 or later they are skipped and the job says so.
var sourceTimeSeries = map[string][]string{
	"billing-rs":   {"metrics.cpu_1m", "metrics.disk_1m"},
	"warehouse-rs": {"telemetry.readings"},
}

// checkMigration returns the first failed check as the validation's
// errorMessage, or "" when the request would migrate.
func (w *World) checkMigration(groupID string, b *migrationBody, now time.Time) string {
	src := w.sourceProject(b.Source.GroupID)
	switch {
	case w.LinkToken == "":
		return "The organization has no link token: create one and link the source organization before migrating."
	case src == nil:
		return fmt.Sprintf("Source project %s is not linked to this organization.", b.Source.GroupID)
	}
	dep := w.sourceDeployment(src.ProjectID, b.Source.ClusterName)
	if dep == nil {
		return fmt.Sprintf("Deployment %s does not exist in source project %s.", b.Source.ClusterName, src.Name)
	}
	dst := w.cluster(groupID, b.Destination.ClusterName) // migrationRequest made sure it exists
	host := b.MigrationHosts[0]
	srcVersion := parseVersion(dep.MongoDBVersion)
	dstVersion := parseVersion(dst.MongoDBVersion)
	diskBytes := int64(dst.DiskSizeGB * 1e9 * float64(max(dst.Shards, 1)))
	mechanism := sourceAuthMechanisms[dep.Name]
	switch {
	case !dep.Managed:
		return fmt.Sprintf("Deployment %s is not managed by automation; push live migration needs a managed source.", dep.Name)
	case mechanism != "":
		return fmt.Sprintf("Deployment %s authenticates with %s; live migration supports SCRAM-SHA authentication only.", dep.Name, mechanism)
	case !*b.Source.ManagedAuthentication && (b.Source.Username != MigrationUser || b.Source.Password != MigrationUser+"-secret"):
		return fmt.Sprintf("Credentials check failed: user %s could not authenticate to %s with SCRAM-SHA-256.", b.Source.Username, dep.Name)
	case *b.Source.SSL != dep.TLSEnabled:
		return fmt.Sprintf("TLS check failed: %s has TLS %s but the request sets ssl to %t.", dep.Name, onOff(dep.TLSEnabled), *b.Source.SSL)
	case !registeredHost(src.MigrationHosts, host):
		return fmt.Sprintf("Migration host %s is not registered with source project %s; it has %s. Exactly one registered migration host is required.",
			host, src.Name, strings.Join(src.MigrationHosts, ", "))
	case versionLess(srcVersion, minSourceVersion):
		return fmt.Sprintf("Database version check failed: source %s runs MongoDB %s; push live migration needs 6.0.13 or later.", dep.Name, dep.MongoDBVersion)
	case versionLess([3]int{dstVersion[0], dstVersion[1]}, [3]int{srcVersion[0], srcVersion[1]}):
		return fmt.Sprintf("Database version check failed: destination %s runs MongoDB %s, older than the source's %s.", dst.Name, dst.MongoDBVersion, dep.MongoDBVersion)
	case dep.Sharded && dst.Kind != KindSharded:
		return fmt.Sprintf("Source %s is sharded; the destination %s must be a sharded cluster.", dep.Name, dst.Name)
	case b.sharding != nil && dst.Kind != KindSharded:
		return fmt.Sprintf("Sharding entries need a sharded destination; %s is a replica set.", dst.Name)
	case dep.DBSizeBytes > diskBytes:
		return fmt.Sprintf("Disk space check failed: the source holds %s but %s has %s of disk.", humanBytes(dep.DBSizeBytes), dst.Name, humanBytes(diskBytes))
	}
	for _, m := range w.Migrations {
		if m.GroupID != groupID || m.ClusterName != dst.Name {
			continue
		}
		if st := m.state(now).Status; st == "NEW" || st == "WORKING" {
			return fmt.Sprintf("Destination %s is already the target of live migration %s.", dst.Name, m.ID)
		}
	}
	return ""
}

// skippedTimeSeries lists what a migration of dep leaves behind: its
// time-series collections when it runs 6.0 or later.
func skippedTimeSeries(dep *SourceDeployment) []string {
	if versionLess(parseVersion(dep.MongoDBVersion), [3]int{6, 0, 0}) {
		return nil
	}
	return slices.Clone(sourceTimeSeries[dep.Name])
}

func parseVersion(v string) [3]int {
	var out [3]int
	for i, p := range strings.SplitN(v, ".", 3) {
		n, _ := strconv.Atoi(strings.TrimFunc(p, func(r rune) bool { return r < '0' || r > '9' }))
		out[i] = n
	}
	return out
}

func versionLess(a, b [3]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

func onOff(b bool) string {
	if b {
		return "enabled"
	}
	return "disabled"
}

func humanBytes(n int64) string {
	const gib = 1 << 30
	switch {
	case n >= 1<<40:
		return fmt.Sprintf("%.1f TiB", float64(n)/(1<<40))
	case n >= gib:
		return fmt.Sprintf("%.1f GiB", float64(n)/gib)
	}
	return fmt.Sprintf("%d MiB", n>>20)
}

// registeredHost: host names one of the source project's migration hosts,
// with its port or by its name alone (the port is the registered one).
func registeredHost(hosts []string, host string) bool {
	for _, h := range hosts {
		name, _, err := net.SplitHostPort(h)
		if h == host || (err == nil && name == host) {
			return true
		}
	}
	return false
}
