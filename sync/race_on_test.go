//go:build race

package syncer

// raceOn: the race detector is on (tests that measure memory or time
// skip themselves: its instrumentation is what they would measure).
const raceOn = true
