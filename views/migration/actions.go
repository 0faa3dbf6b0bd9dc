package migration

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// Payloads carried through confirmations: deleting the link token,
// turning dropDestinationData on, and the start whose outcome is unknown
// that a second start was confirmed against (its lostStart.n).
type (
	tokenDeletion struct{}
	dropOn        struct{}
	anotherStart  struct{ after int }
)

// Link-token form choices.
const (
	tokenCreate = "create a new token"
	tokenDelete = "delete the org's token"
)

// dropWarning is shown before dropDestinationData is turned on and again
// before a migration that drops starts.
const dropWarning = "Every collection on the destination cluster %s that also exists on the source is dropped " +
	"before the migration copies data. Anything written there since it was created is lost."

// dropNow says what the toggle itself does: it sets an option of the next
// start.
const dropNow = "Nothing is dropped now: this sets an option of the next start (%s). When that migration starts: "

// steps are the actions that ask first (a form or a confirmation); the
// confirmed one sends.
func (p *Pane) steps() map[string]views.Step {
	return map[string]views.Step{
		actLinkToken: {Ask: p.askToken, Do: func(m views.ActionMsg) tea.Cmd {
			if m.Form == formToken {
				return p.submitToken(m.Values)
			}
			if _, ok := m.Payload.(tokenDeletion); ok {
				return p.deleteToken()
			}
			return p.refuse("link token: the confirmation named no change; nothing sent")
		}},
		actValidate:     {Ask: p.askOptions, Do: func(m views.ActionMsg) tea.Cmd { return p.submitOptions(m.Values) }},
		actStart:        {Ask: p.askStart, Do: func(views.ActionMsg) tea.Cmd { return p.start(false) }},
		actStartAnother: {Ask: p.askStartAnother, Do: p.startAnother},
		actCutover:      {Ask: p.askCutover, Do: func(views.ActionMsg) tea.Cmd { return p.cutover() }},
	}
}

// action answers an action the gate allowed.
func (p *Pane) action(msg views.ActionMsg) tea.Cmd {
	if cmd, ok := views.AskThenDo(msg, p.asks); ok {
		return cmd
	}
	switch msg.Name {
	case actDrop:
		return p.toggleDrop(msg)
	case actPresentation:
		p.presentation = !p.presentation
		return nil
	}
	return nil
}

func (p *Pane) refuse(text string) tea.Cmd { return p.say(text, true) }

// askToken opens the link-token form: create (with the access list) or
// delete.
func (p *Pane) askToken() tea.Cmd {
	if p.Ctx.OrgID == "" {
		return p.refuse("link token: no organization selected")
	}
	p.goTo(stepToken)
	fields := []components.Field{
		{Key: "do", Label: "Action", Kind: components.FieldChoice, Choices: []string{tokenCreate, tokenDelete},
			Hint: "the source organization pastes the token to link itself to " + p.Ctx.OrgName},
		{Key: "ips", Label: "Access list IPs", Placeholder: "10.0.0.1, 192.168.0.0/16",
			Hint:  "addresses of the migration hosts allowed to use the token (comma separated; empty: none)",
			Value: strings.Join(p.token.ips, ", "),
			Validate: func(v string, all components.FormValues) error {
				if all["do"] == tokenDelete {
					return nil
				}
				_, err := parseIPs(v)
				return err
			}},
	}
	p.Form(views.FormMsg{ID: formToken, Title: "Link token for " + p.Ctx.OrgName,
		Fields: fields, Action: views.ActionMsg{Name: actLinkToken}})
	return nil
}

type tokenResult struct {
	token   *apiclient.LinkToken
	ips     []string
	deleted bool
}

