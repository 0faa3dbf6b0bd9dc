package settings

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// Action names, as the keymap spells them.
const (
	actAuditing    = "settings.auditing"
	actEditFilter  = "settings.editFilter"
	actCustomDNS   = "settings.customDNS"
	actNewRole     = "settings.newRole"
	actAuthorize   = "settings.authorize"
	actDeauthorize = "settings.deauthorize"
	actNextSection = "settings.nextSection"
	actPrevSection = "settings.prevSection"
	actViewAudit   = "settings.viewAuditing"
	actViewDNS     = "settings.viewDNS"
	actViewRoles   = "settings.viewRoles"
)

// auditChange is what an auditing confirmation turns on or off: its
// Payload.
type auditChange int

const (
	auditOn auditChange = iota + 1
	auditOff
	authOn
	authOff
)

// filterDoc is the audit filter a save confirmation sends (compact JSON).
type filterDoc struct{ Text string }

// dnsChange is what a custom DNS confirmation turns custom DNS to.
type dnsChange struct{ On bool }

// roleRef is the access role a deauthorize confirmation removes.
type roleRef struct {
	Provider apiclient.CloudProvider
	ID       string
}

// perfWarning is shown before auditAuthorizationSuccess is turned on.
const perfWarning = "Auditing successful authorizations degrades cluster performance: every authorized " +
	"operation the filter matches (authCheck events) is written to the audit log, not only the failures."

// dnsNote explains what custom DNS changes for the people who connect.
const dnsNote = "With custom DNS on, AWS clusters in this project use your DNS; over VPC peering, " +
	"connect with the private-IP connection strings."

// steps are the actions that ask first: a first press asks (or opens the
// editor or a form); the confirmed one sends what the dialog carries.
func (p *Pane) steps() map[string]views.Step {
	return map[string]views.Step{
		actAuditing: {Ask: p.askAuditing, Do: func(m views.ActionMsg) tea.Cmd {
			c, ok := m.Payload.(auditChange)
			if !ok {
				return p.refuse("auditing: the confirmation named no change; nothing sent")
			}
			return p.sendAuditing(c)
		}},
		actEditFilter: {Ask: p.edit, Do: func(m views.ActionMsg) tea.Cmd {
			d, ok := m.Payload.(filterDoc)
			if !ok {
				return p.refuse("audit filter: the confirmation carried no filter; nothing sent")
			}
			return p.sendFilter(d.Text)
		}},
		actCustomDNS: {Ask: p.askDNS, Do: func(m views.ActionMsg) tea.Cmd {
			d, ok := m.Payload.(dnsChange)
			if !ok {
				return p.refuse("custom DNS: the confirmation named no change; nothing sent")
			}
			return p.sendDNS(d.On)
		}},
		actNewRole:   {Ask: p.askNewRole, Do: func(m views.ActionMsg) tea.Cmd { return p.createRole(m.Values) }},
		actAuthorize: {Ask: p.askAuthorize, Do: func(m views.ActionMsg) tea.Cmd { return p.authorize(m.Target, m.Values["arn"]) }},
		actDeauthorize: {Ask: p.askDeauthorize, Do: func(m views.ActionMsg) tea.Cmd {
			r, ok := m.Payload.(roleRef)
			if !ok {
				return p.refuse("deauthorize: the confirmation named no role; nothing sent")
			}
			return p.deauthorize(r)
		}},
	}
}

// action answers an action the gate allowed.
func (p *Pane) action(msg views.ActionMsg) tea.Cmd {
	if cmd, ok := views.AskThenDo(msg, p.asks); ok {
		return cmd
	}
	if s, ok := sectionActions[msg.Name]; ok {
		return p.toSection(s)
	}
	switch msg.Name {
	case actNextSection:
		return p.stepSection(1)
	case actPrevSection:
		return p.stepSection(-1)
	}
	return nil
}

// sectionActions are the keys that go to a section.
var sectionActions = map[string]section{actViewAudit: secAuditing, actViewDNS: secDNS, actViewRoles: secRoles}

