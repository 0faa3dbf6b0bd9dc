package apisim

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/icholy/digest"
)

// BenchmarkBoardReads is the server's side of a Triage board: one
// project's reads (open alerts, alert configurations, clusters, and per
// cluster snapshots, restore jobs, export jobs, search indexes: 11
// requests) in a world of 100 projects, of 1,000 and of 5,000 (20
// organizations),
// digest-signed over an in-process server, figures per request:
//
//	go test ./apisim/ -run '^$' -bench BoardReads -benchtime 200x
func BenchmarkBoardReads(b *testing.B) {
	for _, size := range []struct{ projects, orgs int }{{100, 1}, {1000, 5}, {5000, 20}} {
		b.Run(fmt.Sprintf("%d-projects", size.projects), func(b *testing.B) {
			s, err := New(Options{Clock: NewManualClock(testStart), Projects: size.projects, Orgs: size.orgs, RateLimitPerMin: unlimited})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			ts := httptest.NewServer(s.Handler())
			defer ts.Close()
			c := &http.Client{Transport: &digest.Transport{Username: "org-owner", Password: "org-owner-secret"}}
			get := func(path string) {
				req, _ := http.NewRequest("GET", ts.URL+"/api/atlas/v2"+path, nil)
				version := "2023-01-01"
				if strings.HasSuffix(path, "/search/indexes") {
					version = "2024-05-30"
				}
				req.Header.Set("Accept", "application/vnd.atlas."+version+"+json")
				res, err := c.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != http.StatusOK && res.StatusCode != http.StatusBadRequest && res.StatusCode != http.StatusNotFound {
					b.Fatalf("%s: %d", path, res.StatusCode)
				}
			}
			info := s.World()
			type proj struct {
				id       string
				clusters []string
			}
			var ps []proj
			for name, id := range info.Projects {
				p := proj{id: id}
				for key := range info.Clusters {
					if pn, cn, _ := strings.Cut(key, "/"); pn == name {
						p.clusters = append(p.clusters, cn)
					}
				}
				ps = append(ps, p)
			}
			requests := 0
			b.ResetTimer()
			for i := range b.N {
				p := ps[i%len(ps)]
				g := "/groups/" + p.id
				get(g + "/alerts?status=OPEN&itemsPerPage=500")
				get(g + "/alertConfigs?itemsPerPage=500")
				get(g + "/clusters?itemsPerPage=500")
				requests += 3
				for _, cl := range p.clusters {
					get(g + "/clusters/" + cl + "/backup/snapshots?itemsPerPage=500")
					get(g + "/clusters/" + cl + "/backup/restoreJobs?itemsPerPage=500")
					get(g + "/clusters/" + cl + "/backup/exports?itemsPerPage=500")
					get(g + "/clusters/" + cl + "/search/indexes")
					requests += 4
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(requests), "µs/request")
		})
	}
}
