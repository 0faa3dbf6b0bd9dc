package apiclient

// BackupsService covers cloud backups: snapshots (replica set, sharded,
// tenant, serverless, flex), restore jobs, the schedule, export buckets and
// jobs, and the compliance policy. Its types and methods are split by
// resource: backups_snapshots.go, backups_restores.go, backups_exports.go,
// backups_buckets.go, backups_schedule.go, backups_compliance.go and
// backups_serverless.go (serverless and flex backups).
type BackupsService struct{ c *Client }

// Backups is the cloud backup service.
func (c *Client) Backups() BackupsService { return BackupsService{c} }