// ready says why nothing can be changed yet, or "".
func (p *Pane) ready(what string) string {
	if why := p.notReady(); why != "" {
		return what + ": " + why
	}
	return ""
}

// notReady says why nothing can be changed yet, or "".
func (p *Pane) notReady() string {
	switch {
	case p.Ctx.GroupID == "":
		return "no project selected"
	case !p.loaded:
		return "settings are still loading"
	}
	return ""
}

func (p *Pane) confirm(title, body string, action views.ActionMsg) tea.Cmd {
	p.Confirm(views.ConfirmMsg{Title: title, Body: body, Action: action})
	return nil
}

// auditFor is the auditing configuration for a change to it (what), or
// nil once it said why it cannot be changed now.
func (p *Pane) auditFor(what string) *apiclient.AuditLog {
	if why := p.ready(what); why != "" {
		p.refuse(why)
		return nil
	}
	if p.snap.Audit == nil {
		p.refuse(what + ": the configuration could not be read: " + views.ErrText(p.snap.AuditErr))
		return nil
	}
	return p.snap.Audit
}

func (p *Pane) askAuditing() tea.Cmd {
	a := p.auditFor("auditing")
	if a == nil {
		return nil
	}
	if a.Enabled {
		return p.confirm("Turn auditing off?",
			"Database auditing stops for every dedicated cluster of "+p.project()+"; events are no longer recorded.",
			views.ActionMsg{Name: actAuditing, Payload: auditOff})
	}
	body := "Database auditing starts on the dedicated (M10+) clusters of " + p.project() +
		" with the current filter. It is unavailable on M0, M2, M5, flex and serverless clusters."
	if a.AuditAuthorizationSuccess {
		body += "\n\nWarning: " + perfWarning
	}
	return p.confirm("Turn auditing on?", body, views.ActionMsg{Name: actAuditing, Payload: auditOn})
}

func (p *Pane) askAuthSuccess() tea.Cmd {
	a := p.auditFor("auditing")
	if a == nil {
		return nil
	}
	if a.AuditAuthorizationSuccess {
		return p.confirm("Stop recording successful authorizations?",
			"Only failed authorizations are recorded from now on.",
			views.ActionMsg{Name: actAuditing, Payload: authOff})
	}
	return p.confirm("Record successful authorizations?", "Warning: "+perfWarning,
		views.ActionMsg{Name: actAuditing, Payload: authOn})
}

func (p *Pane) askDNS() tea.Cmd {
	if why := p.ready("custom DNS"); why != "" {
		return p.refuse(why)
	}
	d := p.snap.DNS
	if d == nil {
		return p.refuse("custom DNS: the state could not be read: " + views.ErrText(p.snap.DNSErr))
	}
	if d.Enabled {
		return p.confirm("Turn custom DNS for AWS off?",
			"AWS clusters in "+p.project()+" go back to the cloud's DNS; connection strings that rely on your DNS stop resolving.",
			views.ActionMsg{Name: actCustomDNS, Payload: dnsChange{On: false}})
	}
	return p.confirm("Turn custom DNS for AWS on?", dnsNote, views.ActionMsg{Name: actCustomDNS, Payload: dnsChange{On: true}})
}

func (p *Pane) project() string {
	if p.Ctx.ProjectName != "" {
		return "project " + components.Sanitize(p.Ctx.ProjectName)
	}
	return "the project"
}

// write runs a mutating request; its answer comes back as keyWrite.
func (p *Pane) write(task string, fn func(ctx context.Context, c *apiclient.Client, gid string) (written, error)) tea.Cmd {
	client, gid := p.Ctx.Client, p.Ctx.GroupID
	if client == nil || gid == "" {
		return p.refuse(task + ": no project selected")
	}
	return views.Write(&p.Base, keyWrite, p.seq.Next(), task, func(ctx context.Context) (written, error) {
		w, err := fn(ctx, client, gid)
		w.auditDoc = filterDocument(w.audit)
		return w, err
	})
}

