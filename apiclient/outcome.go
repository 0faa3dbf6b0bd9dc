package apiclient

import (
	"errors"
	"fmt"
	"time"
)

// OutcomeUnknownError is a write whose request left this machine but whose
// answer was lost or unreadable: a timeout or a reset after the request was
// written, or a 2xx whose body was truncated. The server may have applied it.
// Never resend such a write blind: read the resource back (the Verify*
// helpers) and report what the server holds.
type OutcomeUnknownError struct {
	Op string
	// Status is the answer's status when one arrived with an unreadable body
	// (a 2xx: the server said it applied the write), else 0.
	Status int
	// Sent is a server time no later than the server's clock when the
	// request left (Client.SentFloor), the lower bound a read-back matches
	// created resources by; zero when no answer had come before it.
	Sent time.Time
	Err  error
}

func (e *OutcomeUnknownError) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("%s: sent - outcome unknown (HTTP %d, unreadable answer): %v", e.Op, e.Status, e.Err)
	}
	return fmt.Sprintf("%s: sent - outcome unknown (answer lost): %v", e.Op, e.Err)
}

func (e *OutcomeUnknownError) Unwrap() error { return e.Err }

// AsOutcomeUnknown returns the *OutcomeUnknownError in err's chain, if any.
func AsOutcomeUnknown(err error) (*OutcomeUnknownError, bool) {
	var e *OutcomeUnknownError
	ok := errors.As(err, &e)
	return e, ok
}

// outcomeUnknown wraps err when a write may have been applied: its request
// was written and no readable answer came back.
func outcomeUnknown(opID string, mutates bool, sent time.Time, err error) error {
	if !mutates || err == nil {
		return err
	}
	var te *TransportError
	if errors.As(err, &te) && te.afterSend {
		return &OutcomeUnknownError{Op: opID, Sent: sent, Err: err}
	}
	var de *DecodeError
	if errors.As(err, &de) {
		return &OutcomeUnknownError{Op: opID, Status: de.Status, Sent: sent, Err: err}
	}
	return err
}
