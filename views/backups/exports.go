// Export jobs and export buckets.

package backups

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

func (p *Pane) askExport() tea.Cmd {
	s, _ := p.selectedSnap() // refusal made sure there is one, completed, and a bucket
	var names []string
	for _, b := range p.data.Buckets {
		names = append(names, components.Sanitize(b.BucketName)+" ("+string(b.CloudProvider)+")")
	}
	p.form(formExport, "Export snapshot "+short(s.ID), []components.Field{
		{Key: "bucket", Label: "Bucket", Kind: components.FieldChoice, Choices: names},
		{Key: "label", Label: "Label (key=value, optional)", Placeholder: "ticket=OPS-1", Validate: func(v string, _ components.FormValues) error {
			if v = strings.TrimSpace(v); v != "" && !strings.Contains(v, "=") {
				return errors.New("write the label as key=value")
			}
			return nil
		}},
	}, views.ActionMsg{Name: keysOf(p.Ctx.Keys).Export.Name, Target: s.ID})
	return nil
}

func (p *Pane) export(msg views.ActionMsg) tea.Cmd {
	var bucket apiclient.ExportBucket
	for _, b := range p.data.Buckets {
		if components.Sanitize(b.BucketName)+" ("+string(b.CloudProvider)+")" == msg.Values["bucket"] {
			bucket = b
		}
	}
	req := apiclient.ExportJobRequest{SnapshotID: msg.Target, ExportBucketID: bucket.ID}
	if k, v, ok := strings.Cut(strings.TrimSpace(msg.Values["label"]), "="); ok {
		req.CustomData = []apiclient.Label{{Key: strings.TrimSpace(k), Value: strings.TrimSpace(v)}}
	}
	client, gid, cl := p.Ctx.Client, p.Ctx.GroupID, *p.cluster
	made := func(j *apiclient.ExportJob) writeResult {
		label := "export of " + short(req.SnapshotID) + " to " + bucket.BucketName
		return writeResult{Done: label + " " + string(j.State), Watch: &watch{Kind: "export", ID: j.ID, Cluster: cl, Label: label}}
	}
	b := client.Backups()
	return createVerified(p, msg.Form, "exporting snapshot "+short(msg.Target),
		func(ctx context.Context) (*apiclient.ExportJob, error) {
			return b.CreateExportJob(ctx, gid, cl.Name, req)
		},
		func(ctx context.Context, sent time.Time) (*apiclient.ExportJob, bool, error) {
			return b.VerifyCreateExportJob(ctx, gid, cl.Name, req, sent)
		}, made)
}

func (p *Pane) askBucket() tea.Cmd {
	p.form(formBucket, "New export bucket", []components.Field{
		{Key: "name", Label: "Bucket name", CharLimit: 63, Validate: func(v string, all components.FormValues) error {
			if n := len([]rune(strings.TrimSpace(v))); (n < 3 || n > 63) && all["provider"] != "AZURE" {
				return fmt.Errorf("3 to 63 characters, got %d", n)
			}
			return nil
		}},
		{Key: "provider", Label: "Cloud provider", Kind: components.FieldChoice, Choices: []string{"AWS", "AZURE", "GCP"}},
		{Key: "role", Label: "Access role id", Hint: "an authorized cloud provider access role (Settings pane)", Validate: func(v string, _ components.FormValues) error {
			if len(strings.TrimSpace(v)) != 24 {
				return errors.New("a 24-character role id")
			}
			return nil
		}},
		{Key: "serviceUrl", Label: "Service URL (AZURE only)"},
	}, views.ActionMsg{Name: actNewBucket})
	return nil
}

func (p *Pane) createBucket(msg views.ActionMsg) tea.Cmd {
	v := msg.Values
	b := apiclient.ExportBucket{BucketName: strings.TrimSpace(v["name"]), CloudProvider: apiclient.CloudProvider(v["provider"])}
	role := strings.TrimSpace(v["role"])
	if b.CloudProvider == apiclient.ProviderAWS {
		b.IAMRoleID = role
	} else {
		b.RoleID = role
		b.ServiceURL = strings.TrimSpace(v["serviceUrl"])
	}
	client, gid := p.Ctx.Client, p.Ctx.GroupID
	return p.write(msg.Form, "creating bucket "+b.BucketName, func(ctx context.Context) (writeResult, error) {
		nb, err := client.Backups().CreateExportBucket(ctx, gid, b)
		if err != nil {
			return writeResult{}, err
		}
		return writeResult{Done: "export bucket " + nb.BucketName + " registered"}, nil
	})
}

func (p *Pane) askDeleteBucket() tea.Cmd {
	id := p.buckets.SelectedID()
	for _, b := range p.data.Buckets {
		if b.ID == id {
			p.Confirm(views.ConfirmMsg{Title: "Delete export bucket " + components.Sanitize(b.BucketName) + "?",
				Body:          "The bucket is no longer offered for exports; objects already in it stay. Automatic export must be off on every cluster using it.",
				TypeToConfirm: b.BucketName, Action: views.ActionMsg{Name: keysOf(p.Ctx.Keys).Delete.Name, Target: b.ID}})
			return nil
		}
	}
	p.refuse("delete bucket: select a bucket first")
	return nil
}

func (p *Pane) deleteBucket(id string) tea.Cmd {
	client, gid := p.Ctx.Client, p.Ctx.GroupID
	return p.write("", "deleting bucket", func(ctx context.Context) (writeResult, error) {
		if err := client.Backups().DeleteExportBucket(ctx, gid, id); err != nil {
			return writeResult{}, err
		}
		return writeResult{Done: "export bucket deleted"}, nil
	})
}
