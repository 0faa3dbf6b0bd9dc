package apisim

import "strings"

// Clusters of every kind (dedicated, flex, serverless) and their processes.

func init() {
	handle("listClusters", listClusters)
	handle("legacyListClusters", listClusters)
	handle("getCluster", getCluster)
	handle("legacyGetCluster", getCluster)
	handle("listClustersForAllProjects", listClustersForAllProjects)
	handle("listFlexClusters", func(c *call) (any, error) { return c.clustersOfKind(KindFlex, flexView), nil })
	handle("listServerlessInstances", func(c *call) (any, error) { return c.clustersOfKind(KindServerless, serverlessView), nil })
	handle("listAtlasProcesses", listAtlasProcesses)
}

func listClusters(c *call) (any, error) {
	var out list
	for _, cl := range c.w.clustersOf(c.project.ID) {
		if cl.inClusterAPI() {
			out = append(out, c.clusterView(cl))
		}
	}
	return out, nil
}

func getCluster(c *call) (any, error) {
	cl, err := c.clusterAPICluster("clusterName", false)
	if err != nil {
		return nil, err
	}
	return c.clusterView(cl), nil
}

// clusterAPICluster finds the cluster a /clusters/{name} route addresses,
// refusing flex and serverless ones as the real service does; dedicated
// additionally refuses tenant (M0/M2/M5) clusters.
func (c *call) clusterAPICluster(param string, dedicated bool) (*Cluster, error) {
	name := c.param(param)
	cl := c.w.cluster(c.project.ID, name)
	switch {
	case cl == nil:
		return nil, errNotFound("CLUSTER_NOT_FOUND", "No cluster named %s exists in group %s.", name, c.project.ID)
	case cl.Kind == KindFlex:
		return nil, errBadRequest("CANNOT_USE_FLEX_CLUSTER_IN_CLUSTER_API", "Cluster %s is a flex cluster; use the flex cluster API.", name)
	case cl.Kind == KindServerless:
		return nil, errBadRequest("CANNOT_USE_SERVERLESS_INSTANCE_IN_CLUSTER_API", "%s is a serverless instance; use the serverless API.", name)
	case dedicated && cl.Kind == KindTenant:
		return nil, errBadRequest("TENANT_CLUSTER_UNSUPPORTED", "Cluster %s is a %s tenant cluster; this feature needs a dedicated cluster (M10 or larger).", name, cl.InstanceSize)
	}
	return cl, nil
}

// kindCluster finds a flex or serverless cluster for their own routes.
func (c *call) kindCluster(param, kind string) (*Cluster, error) {
	name := c.param(param)
	cl := c.w.cluster(c.project.ID, name)
	switch {
	case cl == nil:
		return nil, errNotFound("CLUSTER_NOT_FOUND", "No cluster named %s exists in group %s.", name, c.project.ID)
	case kind == KindFlex && cl.Kind != KindFlex:
		return nil, errBadRequest("CANNOT_USE_NON_FLEX_CLUSTER_IN_FLEX_API", "Cluster %s is not a flex cluster.", name)
	case kind == KindServerless && cl.Kind != KindServerless:
		return nil, errNotFound("SERVERLESS_INSTANCE_NOT_FOUND", "No serverless instance named %s exists in group %s.", name, c.project.ID)
	}
	return cl, nil
}

func (c *call) clustersOfKind(kind string, view func(*Cluster) any) list {
	var out list
	for _, cl := range c.w.clustersOf(c.project.ID) {
		if cl.Kind == kind {
			out = append(out, view(cl))
		}
	}
	return out
}

func majorVersion(v string) string {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return v
	}
	return parts[0] + "." + parts[1]
}

func clusterType(cl *Cluster) string {
	if cl.Kind == KindSharded {
		return "SHARDED"
	}
	return "REPLICASET"
}

func connStrings(cl *Cluster) map[string]any {
	host := strings.ToLower(cl.Name) + ".sim" + cl.ID[len(cl.ID)-5:] + ".mongodb.net"
	return map[string]any{"standardSrv": "mongodb+srv://" + host, "standard": "mongodb://" + host + ":27017/?ssl=true"}
}

