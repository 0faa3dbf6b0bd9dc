package components

// ToggleMark marks or unmarks a row by ID.
func (t *Table) ToggleMark(id string) {
	if _, ok := t.byID[id]; !ok {
		return
	}
	if _, ok := t.marks[id]; ok {
		delete(t.marks, id)
	} else {
		t.marks[id] = struct{}{}
		t.anchor = id
	}
}

// RangeMark marks every shown row from the last row marked (if it is
// shown) to the cursor, both included; with no such row it marks the row
// under the cursor. Hidden rows are never marked by it.
func (t *Table) RangeMark() {
	if len(t.view) == 0 {
		return
	}
	from := t.cursor
	for i, ri := range t.view {
		if t.rows[ri].ID == t.anchor && t.anchor != "" {
			from = i
			break
		}
	}
	lo, hi := min(from, t.cursor), max(from, t.cursor)
	for i := lo; i <= hi; i++ {
		t.marks[t.rows[t.view[i]].ID] = struct{}{}
	}
	t.anchor = t.rows[t.view[t.cursor]].ID
}

// MarkVisible marks every row the filter shows.
func (t *Table) MarkVisible() {
	for _, ri := range t.view {
		t.marks[t.rows[ri].ID] = struct{}{}
	}
}

// MarkedVisible returns the marked rows the filter shows, in the order
// they are shown: what a bulk action lists and acts on by default.
func (t Table) MarkedVisible() []string {
	if len(t.marks) == 0 {
		return nil
	}
	var out []string
	for _, ri := range t.view {
		if _, ok := t.marks[t.rows[ri].ID]; ok {
			out = append(out, t.rows[ri].ID)
		}
	}
	return out
}

// MarkedHidden returns the marked rows the filter hides, in row order.
func (t Table) MarkedHidden() []string {
	if len(t.marks) == 0 {
		return nil
	}
	shown := make(map[string]bool, len(t.view))
	for _, ri := range t.view {
		shown[t.rows[ri].ID] = true
	}
	var out []string
	for _, r := range t.rows {
		if _, ok := t.marks[r.ID]; ok && !shown[r.ID] {
			out = append(out, r.ID)
		}
	}
	return out
}

// IsMarked reports whether the row is marked.
func (t Table) IsMarked(id string) bool { _, ok := t.marks[id]; return ok }

// Marked returns the marked IDs in the order of the rows given to SetRows.
func (t Table) Marked() []string {
	if len(t.marks) == 0 {
		return nil
	}
	out := make([]string, 0, len(t.marks))
	for _, r := range t.rows {
		if _, ok := t.marks[r.ID]; ok {
			out = append(out, r.ID)
		}
	}
	return out
}

// ClearMarks unmarks every row.
func (t *Table) ClearMarks() { clear(t.marks); t.anchor = "" }