func (p *Pane) sendAuditing(change auditChange) tea.Cmd {
	on, off := true, false
	var u apiclient.AuditLogUpdate
	var what string
	switch change {
	case auditOn:
		u.Enabled, what = &on, "auditing turned on"
	case auditOff:
		u.Enabled, what = &off, "auditing turned off"
	case authOn:
		u.AuditAuthorizationSuccess, what = &on, "successful authorizations are recorded"
	case authOff:
		u.AuditAuthorizationSuccess, what = &off, "successful authorizations are no longer recorded"
	default:
		return p.refuse(fmt.Sprintf("auditing: unknown change %d; nothing sent", change))
	}
	return p.write("updating auditing", func(ctx context.Context, c *apiclient.Client, gid string) (written, error) {
		a, err := c.Settings().UpdateAuditLog(ctx, gid, u)
		if err != nil {
			return written{what: "auditing change"}, err
		}
		return written{what: what, audit: a}, nil
	})
}

func (p *Pane) sendFilter(text string) tea.Cmd {
	return p.write("saving the audit filter", func(ctx context.Context, c *apiclient.Client, gid string) (written, error) {
		a, err := c.Settings().UpdateAuditLog(ctx, gid, apiclient.AuditLogUpdate{AuditFilter: &text})
		if err != nil {
			return written{what: "saving the audit filter", filterText: text}, err
		}
		return written{what: "audit filter saved", filterText: text, audit: a}, nil
	})
}

func (p *Pane) sendDNS(on bool) tea.Cmd {
	what := "custom DNS for AWS turned off"
	if on {
		what = "custom DNS for AWS turned on"
	}
	return p.write("updating custom DNS", func(ctx context.Context, c *apiclient.Client, gid string) (written, error) {
		d, err := c.Settings().ToggleCustomDNS(ctx, gid, on)
		if err != nil {
			return written{what: "custom DNS change"}, err
		}
		return written{what: what, dns: d}, nil
	})
}

// Form ids; a submitted form is answered with FormDone under the same id.
const (
	formNewRole   = actNewRole
	formAuthorize = actAuthorize
)

// askNewRole opens the new-role form: a provider, and for Azure the three
// ids the service needs at creation.
func (p *Pane) askNewRole() tea.Cmd {
	if why := p.ready("new access role"); why != "" {
		return p.refuse(why)
	}
	azureID := func(name string) func(string, components.FormValues) error {
		return func(v string, all components.FormValues) error {
			if all["provider"] == string(apiclient.ProviderAzure) && strings.TrimSpace(v) == "" {
				return fmt.Errorf("%s is required for AZURE", name)
			}
			return nil
		}
	}
	// Typing an Azure id selects AZURE: what shows is what is sent.
	azure := &components.Selects{Key: "provider", Choice: string(apiclient.ProviderAzure)}
	fields := []components.Field{
		{Key: "provider", Label: "Provider", Kind: components.FieldChoice,
			Choices: []string{string(apiclient.ProviderAWS), string(apiclient.ProviderAzure), string(apiclient.ProviderGCP)},
		},
		{Key: "sends", Kind: components.FieldNote, Live: newRoleSends},
		{Key: "appId", Label: "Azure application id", Kind: components.FieldText, CharLimit: 64, Hint: "AZURE only", Selects: azure, Validate: azureID("atlasAzureAppId")},
		{Key: "principalId", Label: "Azure service principal id", Kind: components.FieldText, CharLimit: 64, Hint: "AZURE only", Selects: azure, Validate: azureID("servicePrincipalId")},
		{Key: "tenantId", Label: "Azure tenant id", Kind: components.FieldText, CharLimit: 64, Hint: "AZURE only", Selects: azure, Validate: azureID("tenantId")},
	}
	p.Form(views.FormMsg{ID: formNewRole, Title: "New access role in " + p.project(), Fields: fields,
		Action: views.ActionMsg{Name: actNewRole}})
	return nil
}

