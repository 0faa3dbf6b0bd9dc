package catalog

import "strconv"

// Area is the part of the API an operation belongs to. Each area is served
// by one typed service of the client (apiclient's area test holds the
// mapping), so an operation's area says which service may call it.
type Area int

const (
	AreaNone       Area = iota // unset: refused by the catalog's tests
	AreaProjects               // who am I, organizations, projects, service accounts
	AreaClusters               // clusters of every kind, processes, measurements, performance advisor
	AreaRateLimits             // the rate-limit endpoint sets
	AreaAccessLogs             // 4.1 access tracking
	AreaAlerts                 // 4.2 alert configurations, 4.3 alerts
	AreaSearch                 // 4.4 search indexes
	AreaSettings               // 4.5 auditing, custom DNS, 4.8 cloud provider access, private endpoints
	AreaBackups                // 4.6 cloud backups
	AreaMigration              // 4.7 cloud migration
)

// Areas lists every area an operation can have, in declaration order.
func Areas() []Area {
	return []Area{AreaProjects, AreaClusters, AreaRateLimits, AreaAccessLogs, AreaAlerts,
		AreaSearch, AreaSettings, AreaBackups, AreaMigration}
}

var areaNames = map[Area]string{
	AreaProjects:   "projects",
	AreaClusters:   "clusters",
	AreaRateLimits: "ratelimits",
	AreaAccessLogs: "accesslogs",
	AreaAlerts:     "alerts",
	AreaSearch:     "search",
	AreaSettings:   "settings",
	AreaBackups:    "backups",
	AreaMigration:  "migration",
}

// String is the area's lower-case name ("alerts", "ratelimits"); "none" for
// the zero value and "area(N)" for a value outside the list.
func (a Area) String() string {
	if a == AreaNone {
		return "none"
	}
	if s, ok := areaNames[a]; ok {
		return s
	}
	return "area(" + strconv.Itoa(int(a)) + ")"
}

// Known reports whether the area is one of Areas.
func (a Area) Known() bool { _, ok := areaNames[a]; return ok }
