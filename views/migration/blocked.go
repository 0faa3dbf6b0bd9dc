package migration

import (
	"github.com/dbadmin-tui/dbadmin-tui/components"
)

// blockedNames are the actions whose refusal depends on the pane's state.
var blockedNames = []string{actLinkToken, actValidate, actStart, actStartAnother, actDrop, actCutover}

// blocked says why the pane's state refuses an action now ("" when it
// acts): the same words the action itself answers with when delivered.
func (p *Pane) blocked(name string) string {
	switch name {
	case actLinkToken:
		if p.Ctx.OrgID == "" {
			return "no organization selected"
		}
	case actValidate:
		return p.validateBlocked()
	case actStart, actStartAnother:
		another := name == actStartAnother
		if why := p.startBlocked(another); why != "" {
			return why
		}
		if _, err := p.startBody(); err != nil {
			return err.Error()
		}
	case actDrop:
		if why := p.dropBlocked(); why != "" {
			return why
		}
		if !p.draft.drop && p.draft.dest == nil {
			return "pick a destination cluster first (step 3)"
		}
	case actCutover:
		return p.cutoverBlocked()
	}
	return ""
}

// blockedNow is every state refusal, by action name.
func (p *Pane) blockedNow() map[string]string {
	out := make(map[string]string, len(blockedNames))
	for _, n := range blockedNames {
		if why := p.blocked(n); why != "" {
			out[n] = why
		}
	}
	return out
}

// validateBlocked says why the check cannot be asked for now, or "".
func (p *Pane) validateBlocked() string {
	if why := p.draft.missing(); why != "" {
		return why
	}
	if p.Ctx.GroupID == "" {
		return "no project selected"
	}
	return ""
}

// startBlocked says why no start may be sent now ("" when one may; the
// draft is judged when the key is pressed): a start being sent, a
// migration running, or, for m (another false), a start into the picked
// destination whose outcome is unknown. Start another (another true) is
// only for that last case.
func (p *Pane) startBlocked(another bool) string {
	switch {
	case p.starting != "":
		return "the start of " + components.Sanitize(p.starting) + " is being sent"
	case p.job != nil && !p.job.done():
		return "migration " + components.Sanitize(p.job.label()) + " is still running"
	}
	l := p.lostHere()
	switch {
	case l == nil && another:
		return "after a start of unknown outcome"
	case l != nil && !another:
		return "a start into " + components.Sanitize(l.dest) + " was " + outcomeUnknown + " and cannot be checked; " +
			p.keyName(actStartAnother) + " starts another (type its name)"
	}
	return ""
}

// outcomeUnknown is how the panes say a write left and its answer did not
// come back.
const outcomeUnknown = "sent - outcome unknown"

// dropBlocked says why the drop toggle is off now: it sets an option of
// the next start, and no start may be made while one is sent or runs.
func (p *Pane) dropBlocked() string {
	switch {
	case p.starting != "":
		return "the start of " + components.Sanitize(p.starting) + " is being sent"
	case p.job != nil && !p.job.done():
		return "migration " + components.Sanitize(p.job.label()) + " is still running; the setting is for the next start"
	}
	return ""
}

// lostHere is the last start into the picked destination (in this
// project) whose outcome is unknown, or nil.
func (p *Pane) lostHere() *lostStart {
	if p.draft.dest == nil {
		return nil
	}
	return p.lostFor(p.Ctx.GroupID, p.draft.dest.Name)
}

// lostFor is the last start into dest of project groupID whose outcome is
// unknown; dest "" takes any destination of the project.
func (p *Pane) lostFor(groupID, dest string) *lostStart {
	for i := len(p.lost) - 1; i >= 0; i-- {
		if l := &p.lost[i]; l.groupID == groupID && (dest == "" || l.dest == dest) {
			return l
		}
	}
	return nil
}
