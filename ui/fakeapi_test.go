package ui

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
)

// fakeAPI is a small Administration API with fixed data, built from the
// catalog's routes, that counts every request that would change something.
type fakeAPI struct {
	srv       *httptest.Server
	roles     []catalog.Assignment
	orgs      []org
	projects  []project
	clusters  map[string][]cluster
	alerts    map[string][]map[string]any
	mutations atomic.Int64
	// down answers every read 503, as an outage does.
	down atomic.Bool
	// limited answers every read 429 with Retry-After: 20.
	limited atomic.Bool
	// shared answers the alert reads with a bucket of 600 a minute in
	// which 100 remain however few requests the client makes: another
	// client spends the rest.
	shared  atomic.Bool
	mu      sync.Mutex
	mutated []string
	// orgHeld, when set, holds every read of an organization until it is
	// closed.
	orgHeld chan struct{}
	reads   map[string]int // answered reads by operation (under mu)
}

// readsOf is how many reads of op the fake has answered.
func (f *fakeAPI) readsOf(op string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.reads[op]
}

const (
	fakeOrg      = "5f0000000000000000000001"
	fakePayments = "6a0000000000000000000001"
	fakeSearch   = "6a0000000000000000000002"
)

func newFakeAPI(t testing.TB, roles ...catalog.Assignment) *fakeAPI {
	f := &fakeAPI{
		roles:    roles,
		orgs:     []org{{ID: fakeOrg, Name: "Acme Corp"}},
		projects: []project{{ID: fakePayments, Name: "payments", OrgID: fakeOrg}, {ID: fakeSearch, Name: "search-prod", OrgID: fakeOrg}},
		clusters: map[string][]cluster{
			fakePayments: {{Name: "pay-main", ClusterType: "REPLICASET", MongoDBVersion: "7.0.12", StateName: "IDLE"},
				{Name: "pay-analytics", ClusterType: "SHARDED", MongoDBVersion: "8.0.1", StateName: "UPDATING"}},
			fakeSearch: {{Name: "search-1", ClusterType: "REPLICASET", MongoDBVersion: "8.0.1", StateName: "IDLE"}},
		},
		alerts: map[string][]map[string]any{
			fakePayments: {
				{"id": "a10000000000000000000001", "eventTypeName": "OUTSIDE_METRIC_THRESHOLD", "status": "OPEN", "clusterName": "pay-main", "created": "2025-03-01T10:00:00Z"},
				{"id": "a10000000000000000000002", "eventTypeName": "REPLICATION_OPLOG_WINDOW_RUNNING_OUT", "status": "OPEN", "clusterName": "pay-main", "created": "2025-03-01T11:00:00Z"},
				{"id": "a10000000000000000000003", "eventTypeName": "HOST_DOWN", "status": "TRACKING", "clusterName": "pay-analytics", "created": "2025-03-02T08:30:00Z"},
				{"id": "a10000000000000000000004", "eventTypeName": "CLUSTER_MONGOS_IS_MISSING", "status": "CLOSED", "clusterName": "pay-analytics", "created": "2025-03-03T09:15:00Z"},
			},
		},
	}
	mux := http.NewServeMux()
	for _, op := range catalog.All() {
		op := op
		mux.HandleFunc(op.Pattern("atlas"), func(w http.ResponseWriter, r *http.Request) { f.serve(op, w, r) })
	}
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeAPI) serve(op catalog.Op, w http.ResponseWriter, r *http.Request) {
	if op.Mutates() {
		f.mutations.Add(1)
		f.mu.Lock()
		f.mutated = append(f.mutated, op.ID)
		f.mu.Unlock()
		w.WriteHeader(op.OK)
		if op.OK != http.StatusNoContent {
			_, _ = w.Write([]byte("{}"))
		}
		return
	}
	f.mu.Lock()
	if f.reads == nil {
		f.reads = map[string]int{}
	}
	f.reads[op.ID]++
	f.mu.Unlock()
	if f.down.Load() && op.ID != "getSystemStatus" {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(`{"error":503,"errorCode":"SERVICE_UNAVAILABLE","reason":"Service Unavailable","detail":"down"}`))
		return
	}
	if f.limited.Load() && op.ID != "getSystemStatus" {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "20")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte(`{"error":429,"errorCode":"RATE_LIMITED_TOKEN_BUCKET","reason":"Too Many Requests"}`))
		return
	}
	var body any
	page := func(items any, n int) any { return map[string]any{"results": items, "totalCount": n} }
	switch op.ID {
	case "getSystemStatus":
		body = map[string]any{"appName": "fake", "apiKey": map[string]any{"publicKey": "test", "roles": f.roles}}
	case "listOrganizations":
		body = page(f.orgs, len(f.orgs))
	case "listProjects":
		body = page(f.projects, len(f.projects))
	case "getProject", "getOrganization":
		if op.ID == "getOrganization" && f.orgHeld != nil {
			<-f.orgHeld
		}
		for _, p := range f.projects {
			if p.ID == r.PathValue("groupId") {
				body = p
			}
		}
		for _, o := range f.orgs {
			if o.ID == r.PathValue("orgId") {
				body = o
			}
		}
		if body == nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"error":404,"errorCode":"RESOURCE_NOT_FOUND","reason":"Not Found"}`))
			return
		}
	case "listClusters":
		cs := f.clusters[r.PathValue("groupId")]
		body = page(cs, len(cs))
	case "listAlerts":
		as := f.alerts[r.PathValue("groupId")]
		if as == nil {
			as = []map[string]any{}
		}
		body = page(as, len(as))
		if f.shared.Load() {
			w.Header().Set("RateLimit-Limit", "600")
			w.Header().Set("RateLimit-Remaining", "100")
		}
	default:
		if op.Paged {
			body = page([]any{}, 0)
		} else {
			body = map[string]any{}
		}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(body)
}

// client is an API client for the fake with a gate, as main builds it.
func (f *fakeAPI) client(t testing.TB) *apiclient.Client { return clientAt(t, f.srv.URL) }

// clientAt is a client of the API at url that does not retry a failed
// request.
func clientAt(t testing.TB, url string) *apiclient.Client {
	c, err := apiclient.New(apiclient.Options{BaseURL: url, Gate: apiclient.NewGate(nil), MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func orgOwner() catalog.Assignment {
	return catalog.Assignment{RoleName: catalog.OrgOwner, OrgID: fakeOrg}
}

func projectReadOnly() []catalog.Assignment {
	return []catalog.Assignment{
		{RoleName: catalog.GroupReadOnly, GroupID: fakePayments},
		{RoleName: catalog.GroupReadOnly, GroupID: fakeSearch},
		{RoleName: catalog.OrgMember, OrgID: fakeOrg},
	}
}
