package apiclient

import (
	"time"

	"github.com/cenkalti/backoff/v4"
)

// newBackoff is one call's retry schedule: exponential from base with ±50%
// jitter, capped at 8s; the attempt limit is the client's, not the library's.
func newBackoff(base time.Duration) *backoff.ExponentialBackOff {
	b := backoff.NewExponentialBackOff()
	b.InitialInterval = base
	b.RandomizationFactor = 0.5
	b.Multiplier = 2
	b.MaxInterval = 8 * time.Second
	b.MaxElapsedTime = 0
	b.Reset()
	return b
}
