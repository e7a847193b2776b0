package main

import (
	"testing"
	"time"
)

// waitUntil polls cond until it holds and fails the test if it does not
// within d: tests wait for the condition a pause would stand for.
func waitUntil(t *testing.T, what string, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %s", d, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
