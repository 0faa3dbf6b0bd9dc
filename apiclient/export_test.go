package apiclient

// ReadsAhead is how many reads sent ahead wait to be taken (for the
// external tests: a read never sent ahead is never put there, at once).
func ReadsAhead(c *Client) int { return c.ahead.pending() }