func (p *Pane) submitToken(v components.FormValues) tea.Cmd {
	if v["do"] == tokenDelete {
		// Deleting unlinks the source org: ask again, default No.
		p.FormDone(formToken, nil)
		p.Confirm(views.ConfirmMsg{Title: "Delete the link token?",
			Body: "The source organization is unlinked from " + p.Ctx.OrgName + ": its projects are no longer " +
				"available for migration. A migration already running goes on.",
			Action: views.ActionMsg{Name: actLinkToken, Payload: tokenDeletion{}}})
		return nil
	}
	ips, err := parseIPs(v["ips"])
	if err != nil {
		p.FormDone(formToken, err)
		return nil
	}
	c, org := p.Ctx.Client, p.Ctx.OrgID
	return views.Write(&p.Base, keyToken, 0, "creating link token", func(ctx context.Context) (tokenResult, error) {
		t, err := c.Migration().CreateLinkToken(ctx, org, ips)
		return tokenResult{token: t, ips: ips}, err
	})
}

func (p *Pane) deleteToken() tea.Cmd {
	c, org := p.Ctx.Client, p.Ctx.OrgID
	return views.Write(&p.Base, keyToken, 0, "deleting link token", func(ctx context.Context) (tokenResult, error) {
		return tokenResult{deleted: true}, c.Migration().DeleteLinkToken(ctx, org)
	})
}

// askOptions opens the options form, filled from the draft; submitting it
// sends the migration check.
func (p *Pane) askOptions() tea.Cmd {
	if why := p.validateBlocked(); why != "" {
		return p.refuse("validate: " + why)
	}
	p.goTo(stepOptions)
	d := p.draft
	hosts := d.source.project.MigrationHosts
	auth := 0
	if !d.managedAuth {
		auth = 1
	}
	schema := 0
	for i, s := range schemas {
		if s == d.hostnameSchema {
			schema = i
		}
	}
	fields := []components.Field{
		{Key: "host", Label: "Migration host", Value: d.host, Placeholder: "host or host:port",
			Hint: "exactly one; registered: " + components.Sanitize(strings.Join(hosts, ", ")),
			Validate: func(v string, _ components.FormValues) error {
				if !migrationHost(strings.TrimSpace(v)) {
					return errors.New("one host name or address, with or without :port")
				}
				return nil
			}},
		{Key: "auth", Label: "Source authentication", Kind: components.FieldChoice, Choices: []string{"managed (automation)", authSCRAM},
			Choice: auth, Hint: "the source must use SCRAM-SHA; X.509, LDAP and Kerberos are not supported"},
		{Key: "username", Label: "Username", Value: d.username, Selects: &components.Selects{Key: "auth", Choice: authSCRAM},
			Validate: func(v string, all components.FormValues) error {
				if strings.HasPrefix(all["auth"], "username") && strings.TrimSpace(v) == "" {
					return errors.New("required without managed authentication")
				}
				return nil
			}},
		{Key: "password", Label: "Password", Secret: true, Value: d.password, Selects: &components.Selects{Key: "auth", Choice: authSCRAM},
			Validate: func(v string, all components.FormValues) error {
				if strings.HasPrefix(all["auth"], "username") && v == "" {
					return errors.New("required without managed authentication")
				}
				return nil
			}},
		{Key: "ssl", Label: "TLS to the source", Kind: components.FieldToggle, On: d.ssl,
			Hint: fmt.Sprintf("the source deployment has TLS %s", onOff(d.source.dep.TLSEnabled))},
		{Key: "ca", Label: "CA certificate path (optional)", Value: d.caPath},
		{Key: "schema", Label: "Reach the destination over", Kind: components.FieldChoice, Choices: schemaNames(), Choice: schema},
		{Key: "privateLink", Label: "Private link id (PRIVATE_LINK only)", Value: d.privateLinkID,
			Selects: &components.Selects{Key: "schema", Choice: string(apiclient.HostnamePrivateLink)},
			Validate: func(v string, all components.FormValues) error {
				if all["schema"] == string(apiclient.HostnamePrivateLink) && strings.TrimSpace(v) == "" {
					return errors.New("required for PRIVATE_LINK")
				}
				return nil
			}},
	}
	if d.destSharded() {
		fields = append(fields,
			components.Field{Key: "sharding", Label: "Sharding entries", Value: d.sharding, Placeholder: "billing.invoices:customerId; billing.events:_id hashed",
				Hint: d.dest.Name + " is sharded: database.collection:key[,key] per collection, ';' between; empty: no sharding",
				Validate: func(v string, _ components.FormValues) error {
					_, err := parseSharding(v)
					return err
				}},
			components.Field{Key: "supportIndexes", Label: "Create supporting indexes", Kind: components.FieldToggle, On: d.supportIndexes})
	}
	title := "Check migration " + components.Sanitize(d.source.dep.Name) + " → " + components.Sanitize(d.dest.Name)
	p.Form(views.FormMsg{ID: formOptions, Title: title, Fields: fields,
		Action: views.ActionMsg{Name: actValidate}})
	return nil
}

