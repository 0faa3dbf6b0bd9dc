package settings

import (
	"fmt"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// benchPane is a loaded pane with n AWS roles, half of them used by an
// export bucket, rendered wide at 200x50 with the cursor at the bottom.
func benchPane(n int) *Pane {
	p := New(views.Context{Theme: themes.Resolve("dark", false, true), Keys: views.Registry{Registration}.Keymap(),
		GroupID: "65a0c0ffee0000000000b001", ProjectName: "payments", Layout: views.LayoutWide}).(*Pane)
	p.SetSize(200, 50)
	created := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	roles := &apiclient.AccessRoles{}
	for i := range n {
		r := apiclient.AccessRole{ProviderName: apiclient.ProviderAWS, RoleID: fmt.Sprintf("%024x", i), CreatedDate: &created,
			AtlasAWSAccountARN: "arn:aws:iam::012345678901:root", AtlasAssumedRoleExternalID: fmt.Sprintf("ext-%d", i)}
		if i%2 == 0 {
			r.AuthorizedDate = &created
			r.FeatureUsage = []apiclient.FeatureUsage{{FeatureType: "EXPORT_SNAPSHOT", FeatureID: []byte(fmt.Sprintf(`{"bucketName":"bucket-%d"}`, i))}}
		}
		roles.AWSIAMRoles = append(roles.AWSIAMRoles, r)
	}
	p.snap = snapshot{Audit: &apiclient.AuditLog{Enabled: true, AuditFilter: `{"atype":"authenticate"}`, ConfigurationType: apiclient.AuditFilterJSON},
		DNS: &apiclient.AWSCustomDNS{Enabled: true}, Roles: roles}
	p.loaded = true
	p.cursor = len(p.rows()) - 1
	return p
}

// BenchmarkViewWide is the settings pane's View at 10 and 1,000 roles:
// the pane alone, without the root's header, tabs, footer and stacking
// (ui's BenchmarkFrame100k is a whole frame) or Bubble Tea's renderer.
func BenchmarkViewWide(b *testing.B) {
	for _, n := range []int{10, 1000} {
		b.Run(fmt.Sprintf("roles=%d", n), func(b *testing.B) {
			p := benchPane(n)
			b.ReportAllocs()
			for b.Loop() {
				_ = p.View()
			}
		})
	}
}