// newRoleSends is the new-role form's line of what enter sends, wrapped
// whole under the provider (a hint there was cut at 80 columns).
func newRoleSends(v components.FormValues) string {
	switch r := newRoleRequest(v); r.ProviderName {
	case apiclient.ProviderAzure:
		return "sends providerName AZURE with the three Azure ids below"
	case apiclient.ProviderAWS:
		return "sends providerName AWS (the Azure ids below are not sent); the role is then authorized (z) with your IAM role's ARN"
	default:
		return "sends providerName " + string(r.ProviderName) + " (the Azure ids below are not sent); no further step"
	}
}

// newRoleRequest reads the new-role form.
func newRoleRequest(v components.FormValues) apiclient.AccessRoleRequest {
	req := apiclient.AccessRoleRequest{ProviderName: apiclient.CloudProvider(v["provider"])}
	if req.ProviderName == "" {
		req.ProviderName = apiclient.ProviderAWS
	}
	if req.ProviderName == apiclient.ProviderAzure {
		req.AtlasAzureAppID = strings.TrimSpace(v["appId"])
		req.ServicePrincipalID = strings.TrimSpace(v["principalId"])
		req.TenantID = strings.TrimSpace(v["tenantId"])
	}
	return req
}

func (p *Pane) createRole(values components.FormValues) tea.Cmd {
	req := newRoleRequest(values)
	return p.write("creating an access role", func(ctx context.Context, c *apiclient.Client, gid string) (written, error) {
		r, err := c.Settings().CreateAccessRole(ctx, gid, req)
		if err != nil {
			return written{what: "creating the " + string(req.ProviderName) + " access role", form: formNewRole}, err
		}
		what := fmt.Sprintf("%s access role %s created", r.ProviderName, r.Key())
		if r.ProviderName == apiclient.ProviderAWS {
			what += ": set up the IAM role's trust, then press z"
		}
		return written{what: what, form: formNewRole, role: roleRowID(r)}, nil
	})
}

// selectedRole is the role under the cursor, or nil once it said why
// there is none.
func (p *Pane) selectedRole(what string) *apiclient.AccessRole {
	if why := p.ready(what); why != "" {
		p.refuse(why)
		return nil
	}
	r, ok := p.row()
	if !ok || r.role == nil {
		p.refuse(what + ": select an access role first (move down to the roles)")
		return nil
	}
	return r.role
}

func (p *Pane) askAuthorize() tea.Cmd {
	r := p.selectedRole("authorize")
	if r == nil {
		return nil
	}
	s := components.Sanitize
	switch r.ProviderName {
	case apiclient.ProviderGCP:
		return p.refuse("authorize: GCP service accounts need no authorization step")
	case apiclient.ProviderAzure:
		return p.refuse("authorize: Azure service principals are authorized with their ids when created")
	}
	// The external id first: a narrow dialog cuts the end, and the account
	// ARN is in the detail panel too.
	hint := fmt.Sprintf("external id %s; the IAM role must trust %s", s(r.AtlasAssumedRoleExternalID), s(r.AtlasAWSAccountARN))
	fields := []components.Field{{Key: "arn", Label: "IAM role ARN", Kind: components.FieldText, CharLimit: 600,
		Value: r.IAMAssumedRoleARN, Placeholder: "arn:aws:iam::123456789012:role/atlas", Hint: hint,
		Validate: func(v string, _ components.FormValues) error {
			if err := apiclient.ValidIAMRoleARN(strings.TrimSpace(v)); err != nil {
				var ve *apiclient.ValidationError
				if errors.As(err, &ve) {
					return errors.New(ve.Reason)
				}
				return err
			}
			return nil
		}}}
	p.Form(views.FormMsg{ID: formAuthorize, Title: "Authorize AWS role " + s(r.Key()), Fields: fields,
		Action: views.ActionMsg{Name: actAuthorize, Target: r.Key()}})
	return nil
}

