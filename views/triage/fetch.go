package triage

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// The fan-out: every request goes through the client's scheduler as
// background work (views.Background), so it waits behind writes and what
// another pane shows. Alerts of every project go first; the rest follows
// once they are in. A round under way finishes while the board is hidden;
// the poll loop starts no new one until it is shown again.

// Requests of the board's results.
const (
	keyProjects = "projects"
	keyAlerts   = "alerts"
	keyRest     = "rest"
	keyAuth     = "auth"
)

// projectsResult is every project of every organization the caller sees
// (narrowed by the profile's triage_orgs and triage_projects).
type projectsResult struct {
	Projects []Project
	// Unmatched names the profile's entries that match nothing.
	Unmatched []string
}

// Scope is the profile's narrowing: organizations and projects by name
// or id (case-insensitive names); empty lists take everything.
type Scope struct{ Orgs, Projects []string }

func matches(list []string, id, name string) bool {
	if len(list) == 0 {
		return true
	}
	for _, s := range list {
		if s == id || strings.EqualFold(s, name) {
			return true
		}
	}
	return false
}

// fetchProjects lists the organizations the scope names (all when it
// names none), their projects, and keeps the projects the scope names.
// Organizations left out are not asked for their projects.
func fetchProjects(ctx context.Context, c *apiclient.Client, scope Scope) (projectsResult, error) {
	orgs, err := c.Projects().AllOrgs(ctx)
	if err != nil {
		return projectsResult{}, fmt.Errorf("list organizations: %w", err)
	}
	var out projectsResult
	used := map[string]bool{}
	seen := map[string]bool{}
	for _, o := range orgs {
		for _, n := range scope.Orgs {
			if matches([]string{n}, o.ID, o.Name) {
				used["o"+n] = true
			}
		}
		if !matches(scope.Orgs, o.ID, o.Name) {
			continue
		}
		ps, err := c.Projects().AllOrgProjects(ctx, o.ID)
		if err != nil {
			return projectsResult{}, fmt.Errorf("list projects of %s: %w", o.Name, err)
		}
		for _, p := range ps {
			for _, n := range scope.Projects {
				if matches([]string{n}, p.ID, p.Name) {
					used["p"+n] = true
				}
			}
			if seen[p.ID] || !matches(scope.Projects, p.ID, p.Name) {
				continue
			}
			seen[p.ID] = true
			if g := c.Gate(); g != nil {
				g.SetProjectOrg(p.ID, o.ID) // so org roles count there
			}
			out.Projects = append(out.Projects, Project{OrgID: o.ID, OrgName: o.Name, ID: p.ID, Name: p.Name})
		}
	}
	for _, n := range scope.Orgs {
		if !used["o"+n] {
			out.Unmatched = append(out.Unmatched, "triage_orgs "+strconv.Quote(n))
		}
	}
	for _, n := range scope.Projects {
		if !used["p"+n] {
			out.Unmatched = append(out.Unmatched, "triage_projects "+strconv.Quote(n))
		}
	}
	return out, nil
}

// partResult is one project's part of the board (its alerts, or the rest).
type partResult struct {
	GroupID string
	Items   []Item
	// Hidden: the caller's roles do not allow reading the project.
	Hidden bool
	// Errs counts the reads that failed for another reason, Err is the
	// first; Failed names what they covered ("" the whole part, else
	// "kind/cluster"), whose rows from the last good read stay, stale.
	Errs   int
	Err    error
	Failed map[string]bool
	// Capped (alerts): the list reached the client's row cap, so the rows
	// are its first apiclient.MaxRows; the coverage line says so.
	Capped bool
	// Wall is when the board took the answer, on the wall clock (the
	// header's freshness); kept with the rows when a read fails whole.
	// Copied: the answer is the last start's copy (apiclient.StartCopies),
	// and Wall the copy's time.
	Wall   time.Time
	Copied bool
	// Moving (the rest): something here is under way (a cluster changing,
	// a restore running, an index building, a migration not done), so the
	// board reads the project's rest again sooner.
	Moving bool
	// LogClusters (the rest) are the clusters that keep an access log:
	// not a shared tier, not paused.
	LogClusters []string
	// Denied (failed authentications) counts the clusters whose access
	// logs the caller's roles may not read: skipped.
	Denied int
	// Configs (alerts) are the project's alert configurations when this
	// read asked for them.
	Configs *alertConfigs
}

