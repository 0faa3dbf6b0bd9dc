package alerts

import (
	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

// fill loads alerts into the pane as a full pass would, page by page.
func fill(p *Pane, as []apiclient.Alert) {
	p.mark++
	p.pass = &pass{total: len(as), pages: (len(as) + perPage - 1) / perPage, mark: p.mark}
	for i := 0; i < len(as); i += perPage {
		p.merge(as[i:min(i+perPage, len(as))], p.mark)
	}
	p.loaded = true
	p.finishPass()
}