func (p *Pane) authorize(roleID, input string) tea.Cmd {
	arn := strings.TrimSpace(input)
	// The form validated it; a value from anywhere else is checked again.
	if err := apiclient.ValidIAMRoleARN(arn); err != nil {
		p.say("authorize: "+err.Error(), true)
		p.FormDone(formAuthorize, err)
		return nil
	}
	if p.findRole(roleID) == nil {
		err := fmt.Errorf("role %s is gone; close this form and refresh with r", roleID)
		p.FormDone(formAuthorize, err)
		return nil
	}
	return p.write("authorizing role "+roleID, func(ctx context.Context, c *apiclient.Client, gid string) (written, error) {
		got, err := c.Settings().AuthorizeAccessRole(ctx, gid, roleID, apiclient.AccessRoleRequest{ProviderName: apiclient.ProviderAWS, IAMAssumedRoleARN: arn})
		if err != nil {
			return written{what: "authorizing role " + roleID, form: formAuthorize}, err
		}
		return written{what: "role " + got.Key() + " authorized as " + got.IAMAssumedRoleARN, form: formAuthorize}, nil
	})
}

func (p *Pane) askDeauthorize() tea.Cmd {
	r := p.selectedRole("deauthorize")
	if r == nil {
		return nil
	}
	s := components.Sanitize
	if bucket, used := exportUse(*r); used {
		return p.refuse(fmt.Sprintf("deauthorize: role %s is used by export bucket %s; delete that bucket (Backups pane) first, then deauthorize",
			s(r.Key()), s(bucket)))
	}
	body := fmt.Sprintf("The %s role %s is removed from %s; features using it lose access to your cloud account.",
		s(string(r.ProviderName)), s(r.Key()), p.project())
	if u := usageSummary(*r); u != "" {
		body += "\nIt is used by: " + s(u) + "."
	}
	return p.confirm("Deauthorize access role?", body, views.ActionMsg{Name: actDeauthorize, Target: r.Key(),
		Payload: roleRef{Provider: r.ProviderName, ID: r.Key()}})
}

func (p *Pane) deauthorize(r roleRef) tea.Cmd {
	provider, id := r.Provider, r.ID
	// Re-check on the latest load: a bucket may have been added meanwhile.
	if r := p.findRole(id); r != nil {
		if bucket, used := exportUse(*r); used {
			return p.refuse(fmt.Sprintf("deauthorize: role %s is used by export bucket %s; delete that bucket first",
				components.Sanitize(id), components.Sanitize(bucket)))
		}
	}
	return p.write("deauthorizing role "+id, func(ctx context.Context, c *apiclient.Client, gid string) (written, error) {
		if err := c.Settings().DeauthorizeAccessRole(ctx, gid, provider, id); err != nil {
			return written{what: "deauthorizing role " + id}, err
		}
		return written{what: string(provider) + " role " + id + " deauthorized"}, nil
	})
}

// sectionNames say which section a key went to when it shows no row.
var sectionNames = [...]string{secAuditing: "auditing", secDNS: "custom DNS", secRoles: "access roles"}

// toSection puts the cursor on the first row of a section; a section with
// no row shown (not readable, or nothing matches the filter) says so.
func (p *Pane) toSection(s section) tea.Cmd {
	for i, r := range p.rows() {
		if r.sec == s {
			p.cursor, p.keep = i, r.id
			p.say("", false)
			return nil
		}
	}
	p.say(sectionNames[s]+": nothing shown (not loaded, not readable, or hidden by the filter)", false)
	return nil
}

// stepSection moves to the next (or previous) section that shows a row,
// wrapping around.
func (p *Pane) stepSection(step int) tea.Cmd {
	rows := p.rows()
	if len(rows) == 0 {
		return nil
	}
	cur := secAuditing
	if r, ok := p.row(); ok {
		cur = r.sec
	}
	n := len(sectionNames)
	for k := 1; k <= n; k++ {
		next := section(((int(cur)+step*k)%n + n) % n)
		for i, r := range rows {
			if r.sec == next {
				p.cursor, p.keep = i, r.id
				return nil
			}
		}
	}
	return nil
}