func (r *partResult) fail(scope string, err error) {
	if err == nil {
		return
	}
	r.Errs++
	if r.Err == nil {
		r.Err = err
	}
	if r.Failed == nil {
		r.Failed = map[string]bool{}
	}
	r.Failed[scope] = true
}

// hidden reports an error that says the caller may not read there: a 403,
// or the client's own gate refusing before sending.
func hidden(err error) bool {
	var denied *apiclient.DeniedError
	return apiclient.IsForbidden(err) || errors.As(err, &denied)
}

// configsEvery is how often a project's alert configurations are read
// again while nothing asks for them sooner: they change rarely, and an
// alert that names one the board has not seen has them read at once.
const configsEvery = 10 * time.Minute

// alertConfigs is what the board knows of one project's alert
// configurations: by id, when read (the client's clock), and the ids that
// alerts named then but the list did not hold (deleted since), not asked
// for again until the next read is due.
type alertConfigs struct {
	byID    map[string]apiclient.AlertConfig
	at      time.Time
	missing map[string]bool
}

// due reports whether the configurations must be read for these alerts
// at now: never read, read configsEvery ago, or an alert names one not
// seen.
func (k *alertConfigs) due(alerts []apiclient.Alert, now time.Time) bool {
	if k == nil || now.Sub(k.at) >= configsEvery {
		return true
	}
	for _, a := range alerts {
		if id := a.AlertConfigID; id != "" && !k.missing[id] {
			if _, ok := k.byID[id]; !ok {
				return true
			}
		}
	}
	return false
}

// fetchAlerts reads a project's open alerts and, when known is due (see
// alertConfigs.due), its alert configurations, whose severityOverride sets
// an alert's severity as the Alerts pane shows it (alertkit.Severity).
// Without the configurations the rows still show, by event type, and the
// part says the read failed. A read's configurations come back in the
// result (Configs) for the next call; known is only read.
func fetchAlerts(ctx context.Context, c *apiclient.Client, p Project, known *alertConfigs, now func() time.Time) partResult {
	alerts, err := c.Alerts().ListAll(ctx, p.ID, apiclient.AlertOpen)
	r, at := partResult{GroupID: p.ID}, now()
	switch {
	case hidden(err):
		r.Hidden = true
		return r
	case err != nil:
		r.fail("", err)
		return r
	}
	var configs map[string]apiclient.AlertConfig
	if known != nil {
		configs = known.byID
	}
	if len(alerts) > 0 && known.due(alerts, at) {
		cs, cerr := c.AlertConfigs().ListAll(ctx, p.ID)
		switch {
		case cerr != nil && !hidden(cerr):
			r.Errs++
			r.Err = fmt.Errorf("alert configurations (severity by event type): %w", cerr)
		default:
			// Read, or not readable by the caller's roles (not asked
			// again until the next is due).
			got := &alertConfigs{byID: make(map[string]apiclient.AlertConfig, len(cs)), at: at, missing: map[string]bool{}}
			for _, cfg := range cs {
				got.byID[cfg.ID] = cfg
			}
			for _, a := range alerts {
				if _, ok := got.byID[a.AlertConfigID]; !ok && a.AlertConfigID != "" {
					got.missing[a.AlertConfigID] = true
				}
			}
			configs, r.Configs = got.byID, got
		}
	}
	r.Items = AlertItems(p, alerts, configs, at)
	r.Capped = apiclient.ShowingFirst(len(alerts)) != ""
	return r
}

