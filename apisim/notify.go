package apisim

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// webhookBody is the payload POSTed to a WEBHOOK target. The spec does not
// show the real format; this carries the alert as the API shows it plus
// what happened, which is what a receiver needs.
func webhookBody(a *Alert, ac *AlertConfig, kind string, now time.Time) []byte {
	body := map[string]any{
		"kind":          kind,
		"sent":          fmtTime(now),
		"alertConfigId": ac.ID,
		"alert":         a,
	}
	b, _ := json.Marshal(body)
	return b
}

// webhookClient posts notifications; short timeouts, since a slow
// receiver must not hold anything up.
var webhookClient = &http.Client{Timeout: 5 * time.Second,
	// Loopback only: a redirect must not take the POST elsewhere.
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// webhookOutbox keeps the deliveries the world produced in the order it
// produced them. One sender drains it at a time, so a later batch (a repeat)
// can never overtake an earlier one (the open) on its way to the receiver.
type webhookOutbox struct {
	mu      sync.Mutex
	idle    *sync.Cond // signalled when the sender stops
	queue   []webhookDelivery
	sending bool
}

// sendWebhooks queues the deliveries (s.mu held, so the queue follows the
// world's order) and starts the sender if none runs; the sender POSTs them
// one after the other and writes each outcome into its notification record
// under the world lock.
func (s *Server) sendWebhooks(ds []webhookDelivery) {
	if len(ds) == 0 {
		return
	}
	o := &s.hooks
	o.mu.Lock()
	defer o.mu.Unlock()
	o.queue = append(o.queue, ds...)
	if !o.sending {
		o.sending = true
		go s.drainWebhooks()
	}
}

func (s *Server) drainWebhooks() {
	o := &s.hooks
	for {
		o.mu.Lock()
		if len(o.queue) == 0 {
			o.sending = false
			o.idleCond().Broadcast()
			o.mu.Unlock()
			return
		}
		d := o.queue[0]
		o.queue = o.queue[1:]
		o.mu.Unlock()
		outcome := postWebhook(d)
		s.mu.Lock()
		d.record.Delivery = outcome
		s.mu.Unlock()
	}
}

// idleCond is the outbox's condition (o.mu held).
func (o *webhookOutbox) idleCond() *sync.Cond {
	if o.idle == nil {
		o.idle = sync.NewCond(&o.mu)
	}
	return o.idle
}

// waitWebhooks returns once every queued delivery was made and its outcome
// recorded.
func (s *Server) waitWebhooks() {
	o := &s.hooks
	o.mu.Lock()
	defer o.mu.Unlock()
	for o.sending {
		o.idleCond().Wait()
	}
}

func postWebhook(d webhookDelivery) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.url, bytes.NewReader(d.body))
	if err != nil {
		return "failed: " + err.Error()
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "apisim-webhook")
	if d.secret != "" {
		// As the real service signs webhooks: HMAC-SHA1 of the body with
		// the configured secret, base64.
		mac := hmac.New(sha1.New, []byte(d.secret))
		mac.Write(d.body)
		req.Header.Set("X-MMS-Signature", base64.StdEncoding.EncodeToString(mac.Sum(nil)))
	}
	resp, err := webhookClient.Do(req)
	if err != nil {
		return "failed: " + err.Error()
	}
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Sprintf("failed: HTTP %d", resp.StatusCode)
	}
	return fmt.Sprintf("posted: HTTP %d", resp.StatusCode)
}

// catchUp moves the incident engine to the call's now and sends the
// webhooks that fell due; alert and alert-configuration handlers call it
// first.
func (c *call) catchUp() {
	before := c.w.engineSize()
	c.s.sendWebhooks(c.w.advanceIncidents(c.now))
	if c.w.engineSize() != before {
		c.markChanged()
	}
}

// engineSize changes whenever the engine did something worth saving.
func (w *World) engineSize() [3]int {
	st := w.Incidents
	if st == nil {
		return [3]int{len(w.Alerts)}
	}
	return [3]int{len(w.Alerts), len(st.Notifications), int(st.EventSeq)}
}
