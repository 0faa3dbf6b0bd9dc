package apiclient

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestRetentionOrderAcrossPolicyItems(t *testing.T) {
	item := func(f Frequency, u RetentionUnit, n int) PolicyItem {
		return PolicyItem{FrequencyType: f, FrequencyInterval: 1, RetentionUnit: u, RetentionValue: n}
	}
	cases := []struct {
		name  string
		items []PolicyItem
		field string // "" when valid
	}{
		{"ordered", []PolicyItem{item(FrequencyHourly, RetentionDays, 2), item(FrequencyDaily, RetentionDays, 7), item(FrequencyWeekly, RetentionWeeks, 4), item(FrequencyMonthly, RetentionMonths, 12)}, ""},
		{"equal is fine", []PolicyItem{item(FrequencyDaily, RetentionDays, 7), item(FrequencyWeekly, RetentionWeeks, 1)}, ""},
		{"weekly shorter than daily", []PolicyItem{item(FrequencyDaily, RetentionDays, 14), item(FrequencyWeekly, RetentionWeeks, 1)}, "policies[0].policyItems[1].retentionValue"},
		{"order of the list does not matter", []PolicyItem{item(FrequencyYearly, RetentionMonths, 6), item(FrequencyMonthly, RetentionYears, 1)}, "policies[0].policyItems[0].retentionValue"},
		{"on-demand stands apart", []PolicyItem{item(FrequencyDaily, RetentionDays, 30), item(FrequencyOnDemand, RetentionDays, 1)}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := BackupSchedule{Policies: []BackupPolicy{{PolicyItems: tc.items}}}.Validate()
			if tc.field == "" {
				if err != nil {
					t.Fatalf("valid items refused: %v", err)
				}
				return
			}
			v, ok := err.(*ValidationError)
			if !ok || v.Field != tc.field {
				t.Fatalf("want a local error on %s, got %v", tc.field, err)
			}
		})
	}
	p := CompliancePolicy{AuthorizedEmail: "a@b.c", AuthorizedUserFirstName: "a", AuthorizedUserLastName: "b",
		ScheduledPolicyItems: []PolicyItem{item(FrequencyDaily, RetentionDays, 14), item(FrequencyWeekly, RetentionWeeks, 1)}}
	if v, ok := p.Validate().(*ValidationError); !ok || v.Field != "scheduledPolicyItems[1].retentionValue" {
		t.Fatalf("compliance policy: %v", p.Validate())
	}
}

func TestServerlessGoneFromTheSunsetDate(t *testing.T) {
	if ServerlessGone(time.Date(2026, 1, 21, 23, 59, 59, 0, time.UTC)) {
		t.Error("gone before 2026-01-22")
	}
	if !ServerlessGone(time.Date(2026, 1, 22, 0, 0, 0, 0, time.UTC)) {
		t.Error("not gone on 2026-01-22")
	}
}

// A locally refused schedule never reaches the server.
func TestInvalidScheduleIsNotSent(t *testing.T) {
	var hits atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer ts.Close()
	c, err := New(Options{BaseURL: ts.URL, Service: "atlas", Auth: DigestAuth("k", "s")})
	if err != nil {
		t.Fatal(err)
	}
	bad := BackupSchedule{Policies: []BackupPolicy{{PolicyItems: []PolicyItem{
		{FrequencyType: FrequencyDaily, FrequencyInterval: 1, RetentionUnit: RetentionDays, RetentionValue: 14},
		{FrequencyType: FrequencyWeekly, FrequencyInterval: 1, RetentionUnit: RetentionDays, RetentionValue: 7},
	}}}}
	_, err = c.Backups().UpdateSchedule(context.Background(), strings.Repeat("a", 24), "c", bad)
	if !IsValidation(err) || hits.Load() != 0 {
		t.Fatalf("err %v, requests %d", err, hits.Load())
	}
}
