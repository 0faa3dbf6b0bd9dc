package accesslogs

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/dbadmin-tui/dbadmin-tui/views"
)

func TestEveryKeyFieldNamesARegisteredAction(t *testing.T) {
	assert.Empty(t, views.MissingKeys[keys](Registration))
}