var schemas = []apiclient.HostnameSchema{apiclient.HostnamePublic, apiclient.HostnamePrivateLink, apiclient.HostnameVPCPeering}

// authSCRAM is the source authentication choice the username and password
// belong to: typing either selects it.
const authSCRAM = "username & password (SCRAM)"

func schemaNames() []string {
	out := make([]string, len(schemas))
	for i, s := range schemas {
		out[i] = string(s)
	}
	return out
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// submitOptions keeps what was typed in the draft and sends the check.
func (p *Pane) submitOptions(v components.FormValues) tea.Cmd {
	d := &p.draft
	if d.missing() != "" {
		p.FormDone(formOptions, errors.New(d.missing()))
		return nil
	}
	d.host = strings.TrimSpace(v["host"])
	d.managedAuth = !strings.HasPrefix(v["auth"], "username")
	d.username, d.password = strings.TrimSpace(v["username"]), v["password"]
	d.ssl = v.Bool("ssl")
	d.caPath = strings.TrimSpace(v["ca"])
	d.hostnameSchema = apiclient.HostnameSchema(v["schema"])
	d.privateLinkID = strings.TrimSpace(v["privateLink"])
	if _, ok := v["sharding"]; ok {
		d.sharding, d.supportIndexes = v["sharding"], v.Bool("supportIndexes")
	}
	d.optionsSet = true
	req, err := d.request(p.Ctx.GroupID)
	if err != nil {
		p.FormDone(formOptions, err)
		return nil
	}
	c, group := p.Ctx.Client, p.Ctx.GroupID
	label := d.source.dep.Name + " → " + d.dest.Name
	return views.Write(&p.Base, keyValidate, 0, "sending migration check", func(ctx context.Context) (*validationState, error) {
		v, err := c.Migration().Validate(ctx, group, req)
		if err != nil {
			return nil, err
		}
		return &validationState{v: *v, groupID: group, label: label}, nil
	})
}

// toggleDrop turns dropDestinationData on after a warning (default No), or
// off at once.
func (p *Pane) toggleDrop(msg views.ActionMsg) tea.Cmd {
	if why := p.dropBlocked(); why != "" {
		return p.refuse("drop destination data: " + why)
	}
	if p.draft.drop {
		p.draft.drop = false
		return p.say("drop destination data: off", false)
	}
	if _, ok := msg.Payload.(dropOn); msg.Confirmed && ok {
		p.draft.drop = true
		return p.say("drop destination data: ON for "+p.destName(), false)
	}
	if p.draft.dest == nil {
		return p.refuse("drop destination data: pick a destination cluster first (step 3)")
	}
	p.Confirm(views.ConfirmMsg{Title: "Drop destination data?",
		Body:   fmt.Sprintf(dropNow, p.startKey()) + fmt.Sprintf(dropWarning, p.destName()),
		Action: views.ActionMsg{Name: actDrop, Payload: dropOn{}}})
	return nil
}

// startKey is the key that makes the next start: M after a start into
// the destination whose outcome is unknown (m is off then), else m.
func (p *Pane) startKey() string {
	if p.startBlocked(false) != "" && p.startBlocked(true) == "" {
		return p.keyName(actStartAnother)
	}
	return p.keyName(actStart)
}

func (p *Pane) destName() string {
	if p.draft.dest == nil {
		return ""
	}
	return components.Sanitize(p.draft.dest.Name)
}

// askStart confirms the migration (default No); with drop on, the
// destination's name must be typed.
func (p *Pane) askStart() tea.Cmd {
	if why := p.startBlocked(false); why != "" {
		return p.refuse("start: " + why)
	}
	body, err := p.startBody()
	if err != nil {
		return p.refuse("start: " + err.Error())
	}
	d := p.draft
	msg := views.ConfirmMsg{Title: "Start the live migration?", Body: body,
		Action: views.ActionMsg{Name: actStart}}
	if d.drop {
		msg.Body += "\n\nWARNING: " + fmt.Sprintf(dropWarning, p.destName()) + "\nType the destination cluster's name to start."
		msg.TypeToConfirm = d.dest.Name
	}
	p.Confirm(msg)
	return nil
}

// startBody describes the start the draft makes, with the state of its
// check; the error says what the draft still lacks.
func (p *Pane) startBody() (string, error) {
	if why := p.draft.missing(); why != "" {
		return "", errors.New(why)
	}
	if !p.draft.optionsSet {
		return "", errors.New("set the migration host and options first: " + p.keyName(actValidate) + " opens them and checks the request")
	}
	if _, err := p.draft.request(p.Ctx.GroupID); err != nil {
		return "", err
	}
	d := p.draft
	body := fmt.Sprintf("Live migration of %s (%s) into %s, through %s.\n",
		components.Sanitize(d.source.dep.Name), components.Sanitize(d.source.project.Name), p.destName(), components.Sanitize(d.host))
	// What is sent besides: the options set at the check, as they stand.
	auth, tls, data := "managed", "off", "kept"
	if !d.managedAuth {
		auth = "username " + components.Sanitize(d.username)
	}
	if d.ssl {
		tls = "on"
	}
	if d.drop {
		data = "DROPPED"
	}
	body += fmt.Sprintf("Source authentication %s, TLS %s; destination over %s; its data %s.\n", auth, tls, d.hostnameSchema, data)
	switch {
	case p.validation == nil:
		body += "\nThe request has not been checked (" + p.keyName(actValidate) + ")."
	case p.validation.v.Status == apiclient.ValidationSuccess && p.lostHere() != nil:
		l := p.lostHere()
		body += "\nThe check (sent at " + p.validation.at.UTC().Format("15:04:05 UTC") + ") passed; the outcome of the last start into " +
			components.Sanitize(l.dest) + " (" + l.at.UTC().Format("15:04:05 UTC") + ") is unknown."
	case p.validation.v.Status == apiclient.ValidationSuccess:
		body += "\nThe check passed."
	case p.validation.v.Status == apiclient.ValidationFailed:
		body += "\nThe check FAILED: " + components.Sanitize(p.validation.v.ErrorMessage)
	default:
		body += "\nThe check is still running."
	}
	return body, nil
}

// askStartAnother is the deliberate start after a start into the same
// destination whose outcome is unknown: the dialog says a second migration
// may result, and the destination's name must be typed.
func (p *Pane) askStartAnother() tea.Cmd {
	if why := p.startBlocked(true); why != "" {
		return p.refuse("start another: " + why)
	}
	body, err := p.startBody()
	if err != nil {
		return p.refuse("start another: " + err.Error())
	}
	l, dest := p.lostHere(), p.destName()
	warn := fmt.Sprintf("The start of %s at %s was %s (%s): that migration may be running into %s. "+
		"It cannot be checked: the API has no list of live migrations, and its id was in the lost answer.\n"+
		"Starting again may make a SECOND migration into %s.\n\n",
		components.Sanitize(l.label()), l.at.UTC().Format("15:04:05 UTC"), outcomeUnknown, l.how, dest, dest)
	body = warn + body
	if p.draft.drop {
		body += "\n\nWARNING: " + fmt.Sprintf(dropWarning, dest)
	}
	body += "\nType the destination cluster's name to start another."
	p.Confirm(views.ConfirmMsg{Title: "Start another live migration into " + dest + "?", Body: body,
		TypeToConfirm: p.draft.dest.Name, Action: views.ActionMsg{Name: actStartAnother, Payload: anotherStart{after: l.n}}})
	return nil
}

// startAnother sends the start confirmed in askStartAnother, if what it
// asked about still holds.
func (p *Pane) startAnother(msg views.ActionMsg) tea.Cmd {
	if why := p.startBlocked(true); why != "" {
		return p.refuse("start another: " + why)
	}
	if a, ok := msg.Payload.(anotherStart); !ok || p.lostHere().n != a.after || msg.Input != p.draft.dest.Name {
		return p.refuse("start another: the confirmation was for another start; " + p.keyName(actStartAnother) + " asks again")
	}
	return p.start(true)
}

// started is a start's answer. A lost one is not an error (the task line
// says the start was sent; nothing says it failed): unknown holds it.
type started struct {
	m       *apiclient.LiveMigration
	job     *jobState
	unknown *apiclient.OutcomeUnknownError
}

// start sends the migration the draft makes: another is the deliberate
// start after one whose outcome is unknown.
func (p *Pane) start(another bool) tea.Cmd {
	if why := p.startBlocked(another); why != "" {
		return p.refuse("start: " + why)
	}
	req, err := p.draft.request(p.Ctx.GroupID)
	if err != nil {
		return p.refuse("start: " + err.Error())
	}
	d := p.draft
	job := &jobState{groupID: p.Ctx.GroupID, source: d.source.dep.Name, sourceProject: d.source.project.Name, dest: d.dest.Name}
	c, group := p.Ctx.Client, p.Ctx.GroupID
	p.starting = job.label()
	return views.Write(&p.Base, keyStart, 0, "sending the start of "+job.label(), func(ctx context.Context) (started, error) {
		m, err := c.Migration().Create(ctx, group, req)
		if ou, ok := apiclient.AsOutcomeUnknown(err); ok {
			return started{job: job, unknown: ou}, nil
		}
		return started{m: m, job: job}, err
	})
}

// cutoverBlocked says why the cut-over is not possible now, or "".
func (p *Pane) cutoverBlocked() string {
	switch {
	case p.job == nil && p.lostFor(p.Ctx.GroupID, "") != nil:
		l := p.lostFor(p.Ctx.GroupID, "")
		return "the start into " + components.Sanitize(l.dest) + " was " + outcomeUnknown + ": without its id it cannot be followed or cut over here"
	case p.job == nil:
		return "no migration started in this session"
	case p.job.cutoverAt != nil && !p.job.done():
		return "cut-over already requested"
	case p.job.done():
		return "the migration is " + strings.ToLower(string(p.job.status()))
	case !p.job.last.ReadyForCutover:
		return "waits for readyForCutover"
	}
	return ""
}

func (p *Pane) askCutover() tea.Cmd {
	if why := p.cutoverBlocked(); why != "" {
		return p.refuse("cut over: " + why)
	}
	p.goTo(stepProgress)
	j := p.job
	p.Confirm(views.ConfirmMsg{Title: "Cut over to " + components.Sanitize(j.dest) + "?",
		Body: "Synchronization with " + components.Sanitize(j.source) + " stops and " + components.Sanitize(j.dest) +
			" becomes the primary copy. Stop writes to the source and point applications at the destination." +
			"\nType the destination cluster's name to cut over.",
		TypeToConfirm: j.dest, Action: views.ActionMsg{Name: actCutover, Target: j.id}})
	return nil
}

type cutDone struct{ id string }

func (p *Pane) cutover() tea.Cmd {
	if why := p.cutoverBlocked(); why != "" {
		return p.refuse("cut over: " + why)
	}
	c, group, id := p.Ctx.Client, p.job.groupID, p.job.id
	return views.Write(&p.Base, keyCutover, 0, "cutting over to "+p.job.dest, func(ctx context.Context) (cutDone, error) {
		return cutDone{id: id}, c.Migration().Cutover(ctx, group, id)
	})
}

// migrationHost: one host name or address, with or without a port, as the
// service takes it (its own example is vm001.example.com).
func migrationHost(v string) bool {
	host := v
	if h, port, err := net.SplitHostPort(v); err == nil {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 {
			return false
		}
		host = h
	}
	return host != "" && !strings.ContainsAny(host, " \t/@,") && (!strings.Contains(host, ":") || net.ParseIP(host) != nil)
}
