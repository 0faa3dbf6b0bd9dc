// The restore wizard's targets: every deployment of the target project,
// judged as a target for the snapshot.

package backups

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

// restoreChoice is one cluster of the target project in the wizard's list;
// Why says why it cannot receive the snapshot ("" when it can).
type restoreChoice struct {
	Name, Version, Kind, Why string
	// InPlace: the snapshot's own cluster; restoring onto it rolls it back
	// in place.
	InPlace bool
}

// inPlaceMark is how the wizard marks the snapshot's own cluster.
const inPlaceMark = "this cluster (roll back in place)"

// source is what targets are judged against: the snapshot's cluster, its
// topology and the snapshot's MongoDB version.
func (wz *wizard) source(gid string) apiclient.RestoreSource {
	ct := apiclient.ClusterReplicaSet
	if wz.Source.Kind == kindSharded || wz.Snapshot.Sharded {
		ct = apiclient.ClusterSharded
	}
	return apiclient.RestoreSource{GroupID: gid,
		Cluster: apiclient.Cluster{Name: wz.Source.Name, GroupID: gid, ClusterType: ct, MongoDBVersion: wz.Source.Version},
		Version: wz.Snapshot.Version}
}

// restoreTargets lists every deployment of a project, each judged as a
// target for the snapshot: dedicated clusters by apiclient.RestoreTarget for
// cluster snapshots; flex clusters (and migrated serverless instances) for
// flex ones, never the source itself nor an older version. The ones that
// can receive it come first, each group by name.
func restoreTargets(ctx context.Context, c *apiclient.Client, gid string, rt route, src apiclient.RestoreSource) ([]restoreChoice, error) {
	cls, err := c.Clusters().All(ctx, gid)
	if err != nil {
		return nil, fmt.Errorf("list clusters: %w", err)
	}
	var out []restoreChoice
	for _, cl := range cls {
		kind := strings.TrimSpace(cl.InstanceSize() + " " + topology(cl))
		ch := restoreChoice{Name: cl.Name, Version: cl.MongoDBVersion, Kind: kind}
		if cl.GroupID == "" {
			cl.GroupID = gid
		}
		switch rt {
		case routeCluster:
			ch.Why = apiclient.RestoreTarget(src, cl).Reason
			ch.InPlace = apiclient.InPlace(src, cl)
		default:
			ch.Why = "a dedicated cluster; this snapshot restores onto flex clusters"
		}
		out = append(out, ch)
	}
	// Flex and serverless lists are best effort, as in loadClusters.
	judgeFlex := func(name, version, kind string) restoreChoice {
		ch := restoreChoice{Name: name, Version: version, Kind: kind}
		switch {
		case rt == routeCluster:
			ch.Why = map[string]string{"flex": "a flex cluster", "serverless": "a serverless instance"}[kind] + " cannot receive a dedicated cluster's snapshot"
		case rt == routeServerless && kind != "serverless":
			ch.Why = "serverless snapshots restore onto serverless instances"
		default:
			ch.InPlace = name == src.Cluster.Name && gid == src.GroupID
			v := firstNonEmpty(src.Version, src.Cluster.MongoDBVersion)
			if cmp, ok := apiclient.CompareMongoDBVersions(version, v); ok && cmp < 0 {
				ch.Why = "MongoDB " + version + " is older than the snapshot's " + v
			}
		}
		return ch
	}
	if fl, err := c.Clusters().AllFlex(ctx, gid); err == nil {
		for _, f := range fl {
			out = append(out, judgeFlex(f.Name, f.MongoDBVersion, "flex"))
		}
	}
	if sl, err := c.Clusters().AllServerless(ctx, gid); err == nil {
		for _, s := range sl {
			out = append(out, judgeFlex(s.Name, s.MongoDBVersion, "serverless"))
		}
	}
	// The snapshot's own cluster first (rolling back in place is the
	// commonest restore), then the others that can receive it, then the
	// greyed ones; each group by name.
	rank := func(c restoreChoice) int {
		switch {
		case c.Why != "":
			return 2
		case c.InPlace:
			return 0
		}
		return 1
	}
	slices.SortStableFunc(out, func(a, b restoreChoice) int {
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra - rb
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out, nil
}

func topology(cl apiclient.Cluster) string {
	if cl.ClusterType == apiclient.ClusterSharded || cl.ClusterType == apiclient.ClusterGeoSharded {
		return "sharded"
	}
	return "replica set"
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// target is the chosen target's entry in the list.
func (wz *wizard) target() restoreChoice {
	for _, t := range wz.Targets {
		if t.Name == wz.Target {
			return t
		}
	}
	return restoreChoice{Name: wz.Target}
}
