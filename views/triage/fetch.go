package triage

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
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
)

// projectsResult is every project of every organization the caller sees.
type projectsResult struct {
	Projects []Project
}

func fetchProjects(ctx context.Context, c *apiclient.Client) (projectsResult, error) {
	orgs, err := c.Projects().AllOrgs(ctx)
	if err != nil {
		return projectsResult{}, fmt.Errorf("list organizations: %w", err)
	}
	var out projectsResult
	seen := map[string]bool{}
	for _, o := range orgs {
		ps, err := c.Projects().AllOrgProjects(ctx, o.ID)
		if err != nil {
			return projectsResult{}, fmt.Errorf("list projects of %s: %w", o.Name, err)
		}
		for _, p := range ps {
			if !seen[p.ID] {
				seen[p.ID] = true
				if g := c.Gate(); g != nil {
					g.SetProjectOrg(p.ID, o.ID) // so org roles count there
				}
				out.Projects = append(out.Projects, Project{OrgID: o.ID, OrgName: o.Name, ID: p.ID, Name: p.Name})
			}
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
	// Errs counts the reads that failed for another reason (the board
	// shows the project as partly covered).
	Errs int
	At   time.Time
}

// hidden reports an error that says the caller may not read there: a 403,
// or the client's own gate refusing before sending.
func hidden(err error) bool {
	var denied *apiclient.DeniedError
	return apiclient.IsForbidden(err) || errors.As(err, &denied)
}

func fetchAlerts(ctx context.Context, c *apiclient.Client, p Project, now func() time.Time) partResult {
	alerts, err := c.Alerts().ListAll(ctx, p.ID, apiclient.AlertOpen)
	r := partResult{GroupID: p.ID, At: now()}
	switch {
	case hidden(err):
		r.Hidden = true
	case err != nil:
		r.Errs++
	default:
		r.Items = AlertItems(p, alerts, r.At)
	}
	return r
}

// fetchRest reads a project's clusters and, for each dedicated cluster, its
// snapshots, restore jobs, export jobs and search indexes.
func fetchRest(ctx context.Context, c *apiclient.Client, p Project, now func() time.Time) partResult {
	r := partResult{GroupID: p.ID}
	cls, err := c.Projects().AllClusters(ctx, p.ID)
	if err != nil {
		r.Hidden, r.At = hidden(err), now()
		if !r.Hidden {
			r.Errs++
		}
		return r
	}
	t := now()
	for _, cl := range cls {
		r.Items = append(r.Items, ClusterItems(p, cl, t)...)
		if cl.Tenant() || cl.Paused {
			continue
		}
		snaps, err1 := c.Backups().AllSnapshots(ctx, p.ID, cl.Name)
		restores, err2 := c.Backups().AllRestoreJobs(ctx, p.ID, cl.Name)
		var exports []apiclient.ExportJob
		page, err3 := c.Backups().ExportJobs(ctx, p.ID, cl.Name, apiclient.ListOptions{})
		if page != nil {
			exports = page.Results
		}
		var ixs []apiclient.SearchIndex
		var err4 error
		if searchable(cl.MongoDBVersion) {
			ixs, err4 = c.Search().ListCluster(ctx, p.ID, cl.Name)
		}
		for _, e := range []error{err1, err2, err3, err4} {
			if e != nil {
				r.Errs++
			}
		}
		t = now()
		r.Items = append(r.Items, BackupItems(p, cl.Name, snaps, restores, exports, t)...)
		r.Items = append(r.Items, IndexItems(p, cl.Name, ixs, t)...)
	}
	r.At = now()
	return r
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
