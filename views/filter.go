package views

import "strings"

// MatchFilter is the filter every list applies to the text of the root's
// filter bar: a case-insensitive substring match against any of the fields;
// a leading `!` inverts it (rows that do not contain the rest). An empty
// filter (or a lone `!`) matches everything.
func MatchFilter(filter string, fields ...string) bool {
	invert := strings.HasPrefix(filter, "!")
	if invert {
		filter = filter[1:]
	}
	if filter == "" {
		return true
	}
	needle := strings.ToLower(filter)
	found := false
	for _, f := range fields {
		if strings.Contains(strings.ToLower(f), needle) {
			found = true
			break
		}
	}
	return found != invert
}
