package limits

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each rule at its edges: the last value accepted and the first refused,
// refused with the field the API names.
func TestEdges(t *testing.T) {
	cases := []struct {
		name     string
		ok, bad  error
		field    string
		contains string
	}{
		{"itemsPerPage low", ItemsPerPage(1), ItemsPerPage(0), "itemsPerPage", "between 1 and 500, got 0"},
		{"itemsPerPage high", ItemsPerPage(500), ItemsPerPage(501), "itemsPerPage", "got 501"},
		{"pageNum", PageNum(1), PageNum(0), "pageNum", "at least 1"},
		{"ack comment counts characters", AckComment(strings.Repeat("é", 200)), AckComment(strings.Repeat("é", 201)), "acknowledgementComment", "at most 200 characters, got 201"},
		{"bucketName short", BucketName("abc"), BucketName("ab"), "bucketName", "3 to 63 characters, got 2"},
		{"bucketName long", BucketName(strings.Repeat("b", 63)), BucketName(strings.Repeat("b", 64)), "bucketName", "got 64"},
		{"numPartitions", NumPartitions(4), NumPartitions(3), "numPartitions", "must be 1, 2 or 4, got 3"},
		{"retentionInDays", RetentionInDays(1), RetentionInDays(0), "retentionInDays", "at least 1"},
		{"oplogTs", OplogTs(MinRestoreTime), OplogTs(MinRestoreTime - 1), "oplogTs", "2008-01-01"},
		{"pointInTime", PointInTimeUTCSeconds(MinRestoreTime), PointInTimeUTCSeconds(1000), "pointInTimeUTCSeconds", "at least 1199145600"},
		{"oplogInc", OplogInc(1), OplogInc(0), "oplogInc", "at least 1"},
		{"nLogs low", NLogs(0), NLogs(-1), "nLogs", "between 0 and 20000"},
		{"nLogs high", NLogs(MaxNLogs), NLogs(MaxNLogs + 1), "nLogs", "got 20001"},
		{"migrationHosts", MigrationHosts([]string{"h:1"}), MigrationHosts([]string{"a:1", "b:2"}), "migrationHosts", "exactly 1 item, got 2"},
		{"migrationHosts none", MigrationHosts([]string{"h:1"}), MigrationHosts(nil), "migrationHosts", "got 0"},
		{"policies", SchedulePolicies(1), SchedulePolicies(2), "policies", "at most 1 item"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.NoError(t, c.ok)
			var e *Error
			require.True(t, errors.As(c.bad, &e), "%v", c.bad)
			assert.Equal(t, c.field, e.Field)
			assert.Contains(t, e.Reason, c.contains)
			assert.Equal(t, c.field+": "+e.Reason, c.bad.Error())
		})
	}
	for _, n := range []int{1, 2, 4} {
		assert.NoError(t, NumPartitions(n))
	}
	for _, n := range []int{0, 8, -1} {
		assert.Error(t, NumPartitions(n))
	}
}

func TestRetentionOrder(t *testing.T) {
	item := func(f, u string, n int) PolicyRetention { return PolicyRetention{Frequency: f, Unit: u, Value: n} }
	cases := []struct {
		name  string
		items []PolicyRetention
		field string // "" when accepted
	}{
		{"increasing", []PolicyRetention{item("hourly", "days", 2), item("daily", "days", 7), item("weekly", "weeks", 4), item("monthly", "months", 12)}, ""},
		{"equal is enough", []PolicyRetention{item("daily", "days", 7), item("weekly", "weeks", 1)}, ""},
		{"weekly shorter than daily", []PolicyRetention{item("daily", "days", 14), item("weekly", "weeks", 1)}, "items[1].retentionValue"},
		{"order of the list does not matter", []PolicyRetention{item("yearly", "months", 6), item("monthly", "years", 1)}, "items[0].retentionValue"},
		{"on-demand stands apart", []PolicyRetention{item("daily", "days", 30), item("ondemand", "days", 1)}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := RetentionOrder("items", c.items)
			if c.field == "" {
				require.NoError(t, err)
				return
			}
			var e *Error
			require.True(t, errors.As(err, &e), "%v", err)
			assert.Equal(t, c.field, e.Field)
			assert.Contains(t, e.Reason, "less than the more frequent")
		})
	}
	assert.Equal(t, 14, RetentionDays("weeks", 2))
	assert.Equal(t, 365, RetentionDays("years", 1))
	assert.Equal(t, 5, RetentionDays("days", 5))
}

func TestBuiltInAnalyzers(t *testing.T) {
	assert.True(t, BuiltInAnalyzer("lucene.standard"))
	assert.True(t, BuiltInAnalyzer("lucene.ukrainian"))
	assert.False(t, BuiltInAnalyzer("standard"))
	assert.False(t, BuiltInAnalyzer("lucene.klingon"))
	names := BuiltInAnalyzers()
	assert.Contains(t, names, "lucene.keyword")
	for _, n := range names {
		assert.True(t, BuiltInAnalyzer(n), n)
	}
}