// fetchRest reads a project's clusters and, for each dedicated cluster, its
// snapshots, restore jobs, export jobs and search indexes; and the live
// migrations into the project this session knows (the API lists none).
func fetchRest(ctx context.Context, c *apiclient.Client, p Project, now func() time.Time) partResult {
	r := partResult{GroupID: p.ID}
	cls, err := c.Clusters().All(ctx, p.ID)
	if err != nil {
		r.Hidden = hidden(err)
		if !r.Hidden {
			r.fail("", err)
		}
		return r
	}
	t := now()
	for _, cl := range cls {
		r.Items = append(r.Items, ClusterItems(p, cl, t)...)
		if cl.Tenant() || cl.Paused {
			continue
		}
		r.Moving = r.Moving || (cl.StateName != "" && cl.StateName != apiclient.ClusterIdle)
		r.LogClusters = append(r.LogClusters, cl.Name)
		snaps, err1 := c.Backups().AllSnapshots(ctx, p.ID, cl.Name)
		restores, err2 := c.Backups().AllRestoreJobs(ctx, p.ID, cl.Name)
		exports, err3 := c.Backups().AllExportJobs(ctx, p.ID, cl.Name)
		var ixs []apiclient.SearchIndex
		var err4 error
		if searchable(cl.MongoDBVersion) {
			ixs, err4 = c.Search().ListCluster(ctx, p.ID, cl.Name)
		}
		for _, j := range restores {
			r.Moving = r.Moving || (!j.Failed && !j.Cancelled && !j.Expired && j.FinishedAt == nil)
		}
		for _, ix := range ixs {
			r.Moving = r.Moving || ix.Status == apiclient.IndexBuilding || ix.Status == apiclient.IndexPending
		}
		r.fail(string(KindSnapshot)+"/"+cl.Name, err1)
		r.fail(string(KindRestore)+"/"+cl.Name, err2)
		r.fail(string(KindExport)+"/"+cl.Name, err3)
		r.fail(string(KindIndex)+"/"+cl.Name, err4)
		t = now()
		r.Items = append(r.Items, BackupItems(p, cl.Name, snaps, restores, exports, t)...)
		r.Items = append(r.Items, IndexItems(p, cl.Name, ixs, t)...)
	}
	for _, km := range c.KnownMigrations(p.ID) {
		if km.Last.Done() {
			continue // complete, failed or expired: nothing moves there
		}
		r.Moving = true
		// Get refreshes what the client knows of it.
		if _, err := c.Migration().Get(ctx, p.ID, km.Last.ID); err != nil {
			r.fail(string(KindMigration)+"/"+km.Cluster, err)
		}
	}
	r.Items = append(r.Items, MigrationItems(p, c.KnownMigrations(p.ID), now())...)
	return r
}

// fetchAuth reads the failed authentications of the last
// AuthBurstLookback on each of a project's clusters whose access logs the
// caller may read (the gate says, before anything is sent; a 403 says the
// same), and lists the addresses with at least threshold of them within
// one minute. Clusters the roles do not allow are counted, not asked.
func fetchAuth(ctx context.Context, c *apiclient.Client, p Project, clusters []string, threshold int, now func() time.Time) partResult {
	r := partResult{GroupID: p.ID}
	failures := false
	max := apiclient.MaxAccessLogs
	for _, name := range clusters {
		if g := c.Gate(); g != nil {
			if ok, _ := g.Allowed("listAccessLogsByClusterName", p.ID); !ok {
				r.Denied++
				continue
			}
		}
		end := now()
		start := end.Add(-AuthBurstLookback)
		logs, err := c.AccessLogs().ByCluster(ctx, p.ID, name, apiclient.AccessLogsOptions{
			AuthResult: &failures, Start: &start, End: &end, NLogs: &max})
		switch {
		case hidden(err):
			r.Denied++
			continue
		case err != nil:
			r.fail(string(KindAuthBurst)+"/"+name, err)
			continue
		}
		r.Items = append(r.Items, AuthBurstItems(p, name, logs, threshold, end)...)
	}
	return r
}

// keep carries over, marked stale, the rows of the last good read that a
// failed read of the same scope would otherwise drop.
func keep(next, prev partResult) partResult {
	if next.Hidden || len(next.Failed) == 0 || len(prev.Items) == 0 {
		return next
	}
	if next.Failed[""] {
		items := make([]Item, len(prev.Items))
		for i, it := range prev.Items {
			it.Stale = true
			items[i] = it
		}
		prev.Items, prev.Errs, prev.Err, prev.Failed = items, next.Errs, next.Err, next.Failed
		return prev // Wall stays the last good read's: the header's age
	}
	for _, it := range prev.Items {
		if next.Failed[string(it.Kind)+"/"+it.Cluster] {
			it.Stale = true
			next.Items = append(next.Items, it)
		}
	}
	return next
}

// clockOf is the context's clock (Context.Now) as a function that holds
// only the clock: the method value p.Ctx.Now would hold a copy of the
// whole context (tens of kilobytes, its theme's styles) for every request
// in flight, a thousand of them each round at 1,000 projects.
func clockOf(ctx views.Context) func() time.Time {
	if c := ctx.Clock; c != nil {
		return c
	}
	return time.Now
}

// searchable reports whether a cluster's version has search indexes (4.2
// and later); older ones answer 400, so the board does not ask.
func searchable(version string) bool {
	var major, minor int
	if _, err := fmt.Sscanf(version, "%d.%d", &major, &minor); err != nil {
		return true
	}
	return major > 4 || (major == 4 && minor >= 2)
}
