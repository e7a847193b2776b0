#!/bin/sh
# bench-abuse.sh OLD_BINARY NEW_BINARY — what one account's abuse costs
# another: p99 of the signed proposal GET (4 clients), then of a small
# write (create-area, 1 client), on account 1 while account 2
# adds items with 100,000-character texts and copies its proposal
# (load --scenario big-text), alone and under that abuse, on a fresh
# demo server of each binary, alternating per repetition. The abuse
# starts GROW seconds before the measured GETs, so that its proposals
# have grown as large as the server lets them. With FLOOD=N, N more
# clients send failing sign-ins meanwhile (load --scenario
# failed-signin, each from its own made-up address; the servers run
# with --trust-forwarded).
#
#   PROPOSALS=1000 DURATION=20 GROW=30 REPS=2 [FLOOD=16] scripts/bench-abuse.sh bin/server.old bin/server
set -eu
proposals=${PROPOSALS:-1000}
duration=${DURATION:-30}
grow=${GROW:-30}
reps=${REPS:-3}
port=${PORT:-18090}
flood=${FLOOD:-0}
[ "$flood" -eq 0 ] || SERVER_FLAGS=--trust-forwarded
. "$(dirname "$0")/demo-server.sh"
loadbin=$2 # the client: the old binary may lack the big-text scenario
one() { # binary label
	bin=$1
	data=$(mktemp -d)
	demo_server "$bin" "$data" "$port" "$proposals"
	who() { jq -r ".accounts[$1].users[] | select(.role==\"Admin\") | .$2" "$data/demo.json" | head -1; }
	u1=$(who 0 email) p1=$(who 0 password) u2=$(who 1 email) p2=$(who 1 password)
	measure() { # scenario clients
		PD_PASSWORD=$p1 "$loadbin" load --connection-file "$data/demo.json" --user "$u1" --clients "$2" --duration "${duration}s" --scenario "$1" --json |
			jq -r --arg s "$1" '"\($s) p50 \(.p50/1e6*100|floor/100) ms p99 \(.p99/1e6*100|floor/100) ms errors \(.errors)"'
	}
	both() { echo "$(measure get 4), $(measure create-area 1)"; }
	alone=$(both)
	PD_PASSWORD=$p2 "$loadbin" load --connection-file "$data/demo.json" --user "$u2" --clients 4 --duration "$((grow + 2 * duration))s" --scenario big-text --json >"$data/abuse.json" &
	apid=$!
	fpid=
	if [ "$flood" -gt 0 ]; then
		PD_PASSWORD=$p2 "$loadbin" load --connection-file "$data/demo.json" --user "$u2" --clients "$flood" --duration "$((grow + 2 * duration))s" --scenario failed-signin --json >"$data/flood.json" &
		fpid=$!
	fi
	sleep "$grow"
	under=$(both)
	wait $apid
	[ -z "$fpid" ] || { wait $fpid; flooded=$(jq -r '"flood: \(.requests) sign-ins \(.errorKinds)"' "$data/flood.json"); }
	abuse=$(jq -r '"\(.requests) requests, p50 \(.p50/1e6|floor) ms, errors \(.errorKinds)"' "$data/abuse.json")
	size=$(du -sm "$data" | cut -f1)
	echo "$2: alone: $alone | under abuse: $under | abuse: $abuse | ${flooded:-no flood} | data dir ${size} MB"
	kill $pid; wait $pid 2>/dev/null || true
	rm -rf "$data"
}
for r in $(seq "$reps"); do
	one "$1" "old rep $r"
	one "$2" "new rep $r"
done
