#!/bin/sh
# bench-get-wrk.sh [SERVER_BINARY] — wrk on the signed proposal-detail GET
# of a fresh demo server and on the bare baseline (net/http, the HMAC
# check, the same bytes), alternating, 32 connections. Prints req/s of
# each, their ratio and each process's CPU time per request (from /proc,
# user + system) per repetition.
#
#   PROPOSALS=10000 DURATION=10s REPS=3 scripts/bench-get-wrk.sh bin/server
set -eu
bin=${1:-bin/server}
proposals=${PROPOSALS:-10000}
duration=${DURATION:-10s}
reps=${REPS:-3}
port=${PORT:-18080}
bare=${BARE_PORT:-18081}
command -v wrk >/dev/null || { echo "wrk is missing (apt-get install wrk)" >&2; exit 1; }
data=$(mktemp -d)
bpid=
trap 'kill $pid $bpid 2>/dev/null; wait 2>/dev/null; rm -rf "$data"' EXIT
. "$(dirname "$0")/demo-server.sh"
demo_server "$bin" "$data" "$port" "$proposals"
user=$(jq -r '.accounts[0].users[] | select(.role=="Admin") | .email' "$data/demo.json" | head -1)
export PD_PASSWORD=$(jq -r --arg u "$user" '.accounts[0].users[] | select(.email==$u) | .password' "$data/demo.json")
load() { "$bin" load --connection-file "$data/demo.json" --user "$user" "$@"; }
headers() { jq -r '.headers | to_entries[] | "-H\n\(.key): \(.value)"' "$1"; }

# A proposal's ID from the first list page, then its signed detail GET
# and the baseline answering with the same bytes.
load --wrk-target "/public/proposals?PageSize=1" >"$data/list.json"
id=$(headers "$data/list.json" | tr '\n' '\0' | xargs -0 curl -s "$(jq -r .url "$data/list.json")" | jq -r '.proposals[0].id')
"$bin" load --connection-file "$data/demo.json" --user "$user" --wrk-target "/public/proposals/$id" --bare-addr "127.0.0.1:$bare" >"$data/get.json" &
bpid=$!
until [ -s "$data/get.json" ] && curl -s -o /dev/null "http://127.0.0.1:$bare/"; do sleep 0.2; done
url=$(jq -r .url "$data/get.json")
path=${url#http://127.0.0.1:$port}
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; } # clock ticks
tick=$(getconf CLK_TCK)
rate() { # base URL, pid serving it -> "req/s µs-of-CPU-per-request"
	c0=$(cpu "$2")
	headers "$data/get.json" | tr '\n' '\0' | xargs -0 wrk -t2 -c32 -d"$duration" "$1$path" >"$data/wrk.out"
	c1=$(cpu "$2")
	awk -v c="$((c1 - c0))" -v tick="$tick" '/Non-2xx/ {bad=1} /requests in/ {n=$1} /Requests\/sec/ {r=$2}
		END {if (bad) r="errors:" r; printf "%s %.1f\n", r, c * 1e6 / tick / n}' "$data/wrk.out"
}
for r in $(seq "$reps"); do
	set -- $(rate "http://127.0.0.1:$port" "$pid") $(rate "http://127.0.0.1:$bare" "$bpid")
	echo "rep $r: server $1 req/s ($2 µs CPU/req), bare $3 req/s ($4 µs CPU/req), ratio $(echo "$1 $3" | awk '{printf "%.2f", $1/$2}')"
done
