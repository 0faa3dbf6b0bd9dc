package views

import "fmt"

// A write whose request left but whose answer was lost or unreadable comes
// back as an *apiclient.OutcomeUnknownError. It is never sent again: the
// pane keeps its submit disabled, says OutcomeChecking, reads the resource
// back with the client's Verify* helper (a read the client retries on
// transport errors, 5xx, 429 and malformed bodies, apiclient.VerifyRetries
// times), and reports the verified outcome (for a create: VerifiedCreated
// or NotCreated; a read-back that failed too: OutcomeStillUnknown).
//
// A read-back that finds nothing does not prove the write was not applied:
// a request whose answer was lost may still be on its way or waiting on
// the server, and land after the read. So NotCreated and NotApplied say
// "unknown" and ask for a check before anything is sent again; only what
// the read-back finds is a verdict.

// OutcomeChecking is what the screen says while a lost answer is checked.
const OutcomeChecking = "sent - outcome unknown, checking"

// What a create checked after a lost answer turned out to be.
const (
	VerifiedCreated = "created (verified)"
	NotCreated      = "unknown: not found on the server yet - check before submitting again"
)

// NotApplied is the outcome when the read-back does not show the write (it
// may still land).
const NotApplied = "sent - unknown: the server does not show it yet - check before submitting again"

// OutcomeStillUnknown is the outcome when the read-back failed as well;
// cause says why, in the pane's words.
func OutcomeStillUnknown(cause string) error {
	return fmt.Errorf("sent - outcome still unknown (%s); esc, then r shows what the server holds", cause)
}
