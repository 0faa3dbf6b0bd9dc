package accesslogs

import (
	"net/netip"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
)

// store holds the tail: every record received (a ring of the buffer's
// size), and the lines the filters let through in a components.LogView,
// with the record of each shown line in a ring that moves in step with the
// LogView's (same capacity, same appends, so the same evictions).
type store struct {
	recs    components.Ring[*Record]
	dropped int // records pushed out of the ring
	lv      components.LogView
	shown   components.Ring[*Record]

	filter filter
	format format
}

// filter is what the tail shows.
type filter struct {
	failuresOnly bool
	ip           string // an address, a network (CIDR) or the first parts of one; see ipMatches
	user         string // case-insensitive part of username
}

func (f filter) active() bool { return f.failuresOnly || f.ip != "" || f.user != "" }

func (f filter) match(r *Record) bool {
	switch {
	case f.failuresOnly && r.AuthResult:
		return false
	case f.ip != "" && !ipMatches(f.ip, r.IPAddress):
		return false
	case f.user != "" && !strings.Contains(strings.ToLower(r.Username), strings.ToLower(f.user)):
		return false
	}
	return true
}

// ipMatches reports whether the address ip is what the filter names: the
// address itself when the filter is a whole address (10.0.0.1 is not
// 10.0.0.12), an address of the network when it is one (10.2.0.0/16), and
// else an address whose first parts are the filter's, part by part (10.2
// and 10.2. take 10.2.7.1, not 10.20.7.1).
func ipMatches(filter, ip string) bool {
	if pfx, err := netip.ParsePrefix(filter); err == nil {
		a, err := netip.ParseAddr(ip)
		return err == nil && pfx.Contains(a)
	}
	if want, err := netip.ParseAddr(filter); err == nil {
		a, err := netip.ParseAddr(ip)
		return err == nil && a == want
	}
	sep := "."
	if strings.Contains(filter, ":") {
		sep = ":"
	}
	head := strings.TrimSuffix(filter, sep)
	return ip == head || strings.HasPrefix(ip, head+sep)
}

// format is how a record becomes a line.
type format struct {
	loc  *time.Location // UTC or the dashboard's zone
	raw  bool           // time and the raw logLine
	cols columns        // which columns fit the width, in which form
}

// columns is a column set for a width, chosen as a table's column
// priorities choose: the user and the reason are the key columns, never
// cut; as the width shrinks SOURCE goes first, then TIME loses its date,
// HOST its cluster prefix ("shard-00-02"), then IP goes, then HOST.
type columns struct {
	noSource, shortTime, noIP bool
	host                      int // HOST's width: colHost, colHostShort, or 0 (dropped)
}

// minReason is the least width REASON is given before another column goes.
const minReason = 24

// columnSets are the sets tried, widest first.
var columnSets = []columns{
	{host: colHost},
	{noSource: true, host: colHost},
	{noSource: true, shortTime: true, host: colHost},
	{noSource: true, shortTime: true, host: colHostShort},
	{noSource: true, shortTime: true, noIP: true, host: colHostShort},
	{noSource: true, shortTime: true, noIP: true},
}

// columnsFor is the widest set that leaves REASON minReason columns of a
// line w wide.
func columnsFor(w int) columns {
	for _, c := range columnSets {
		if c.fixed()+minReason <= w {
			return c
		}
	}
	return columnSets[len(columnSets)-1]
}

// fixed is the width of every column before REASON, separators included.
func (c columns) fixed() int {
	n := c.timeWidth() + 2 + colResult + 2 + colUser + 1
	if !c.noSource {
		n += colSource + 1
	}
	if !c.noIP {
		n += colIP + 1
	}
	if c.host > 0 {
		n += c.host + 1
	}
	return n
}

func (c columns) timeWidth() int {
	if c.shortTime {
		return colTimeShort
	}
	return colTime
}

// Column widths of a formatted line (the reason takes the rest).
const (
	colTime   = 19
	colResult = 4
	colUser   = 16
	colSource = 9
	colIP     = 15
	colHost   = 24

	colTimeShort = 8  // 15:04:05: the window is at most a day
	colHostShort = 11 // shard-00-02
)

func newStore(capacity int, th themes.Theme, km *keymap.KeyMap) *store {
	if capacity <= 0 {
		capacity = components.DefaultLogCapacity
	}
	return &store{
		recs: components.NewRing[*Record](capacity), shown: components.NewRing[*Record](capacity),
		lv: components.NewLogView(capacity, th, km, logKeys(km)), format: format{loc: time.UTC},
	}
}

func (s *store) capacity() int { return s.recs.Cap() }

// held returns record i of the ring (0 = oldest).
func (s *store) held(i int) *Record { return s.recs.At(i) }

// line returns the record of shown line i.
func (s *store) line(i int) *Record { return s.shown.At(i) }

