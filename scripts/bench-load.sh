#!/bin/sh
# bench-load.sh [SERVER_BINARY] — the load command's figures for every
# scenario at 8 and 32 clients against a fresh demo server, each beside a
# detail-GET run made just before it (the machine is shared and noisy, so
# only figures from the same run compare). Prints one line per run.
#
#   PROPOSALS=10000 DURATION=5s REPS=3 scripts/bench-load.sh bin/server
set -eu
bin=${1:-bin/server}
proposals=${PROPOSALS:-10000}
duration=${DURATION:-5s}
reps=${REPS:-3}
port=${PORT:-18080}
data=$(mktemp -d)
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$data"' EXIT
. "$(dirname "$0")/demo-server.sh"
demo_server "$bin" "$data" "$port" "$proposals"
user=$(jq -r '.accounts[0].users[] | select(.role=="Admin") | .email' "$data/demo.json" | head -1)
export PD_PASSWORD=$(jq -r --arg u "$user" '.accounts[0].users[] | select(.email==$u) | .password' "$data/demo.json")
run() { # scenario clients
	"$bin" load --connection-file "$data/demo.json" --user "$user" --clients "$2" --duration "$duration" --scenario "$1" --json |
		jq -r --arg s "$1" --arg c "$2" '"\($s) \($c) \(.throughput|floor) req/s p50 \(.p50/1e6*100|floor/100) ms p99 \(.p99/1e6*100|floor/100) ms errors \(.errors)"'
}
for r in $(seq "$reps"); do
	for c in 8 32; do
		for s in list create-area mixed; do
			echo "rep $r: $(run get "$c") | $(run "$s" "$c")"
		done
	done
done
