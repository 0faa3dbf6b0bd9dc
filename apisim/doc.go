// Package apisim is a local Administration API server: every operation of
// apiclient/catalog served over HTTP against a seeded, moving demo world, so
// the dashboard runs, demos and is tested without a cloud account.
//
// # Routes
//
// Each catalog operation is registered from Op.Pattern: the v2 operations
// under /api/{service}/v2 and the legacy ones under /api/{service}/v1.0.
// The v1.0 surface is catalog.V1: a copy of every v2 operation that exists
// under v1.0 (orgs, projects, clusters and the nine areas), derived from the
// v2 entry (same roles, limits, paging and world; the handler answers the
// oldest, legacy shape) so the two cannot drift. A v1.0 body carries links:
// self on objects and on each listed item, self/previous/next on lists.
// Unknown paths answer 404 and known paths with another method 405 (with
// Allow), both with the error body. Also served:
//
//	POST /api/oauth/token    client credentials (Basic auth, grant_type=client_credentials)
//	POST /api/oauth/revoke   form token=...
//	/api/{service}/sim/...   the control API (see below)
//
// # Requests
//
// A v2 call must send Accept: application/vnd.{service}.{YYYY-MM-DD}+json;
// the date resolves to the newest version of the operation on or before it
// (so the operation's own dates and 2025-03-12 both work). A missing,
// malformed or too-old date is 406 INVALID_VERSION. A version with a sunset
// date is answered with Deprecation and Sunset headers until that date (by
// the server clock) and 410 VERSION_GONE after it; a v1.0 copy of an
// operation whose every version is sunset is 410 too. v1.0 speaks
// application/json and adds links to its bodies. A body must be
// application/json or the vendor type (415 otherwise), at most 1 MiB (413),
// and valid, strictly typed JSON (400 MALFORMED_JSON, INVALID_ATTRIBUTE or
// VALIDATION_ERROR naming the field). Path ids are checked against the
// spec's patterns (400), then looked up (404). envelope, pretty,
// includeCount, itemsPerPage (1..500) and pageNum (>= 1) behave as the spec
// says; bad values are 400 VALIDATION_ERROR naming the parameter.
//
// Errors are {detail, error, errorCode, reason, parameters} plus
// badRequestDetail.fields for validation errors, as application/json.
// Codes used: CREDENTIALS_REQUIRED, INVALID_CREDENTIALS, STALE_NONCE,
// NONCE_REPLAYED, TOKEN_EXPIRED, INVALID_TOKEN (401); USER_UNAUTHORIZED
// (403, naming the roles that would allow the call); RESOURCE_NOT_FOUND,
// GROUP_NOT_FOUND, CLUSTER_NOT_FOUND, ALERT_NOT_FOUND, ... (404);
// METHOD_NOT_ALLOWED (405); INVALID_VERSION (406); VERSION_GONE (410);
// RATE_LIMITED (429, with Retry-After); UNEXPECTED_ERROR and
// SERVICE_UNAVAILABLE (injected 500/503).
//
// # Authentication
//
// API keys use HTTP Digest (RFC 7616, qop=auth). The one challenge is
// exactly, as the service sends it,
//
//	Digest realm="MMS Public API", domain="", nonce="…", algorithm=MD5, qop="auth", stale=false
//
// or the same with algorithm=SHA-256 when started with DigestSHA256
// (dbadmin-sim -digest-sha256); only the offered algorithm is accepted. A nonce lives five minutes
// of server time and may be reused with increasing nonce counts; a count is
// accepted once (replays are 401), out-of-order counts within a window are
// accepted so one client may share a challenge across goroutines. An
// expired or unknown nonce with a correct response is answered stale=true.
// Service accounts get one-hour Bearer tokens from /api/oauth/token.
// Every call is checked with catalog.Authorize; a service account's
// who-am-I (GET /api/{service}/v2) has apiKey null, as on the real service.
//
// # Identities
//
// DemoIdentities are built in (public key, private key "<public>-secret"):
// org-owner, project-owner, read-only, backup-manager, monitoring-admin,
// data-access-admin (API keys) and demo-sa (service account). Their secrets
// are public, so Start refuses non-loopback addresses while they are in use.
// Options.Identities (dbadmin-sim --keys FILE) replaces them; the file is a
// JSON array:
//
//	[{"name": "ci", "publicKey": "abcdefgh", "privateKey": "…", "kind": "apiKey",
//	  "roles": [{"roleName": "GROUP_READ_ONLY", "groupId": "65a0c0ffee0000000000b001"},
//	            {"roleName": "ORG_MEMBER", "orgId": "65a0c0ffee00000000000001"}]}]
//
// kind is "apiKey" or "serviceAccount"; org roles take orgId, project roles
// groupId. The demo org and project ids are fixed (DemoOrgID, ...).
//
// The one deliberate difference from the service: the demo identities keep
// memorable key names (org-owner, demo-sa) where the service issues
// generated public keys and client ids. Where an answer names the user
// behind a key (an alert's acknowledgingUsername, a compliance policy's
// updatedUser) it is an email, as the schema says: the key name at
// demo.example (org-owner@demo.example; a name with an @ is kept).
//
// # Values
//
// Every value follows the service's published schema for its operation
// (checked after every test run by schema_test.go): enums (process
// typeName, an alert reading's currentValue.units, a snapshot's
// frequencyType, absent for an on-demand snapshot), formats (emails, UUIDs
// for external and Azure ids, which the create also demands), patterns
// (the org name has no spaces, GCP service accounts
// mongodb-atlas-...@p-....iam.gserviceaccount.com, AWS endpoint service
// names), and absence instead of null for what is not known yet
// (finishedAt, failureReason, authorizedDate, errorMessage,
// cloudProviderEndpointId, lagTimeSeconds). Alerts are raised only for
// event types the service alerts on; the other event families of the spec
// (AUTO_HEALING_*, STEP_SKIPPED, ...) occur as incidents that no seeded
// configuration watches.
//
// # World and time
//
// The seed fixes the world: one org, projects payments, analytics and
// staging, clusters of every kind (tenant M0/M2/M5, replica sets, a sharded
// cluster, serverless, flex) on MongoDB 3.6 to 8.0, their hosts, over 170
// alerts in payments, alert configurations, snapshots, restore and export
// jobs, export buckets, search indexes, access roles, auditing, custom DNS,
// live migrations and source projects. Incidents of the spec's event
// families fire every 8-25 minutes of server time (and on demand), open an
// alert for each enabled configuration whose event type and matchers fit,
// notify each target after delayMin and every intervalMin until the alert
// is acknowledged or closed (webhooks are POSTed, to loopback only), and
// close their alerts with resolved set when they clear. Things move with the Clock, never
// with request counts: snapshots queued -> inProgress -> completed, restores
// finish (downloads gain a deliveryUrl; a restore may target the
// snapshot's own cluster, rolling it back in place, as the service allows;
// deleteAllBackupSchedules under a compliance policy is 400
// BACKUP_POLICIES_NOT_MEETING_BACKUP_COMPLIANCE_POLICY_REQUIREMENTS),
// indexes PENDING -> BUILDING ->
// READY, migrations NEW -> WORKING -> readyForCutover -> COMPLETE after the
// cutover, validations PENDING -> SUCCESS. Options.Speed scales the real
// clock; tests pass a ManualClock.
//
// # Live migration
//
// A link token links the source organization: without one
// availableProjects is an empty (bare) array and every check fails; a new
// token replaces the old one; deleting it is 204 even while a migration
// runs (the service documents no refusal; the migration goes on). Both
// request versions are accepted (2024-05-30 with dropDestinationData,
// 2023-01-01 with dropEnabled); migrationHosts must hold exactly one host,
// with or without a port (vm001.example.com, the spec's example; 400
// otherwise); a registered host named without its port passes the check.
//
// A validation is PENDING for 10 s, then SUCCESS, or FAILED with the first
// failed check as errorMessage. The check (migration_checks.go) is a
// function of the request, so each failure is reachable on purpose with
// the seeded source project on-prem-billing:
//
//	billing-rs -> payments-prod   passes (the demo migration)
//	warehouse-rs (3 TiB)          disk space
//	ledger-old (5.0.26)           database version (source needs 6.0.13+)
//	billing-rs -> payments-legacy database version (destination older)
//	hr-x509                       SCRAM-SHA only (it uses X.509)
//	managedAuthentication false   credentials: only mig-user / mig-user-secret
//	ssl not matching tlsEnabled   TLS
//	a host not in the project's migrationHosts   the one migration host
//	billing-rs -> payments-rs     destination busy (the seeded migration)
//	sharding into a replica set   sharding needs a sharded destination
//
// A migration is NEW for 10 s, then WORKING: initial sync for 1 minute per
// 4 GiB of source data (2 min to 6 h), then oplog catch-up for half that (1
// min to 1 h), lagTimeSeconds falling from the sync's length in seconds to
// a quarter of it and then to about 2; then readyForCutover with a lag of
// 1-3 s. billing-rs (48 GiB) is ready 18 min 10 s of server time after it
// starts: under two minutes at the dashboard's default --demo-speed 10. A
// cut-over before readiness is 400 MIGRATION_NOT_READY_FOR_CUTOVER; after
// it the job is WORKING (not ready, lag 0) for 30 s, then COMPLETE.
// Without a cut-over 120 h after readiness it is EXPIRED. A migration
// whose request fails the check goes FAILED after NEW.
//
// Two fields of the job are simulator extensions, not in the published
// schema: "phase" (STARTING, INITIAL_SYNC, OPLOG_CATCH_UP,
// READY_FOR_CUTOVER, CUTTING_OVER, COMPLETE, FAILED, EXPIRED) and
// "skippedTimeSeriesCollections" (the source's time-series collections,
// which a 6.0+ source does not migrate).
//
// # Control API
//
// For tests and demos, authenticated like the API and restricted to
// Organization Owners:
//
//	GET  /api/{service}/sim/clock                 {"now": "..."}
//	POST /api/{service}/sim/clock/advance?d=30s   jump the clock forward
//	POST /api/{service}/sim/incidents             {"groupId","eventTypeName","clusterName","hostnameAndPort",
//	                                              "attributes","resolveAfter"}: raise an incident (201 {incident, alerts})
//	GET  /api/{service}/sim/incidents             the incidents so far
//	POST /api/{service}/sim/incidents/{id}/resolve clear one: its alerts close with resolved set
//	PUT  /api/{service}/sim/incidents/schedule    {"enabled": false} stops the clock's incidents
//	GET  /api/{service}/sim/notifications         the notification log (?alertId=, ?groupId=)
//	GET  /api/{service}/sim/requests              {"requests":[{time,method,path,identity,status,durationMs}]}
//	PUT  /api/{service}/sim/faults                {"faultRate","malformedRate","malformedWrites","failWrites"}: rates at
//	                                              run time; the next malformedWrites write answers lost (a
//	                                              body truncated; a 202/204 dropped with the connection: status 0
//	                                              in /requests), the next failWrites writes refused (503) before applying
//
// # Faults and persistence
//
// Latency delays every API call; FaultRate answers a share of calls with
// 500/503; MalformedRate truncates a share of successful bodies;
// rate limits are token buckets per endpoint set and scope (organization,
// project, user or IP address) on the server clock, as the service keeps
// them: every operation belongs to one set (ratelimit.go); a request takes
// a token or is answered 429 RATE_LIMITED_TOKEN_BUCKET with Retry-After and
// parameters [path, retryAfterSec, capacity, refillRate, refillSec].
// RateLimit-Limit and RateLimit-Remaining are always sent, and the sets are
// published at GET /rateLimits and /rateLimits/{endpointSetId}. The default
// sets carry the service's one documented bucket and conservative values
// elsewhere (ratelimit.go says which); RateLimitPerMin gives every set that many tokens a
// minute per scope, and RateLimits sets single sets (--rate-limit
// alertsRead_group=100/min).
// StateFile is loaded at start (a corrupt file is refused and left alone),
// saved shortly after each change and on Close, atomically and 0600, with
// the clock's reading: the server's own clock resumes from it at the next
// start (a Clock passed in Options is left alone).
package apisim