// clusterView answers in the shape of the negotiated version: the legacy
// shape (providerSettings.instanceSizeName) for v1.0 and 2023-01-01, the
// advanced shape (replicationSpecs[].regionConfigs) after.
func (c *call) clusterView(cl *Cluster) any {
	base := map[string]any{
		"id": cl.ID, "groupId": cl.GroupID, "name": cl.Name, "clusterType": clusterType(cl),
		"mongoDBVersion": cl.MongoDBVersion, "mongoDBMajorVersion": majorVersion(cl.MongoDBVersion),
		"stateName": cl.stateName(), "paused": cl.Paused, "backupEnabled": cl.BackupEnabled, "pitEnabled": cl.PitEnabled,
		"createDate": fmtTime(cl.Created), "connectionStrings": connStrings(cl), "versionReleaseSystem": "LTS",
		"terminationProtectionEnabled": false, "diskSizeGB": cl.DiskSizeGB, "rootCertType": "ISRGROOTX1",
	}
	shards := max(cl.Shards, 1)
	provider, backing := cl.Provider, ""
	if cl.Kind == KindTenant {
		provider, backing = "TENANT", cl.Provider
	}
	if c.op.Legacy || c.version.Date < "2023-02-01" {
		ps := map[string]any{"providerName": provider, "instanceSizeName": cl.InstanceSize, "regionName": cl.Region}
		if backing != "" {
			ps["backingProviderName"] = backing
		}
		base["providerSettings"] = ps
		base["numShards"] = shards
		base["replicationFactor"] = 3
		base["providerBackupEnabled"] = cl.BackupEnabled && cl.Kind != KindTenant
		base["mongoURI"] = connStrings(cl)["standard"]
		return base
	}
	region := map[string]any{
		"providerName": provider, "regionName": cl.Region, "priority": 7,
		"electableSpecs": map[string]any{"instanceSize": cl.InstanceSize, "nodeCount": 3, "diskSizeGB": cl.DiskSizeGB},
	}
	if backing != "" {
		region["backingProviderName"] = backing
	}
	if c.version.Date < "2024-08-05" {
		base["replicationSpecs"] = []any{map[string]any{"id": cl.ID, "numShards": shards, "zoneName": "Zone 1", "regionConfigs": []any{region}}}
		return base
	}
	specs := make([]any, shards)
	for i := range specs {
		specs[i] = map[string]any{"id": cl.ID, "zoneId": cl.ID, "zoneName": "Zone 1", "regionConfigs": []any{region}}
	}
	base["replicationSpecs"] = specs
	return base
}

func flexView(cl *Cluster) any {
	return map[string]any{
		"id": cl.ID, "groupId": cl.GroupID, "name": cl.Name, "clusterType": "REPLICASET",
		"mongoDBVersion": cl.MongoDBVersion, "stateName": "IDLE", "createDate": fmtTime(cl.Created),
		"connectionStrings": connStrings(cl), "versionReleaseSystem": "LTS", "terminationProtectionEnabled": false,
		"providerSettings": map[string]any{"providerName": "FLEX", "backingProviderName": cl.Provider, "regionName": cl.Region, "diskSizeGB": cl.DiskSizeGB},
		"backupSettings":   map[string]any{"enabled": true}, "tags": []any{},
	}
}

func serverlessView(cl *Cluster) any {
	return map[string]any{
		"id": cl.ID, "groupId": cl.GroupID, "name": cl.Name, "mongoDBVersion": cl.MongoDBVersion,
		"stateName": "IDLE", "createDate": fmtTime(cl.Created), "terminationProtectionEnabled": false,
		"connectionStrings":       map[string]any{"standardSrv": connStrings(cl)["standardSrv"]},
		"providerSettings":        map[string]any{"providerName": "SERVERLESS", "backingProviderName": cl.Provider, "regionName": cl.Region},
		"serverlessBackupOptions": map[string]any{"serverlessContinuousBackupEnabled": cl.BackupEnabled},
	}
}

func listClustersForAllProjects(c *call) (any, error) {
	var out list
	for _, p := range c.visibleProjects() {
		var cls []any
		for _, cl := range c.w.clustersOf(p.ID) {
			if cl.Kind == KindServerless || cl.Kind == KindFlex {
				continue
			}
			typ := "REPLICA_SET"
			if cl.Kind == KindSharded {
				typ = "SHARDED_CLUSTER"
			}
			alerts := 0
			for _, a := range c.w.Alerts {
				if a.GroupID == p.ID && a.ClusterName == cl.Name && a.Status == "OPEN" {
					alerts++
				}
			}
			nodes := 3 * max(cl.Shards, 1)
			cls = append(cls, map[string]any{
				"clusterId": cl.ID, "name": cl.Name, "type": typ, "availability": "available",
				"versions": []string{cl.MongoDBVersion}, "backupEnabled": cl.BackupEnabled, "authEnabled": true,
				"sslEnabled": true, "alertCount": alerts, "nodeCount": nodes, "dataSizeBytes": int64(cl.DiskSizeGB * 1e8),
			})
		}
		if cls == nil {
			cls = []any{}
		}
		out = append(out, map[string]any{
			"groupId": p.ID, "groupName": p.Name, "orgId": p.OrgID, "orgName": c.w.org(p.OrgID).Name,
			"planType": "Atlas", "tags": []any{}, "clusters": cls,
		})
	}
	return out, nil
}

func listAtlasProcesses(c *call) (any, error) {
	var out list
	for _, h := range c.w.Hosts {
		if h.GroupID == c.project.ID {
			out = append(out, c.processView(h))
		}
	}
	return out, nil
}

func (c *call) processView(h *Process) any {
	v := map[string]any{
		"id": h.ID, "groupId": h.GroupID, "hostname": h.Hostname, "port": h.Port, "typeName": h.TypeName,
		"userAlias": strings.SplitN(h.Hostname, ".", 2)[0] + "." + h.ClusterName + ".mongodb.net",
		"version":   h.Version, "created": fmtTime(h.Created), "lastPing": fmtTime(c.now.Add(-17e9)),
	}
	if h.ReplicaSetName != "" {
		v["replicaSetName"] = h.ReplicaSetName
	}
	if h.ShardName != "" {
		v["shardName"] = h.ShardName
	}
	return v
}
