package views

import (
	"context"
	"fmt"
	"time"
)

// A write whose request left but whose answer was lost or unreadable comes
// back as an *apiclient.OutcomeUnknownError. It is never sent again: the
// pane keeps its submit disabled, says OutcomeChecking, reads the resource
// back with the client's Verify* helper through VerifyRetrying, and reports
// the verified outcome (for a create: VerifiedCreated or NotCreated; a
// read-back that failed too: OutcomeStillUnknown).

// OutcomeChecking is what the screen says while a lost answer is checked.
const OutcomeChecking = "sent - outcome unknown, checking"

// What a create checked after a lost answer turned out to be.
const (
	VerifiedCreated = "created (verified)"
	NotCreated      = "not created: you may submit again"
)

// OutcomeStillUnknown is the outcome when the read-back failed as well.
func OutcomeStillUnknown(err error) error {
	return fmt.Errorf("sent - outcome still unknown (%v); esc, then r shows what the server holds", err)
}

// VerifyRetrying runs a read-back up to five times while it fails (under
// faults the check itself may lose its answer) and returns the last try.
func VerifyRetrying[T any](ctx context.Context, fn func(context.Context) (T, bool, error)) (T, bool, error) {
	var v T
	var ok bool
	var err error
	for try := range 5 {
		if v, ok, err = fn(ctx); err == nil || ctx.Err() != nil {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Duration(try+1) * 300 * time.Millisecond):
		}
	}
	return v, ok, err
}
