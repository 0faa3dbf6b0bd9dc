package views

import (
	"strings"
	"time"
)

// endOfLife is when each MongoDB release series stopped being supported,
// from MongoDB's "Legacy Support Policy" / software lifecycle schedule
// (https://www.mongodb.com/legal/support-policy/lifecycles). Only series
// whose end of life that page states are listed; a newer series is never
// flagged.
var endOfLife = map[string]time.Time{
	"3.6": date(2021, 4, 30),
	"4.0": date(2022, 4, 30),
	"4.2": date(2023, 4, 30),
	"4.4": date(2024, 2, 29),
	"5.0": date(2024, 10, 31),
	"6.0": date(2025, 7, 31),
}

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// EndOfLife returns the end of life of the series of a version ("4.4.29"
// -> 2024-02-29), if the table knows it.
func EndOfLife(version string) (time.Time, bool) {
	parts := strings.SplitN(version, ".", 3)
	if len(parts) < 2 {
		return time.Time{}, false
	}
	t, ok := endOfLife[parts[0]+"."+parts[1]]
	return t, ok
}
