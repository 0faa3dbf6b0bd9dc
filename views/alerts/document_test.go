package alerts

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

// An alert configuration is shown as JSON through the bounded path: a
// deep one (a member this dashboard does not know, nested 3,000 levels) or
// a huge one (thousands of matchers) is summarised with its size and depth
// and the keys that copy or edit it; y copies the whole configuration; the
// matchers listed above it stop at maxListed. A usual one is shown whole.
func TestDeepOrHugeAlertConfigIsSummarised(t *testing.T) {
	e := newPaneEnv(t)
	var base apiclient.AlertConfig
	for _, c := range e.P.configs {
		if base.ID == "" || c.ID < base.ID {
			base = c
		}
	}
	require.NotEmpty(t, base.ID)

	deep := base
	deep.ID = "deepdeepdeepdeepdeepdeep"
	deep.Extra = map[string]json.RawMessage{"x": json.RawMessage(strings.Repeat("[", 3000) + strings.Repeat("]", 3000))}
	huge := base
	huge.ID = "hugehugehugehugehugehuge"
	for i := range 3000 {
		huge.Matchers = append(huge.Matchers, apiclient.Matcher{FieldName: "HOSTNAME", Operator: apiclient.MatchEquals, Value: fmt.Sprintf("host-%04d.example", i)})
	}
	for _, tc := range []struct {
		c       apiclient.AlertConfig
		summary string
	}{
		{deep, `configuration too large to show \(\d+ KB, depth 3001\); y copies it, E opens it in \$EDITOR`},
		{huge, `configuration too large to show \(2\d\d KB, depth \d\); y copies it, E opens it in \$EDITOR`},
	} {
		e.P.configs[tc.c.ID] = tc.c
		e.P.mode, e.P.cfgDetailID = modeConfigDetail, tc.c.ID
		e.P.renderConfigDetail()
		// the markdown source, its escapes taken out
		screen := strings.ReplaceAll(e.P.detail.Source(), "\\", "")
		assert.Regexp(t, tc.summary, screen, tc.c.ID)
		assert.NotContains(t, screen, `"eventTypeName":`, "no JSON shown")
		assert.LessOrEqual(t, strings.Count(screen, "host-"), maxListed)
		var back apiclient.AlertConfig
		require.NoError(t, json.Unmarshal([]byte(e.P.Selected()), &back), "y copies the configuration as JSON")
		assert.Equal(t, tc.c.ID, back.ID)
		assert.Len(t, back.Matchers, len(tc.c.Matchers))
	}
	assert.Contains(t, e.P.detail.Source(), fmt.Sprintf("… %d more (y copies the configuration)", len(huge.Matchers)-maxListed))

	e.P.cfgDetailID = base.ID
	e.P.renderConfigDetail()
	assert.Contains(t, e.P.detail.Source(), `"eventTypeName": "`+base.EventTypeName+`"`)
	assert.Equal(t, base.ID, e.P.Selected(), "a configuration shown whole: y copies its id")
}
