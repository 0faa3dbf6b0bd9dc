// Package limits holds the spec's value rules (section 8, the retention
// order across policy items and the built-in analyzer names) in the one
// place both sides read them: apiclient refuses a request before sending it,
// and apisim answers 400 for the same reason, so the two cannot drift.
//
// Every check returns nil or an *Error naming the field as the API spells
// it. The caller decides what is unset (the client's zero values, the
// simulator's absent members) and what else its side checks.
package limits

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The limits, as the spec gives them.
const (
	MaxItemsPerPage = 500
	MaxAckComment   = 200 // characters
	MinBucketName   = 3   // characters
	MaxBucketName   = 63  // characters
	MaxNLogs        = 20000
	// MinRestoreTime is 2008-01-01 in seconds since the epoch: the earliest
	// oplogTs and pointInTimeUTCSeconds the API accepts.
	MinRestoreTime = 1199145600
)

// Error is a value a limit refuses. Field is the API's name for it (with
// the index path when it sits in a list); Reason says what is allowed.
type Error struct {
	Field  string
	Reason string
}

func (e *Error) Error() string { return e.Field + ": " + e.Reason }

func refuse(field, format string, args ...any) error {
	return &Error{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// ItemsPerPage checks a page size: 1..500.
func ItemsPerPage(n int) error {
	if n < 1 || n > MaxItemsPerPage {
		return refuse("itemsPerPage", "must be between 1 and %d, got %d", MaxItemsPerPage, n)
	}
	return nil
}

// PageNum checks a page number: at least 1.
func PageNum(n int) error { return atLeastOne("pageNum", n) }

// AckComment checks an acknowledgement comment: at most 200 characters.
func AckComment(s string) error {
	if n := utf8.RuneCountInString(s); n > MaxAckComment {
		return refuse("acknowledgementComment", "must be at most %d characters, got %d", MaxAckComment, n)
	}
	return nil
}

// BucketName checks an export bucket's name: 3..63 characters.
func BucketName(s string) error {
	if n := utf8.RuneCountInString(s); n < MinBucketName || n > MaxBucketName {
		return refuse("bucketName", "must be %d to %d characters, got %d", MinBucketName, MaxBucketName, n)
	}
	return nil
}

// NumPartitions checks a search index's partition count: 1, 2 or 4.
func NumPartitions(n int) error {
	switch n {
	case 1, 2, 4:
		return nil
	}
	return refuse("numPartitions", "must be 1, 2 or 4, got %d", n)
}

// RetentionInDays checks an on-demand snapshot's retention: at least 1.
func RetentionInDays(n int) error { return atLeastOne("retentionInDays", n) }

// OplogTs checks a restore's oplog timestamp: 2008-01-01 or later.
func OplogTs(secs int64) error { return restoreTime("oplogTs", secs) }

// PointInTimeUTCSeconds checks a restore point: 2008-01-01 or later.
func PointInTimeUTCSeconds(secs int64) error { return restoreTime("pointInTimeUTCSeconds", secs) }

func restoreTime(field string, secs int64) error {
	if secs < MinRestoreTime {
		return refuse(field, "must be at least %d (2008-01-01), got %d", MinRestoreTime, secs)
	}
	return nil
}

// OplogInc checks a restore's oplog increment: at least 1.
func OplogInc(n int64) error { return atLeastOne("oplogInc", n) }

func atLeastOne[N int | int64](field string, n N) error {
	if n < 1 {
		return refuse(field, "must be at least 1, got %d", n)
	}
	return nil
}

// NLogs checks how many access log entries a call asks for: 0..20000.
func NLogs(n int) error {
	if n < 0 || n > MaxNLogs {
		return refuse("nLogs", "must be between 0 and %d, got %d", MaxNLogs, n)
	}
	return nil
}

// MigrationHosts checks a migration's hosts: exactly one.
func MigrationHosts(hosts []string) error {
	if len(hosts) != 1 {
		return refuse("migrationHosts", "must hold exactly 1 item, got %d", len(hosts))
	}
	return nil
}

// SchedulePolicies checks how many policies a schedule update carries: at most one.
func SchedulePolicies(n int) error {
	if n > 1 {
		return refuse("policies", "must hold at most 1 item, got %d", n)
	}
	return nil
}

// PolicyRetention is what the retention order reads of a policy item: its
// frequencyType, retentionUnit and retentionValue, in the API's lower case.
type PolicyRetention struct {
	Frequency string
	Unit      string
	Value     int
}

// frequencyRank orders scheduled frequencies from the most frequent; the
// on-demand item stands apart.
var frequencyRank = map[string]int{"hourly": 0, "daily": 1, "weekly": 2, "monthly": 3, "yearly": 4}

// RetentionDays is roughly how long n of a retention unit keeps a snapshot,
// for comparisons; an unknown unit counts as days.
func RetentionDays(unit string, n int) int {
	switch unit {
	case "weeks":
		return 7 * n
	case "months":
		return 30 * n
	case "years":
		return 365 * n
	}
	return n
}

// RetentionOrder checks the rule across policy items: a less frequent item
// keeps its snapshots at least as long as every more frequent one. field
// names the list ("policies[0].policyItems"); the error names the item's
// retentionValue, whatever the order of the list.
func RetentionOrder(field string, items []PolicyRetention) error {
	for j, b := range items {
		rb, ok := frequencyRank[b.Frequency]
		if !ok {
			continue
		}
		for _, a := range items {
			if ra, ok := frequencyRank[a.Frequency]; !ok || ra >= rb {
				continue
			}
			if RetentionDays(b.Unit, b.Value) < RetentionDays(a.Unit, a.Value) {
				return refuse(fmt.Sprintf("%s[%d].retentionValue", field, j),
					"the %s item keeps snapshots %d %s, less than the more frequent %s item (%d %s)",
					b.Frequency, b.Value, b.Unit, a.Frequency, a.Value, a.Unit)
			}
		}
	}
	return nil
}

// luceneAnalyzers are the suffixes of the built-in analyzers (spec 2.6).
var luceneAnalyzers = strings.Fields(`standard simple whitespace keyword arabic armenian basque
	bengali brazilian bulgarian catalan chinese cjk czech danish dutch english finnish french
	galician german greek hindi hungarian indonesian irish italian japanese korean kuromoji
	latvian lithuanian morfologik nori norwegian persian portuguese romanian russian smartcn
	sorani spanish swedish thai turkish ukrainian`)

// BuiltInAnalyzers lists the built-in analyzer names ("lucene.standard", ...).
func BuiltInAnalyzers() []string {
	out := make([]string, len(luceneAnalyzers))
	for i, a := range luceneAnalyzers {
		out[i] = "lucene." + a
	}
	return out
}

// BuiltInAnalyzer reports whether name is one of the built-in analyzers.
func BuiltInAnalyzer(name string) bool {
	suffix, ok := strings.CutPrefix(name, "lucene.")
	if !ok {
		return false
	}
	for _, a := range luceneAnalyzers {
		if a == suffix {
			return true
		}
	}
	return false
}

// MaxDocumentDepth is the deepest nesting of objects and arrays a document
// may have: the database's documented limit for BSON documents ("MongoDB
// supports no more than 100 levels of nesting for BSON documents", MongoDB
// Limits and Thresholds), which a search index definition stored by the
// service cannot exceed either.
const MaxDocumentDepth = 100

// DocumentDepth checks that the JSON text raw, found at field inside a
// document already outer levels deep, nests at most MaxDocumentDepth
// levels in all. It scans raw once and decodes nothing.
func DocumentDepth(field string, raw []byte, outer int) error {
	if _, deepest := MeasureJSON(raw); outer+deepest > MaxDocumentDepth {
		return refuse(field, "nests %d levels of objects and arrays; at most %d are allowed", outer+deepest, MaxDocumentDepth)
	}
	return nil
}

// MeasureJSON finds, in one pass and without decoding, the size of a JSON
// text without insignificant white space and its deepest nesting of
// objects and arrays.
func MeasureJSON(raw []byte) (compact, depth int) {
	level, inString, escaped := 0, false, false
	for _, c := range raw {
		if inString {
			compact++
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case '"':
			inString = true
		case '{', '[':
			level++
			depth = max(depth, level)
		case '}', ']':
			level--
		}
		compact++
	}
	return compact, depth
}
