//go:build !race

package syncer

const raceOn = false