// add appends records (oldest first) to the ring and the shown lines.
func (s *store) add(rs []Record) {
	lines := make([]string, 0, len(rs))
	for i := range rs {
		r := &rs[i]
		if s.recs.Push(r) {
			s.dropped++
		}
		if s.filter.match(r) {
			lines = append(lines, s.format.line(r))
			s.shown.Push(r)
		}
	}
	s.lv.Append(lines...)
}

// rebuild redoes the shown lines after a filter or format change, keeping
// follow, wrap and size.
func (s *store) rebuild(th themes.Theme, km *keymap.KeyMap, w, h int) {
	follow, wrap := s.lv.Following(), s.lv.Wrapping()
	s.lv = components.NewLogView(s.recs.Cap(), th, km, logKeys(km))
	s.lv.SetSize(w, h)
	s.lv.SetWrap(wrap)
	s.shown.Clear()
	lines := make([]string, 0, s.recs.Len())
	for i := range s.recs.Len() {
		r := s.held(i)
		if s.filter.match(r) {
			lines = append(lines, s.format.line(r))
			s.shown.Push(r)
		}
	}
	s.lv.Append(lines...)
	if !follow {
		s.lv.SetFollow(false)
	}
}

// reset drops everything.
func (s *store) reset(th themes.Theme, km *keymap.KeyMap, w, h int) {
	s.recs.Clear()
	s.dropped = 0
	s.rebuild(th, km, w, h)
	s.lv.SetFollow(true)
}

// line formats a record; every server string is sanitized first so the
// columns line up and nothing reaches the terminal raw.
func (f format) line(r *Record) string {
	var b strings.Builder
	b.Grow(160)
	c := f.cols
	switch {
	case r.At.IsZero():
		b.WriteString(cell(components.Sanitize(r.Timestamp), c.timeWidth()))
	case c.shortTime && !f.raw:
		b.WriteString(r.At.In(f.loc).Format("15:04:05"))
	default:
		b.WriteString(r.At.In(f.loc).Format("2006-01-02 15:04:05"))
	}
	b.WriteString("  ")
	if f.raw {
		b.WriteString(components.Sanitize(r.LogLine))
		return b.String()
	}
	if r.AuthResult {
		b.WriteString("ok  ")
	} else {
		b.WriteString("FAIL")
	}
	b.WriteString("  ")
	b.WriteString(cell(components.Sanitize(r.Username), colUser))
	b.WriteByte(' ')
	if !c.noSource {
		b.WriteString(cell(components.Sanitize(r.AuthSource), colSource))
		b.WriteByte(' ')
	}
	if !c.noIP {
		b.WriteString(cell(components.Sanitize(r.IPAddress), colIP))
		b.WriteByte(' ')
	}
	switch c.host {
	case colHost:
		b.WriteString(cell(shortHost(components.Sanitize(r.Hostname)), colHost))
		b.WriteByte(' ')
	case colHostShort:
		b.WriteString(cell(hostTail(shortHost(components.Sanitize(r.Hostname))), colHostShort))
		b.WriteByte(' ')
	}
	b.WriteString(components.Sanitize(r.FailureReason))
	return strings.TrimRight(b.String(), " ")
}

// header is the column header matching format.line.
func (f format) header() string {
	c := f.cols
	if f.raw {
		return cell("TIME", colTime) + "  LOG LINE"
	}
	h := cell("TIME", c.timeWidth()) + "  " + cell("RES", colResult) + "  " + cell("USER", colUser) + " "
	if !c.noSource {
		h += cell("SOURCE", colSource) + " "
	}
	if !c.noIP {
		h += cell("IP", colIP) + " "
	}
	if c.host > 0 {
		h += cell("HOST", c.host) + " "
	}
	return h + "REASON"
}

// hostTail is a host's short form: what follows the cluster name
// ("shard-00-02"), else its last colHostShort cells.
func hostTail(h string) string {
	if i := strings.Index(h, "-shard-"); i >= 0 {
		return h[i+1:]
	}
	if r := []rune(h); len(r) > colHostShort {
		return "…" + string(r[len(r)-colHostShort+1:])
	}
	return h
}

// shortHost keeps the first label of a host name: the rest is the same for
// every host of a cluster.
func shortHost(h string) string {
	if i := strings.IndexByte(h, '.'); i > 0 {
		return h[:i]
	}
	return h
}

// cell pads or cuts s to exactly w columns.
func cell(s string, w int) string {
	n := asciiWidth(s)
	if n < 0 {
		n = ansi.StringWidth(s)
	}
	if n > w {
		s = components.Truncate(s, w)
		n = ansi.StringWidth(s)
	}
	if n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

// asciiWidth is the width of a printable ASCII string (its length), or -1
// for anything else: the common case skips grapheme segmentation.
func asciiWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > '~' {
			return -1
		}
	}
	return len(s)
}

// logKeys are the pane's keys the log view itself answers.
func logKeys(km *keymap.KeyMap) components.LogKeys {
	k := keysOf(km)
	return components.LogKeys{End: k.End, Follow: k.Follow, Wrap: k.Wrap}
}
