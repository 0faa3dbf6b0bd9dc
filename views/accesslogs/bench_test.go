package accesslogs

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// benchStream makes records at ten a second from a fixed start; record k is
// always the same.
type benchStream struct{ base time.Time }

func (s benchStream) record(k int) apiclient.AccessLog {
	at := s.base.Add(time.Duration(k) * 100 * time.Millisecond)
	l := apiclient.AccessLog{
		AuthResult: k%9 != 0, AuthSource: "admin", GroupID: "65a0c0ffee0000000000b001",
		Hostname: fmt.Sprintf("payments-rs-shard-00-%02d.ab12c.mongodb.net", k%3), IPAddress: fmt.Sprintf("10.%d.%d.%d", k%4, k%200, 1+k%250),
		Timestamp: at.UTC().Format("Mon Jan 02 2006 15:04:05 GMT-0700 (MST)"), Username: []string{"app-payments", "grafana", "etl-runner"}[k%3],
		LogLine: fmt.Sprintf(`{"t":{"$date":"%s"},"s":"I","c":"ACCESS","id":20250,"ctx":"conn%d","msg":"Authentication succeeded","attr":{"mechanism":"SCRAM-SHA-256","principalName":"app","authenticationDatabase":"admin","remote":"10.0.0.1:%d"}}`,
			at.UTC().Format("2006-01-02T15:04:05.000Z"), k, 30000+k%30000),
	}
	if !l.AuthResult {
		l.FailureReason = "AuthenticationFailed: SCRAM authentication failed, storedKey mismatch"
	}
	return l
}

// answer is the service's answer for records [from, to): newest first.
func (s benchStream) answer(from, to int) []apiclient.AccessLog {
	out := make([]apiclient.AccessLog, 0, to-from)
	for k := to - 1; k >= from; k-- {
		out = append(out, s.record(k))
	}
	return out
}

func benchPane(b *testing.B, w, h int) *Pane {
	b.Helper()
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	ctx := views.Context{Theme: themes.MustGet("dark"), Keys: views.Registry{Registration}.Keymap(), Clock: func() time.Time { return now },
		GroupID: "65a0c0ffee0000000000b001", ClusterName: "payments-rs"}
	p := newPane(ctx, components.DefaultLogCapacity)
	p.SetSize(w, h)
	p.Base.SetVisible(true)
	return p
}

// pollPages are the service's answers to one poll round: a full page of
// the newest records (re-reading the overlap), then the page that proves it
// complete.
type pollPages struct{ first, second []apiclient.AccessLog }

func (s benchStream) pages(from, to int) pollPages {
	batch := s.answer(max(0, from-1200), to)
	if len(batch) > apiclient.MaxAccessLogs {
		batch = batch[:apiclient.MaxAccessLogs]
	}
	oldest, _ := batch[len(batch)-1].Time()
	var page []apiclient.AccessLog
	for k := to - len(batch) + 10; k >= max(0, to-len(batch)-1200); k-- {
		if at, _ := s.record(k).Time(); !at.After(oldest) {
			page = append(page, s.record(k))
		}
	}
	return pollPages{batch, page}
}

// benchPoll feeds one poll round through Update.
func benchPoll(p *Pane, pp pollPages) {
	q := p.win.Begin(p.Ctx.Now())
	seq := p.seq.Next()
	p.inflight = true
	p.Update(views.Result[pollResult]{Pane: ID, Key: "poll", Seq: seq, Value: pollResult{q: q, logs: pp.first}})
	if p.inflight { // it asked for the older part
		oldest, _ := pp.first[len(pp.first)-1].Time()
		p.Update(views.Result[pollResult]{Pane: ID, Key: "poll", Seq: seq + 1,
			Value: pollResult{q: Query{Start: q.Start, End: oldest.Add(time.Second - time.Millisecond), NLogs: q.NLogs}, logs: pp.second}})
	}
}

// BenchmarkAccessLogPoll: one poll that brings 20,000 new records into a
// full 50,000-line buffer (window arithmetic, de-duplication, formatting,
// ring append, summary) and renders the frame. It also reports the heap the
// full buffer holds.
func BenchmarkAccessLogPoll(b *testing.B) {
	s := benchStream{base: time.Date(2025, 6, 1, 8, 0, 0, 0, time.UTC)}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	p := benchPane(b, 160, 50)
	next := 0
	for next < components.DefaultLogCapacity {
		benchPoll(p, s.pages(next, next+apiclient.MaxAccessLogs))
		next += apiclient.MaxAccessLogs
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if p.st.lv.Len() != components.DefaultLogCapacity {
		b.Fatalf("buffer holds %d lines, want %d", p.st.lv.Len(), components.DefaultLogCapacity)
	}
	bufferMB := float64(after.HeapAlloc-before.HeapAlloc) / (1 << 20)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		pp := s.pages(next, next+apiclient.MaxAccessLogs)
		held := p.st.dropped + p.st.recs.Len()
		b.StartTimer()
		benchPoll(p, pp)
		next += apiclient.MaxAccessLogs
		if got := p.st.dropped + p.st.recs.Len() - held; got != apiclient.MaxAccessLogs {
			b.Fatalf("poll added %d records, want %d", got, apiclient.MaxAccessLogs)
		}
		_ = p.View()
	}
	b.ReportMetric(bufferMB, "MB-heap/50k-buffer")
}

// BenchmarkAccessLogFrame renders one frame of a full 50,000-line buffer
// (following, with a search highlighted, and wrapped). Target: under 2 ms a
// frame, read from ns/op (a benchmark reports; it does not fail on time).
// It is the pane's View alone: the root's header, tabs and footer and its
// fitting of the pane's block to the screen are left out (ui's
// BenchmarkFrame100k is a whole frame), as is Bubble Tea's renderer.
func BenchmarkAccessLogFrame(b *testing.B) {
	s := benchStream{base: time.Date(2025, 6, 1, 8, 0, 0, 0, time.UTC)}
	for _, mode := range []string{"following", "search", "wrap"} {
		b.Run(mode, func(b *testing.B) {
			p := benchPane(b, 160, 50)
			for next := 0; next < components.DefaultLogCapacity; next += apiclient.MaxAccessLogs {
				benchPoll(p, s.pages(next, next+apiclient.MaxAccessLogs))
			}
			switch mode {
			case "search":
				p.search = "grafana"
			case "wrap":
				p.st.lv.SetWrap(true)
				p.SetSize(90, 50)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				_ = p.View()
			}
		})
	}
}
