#!/usr/bin/env bash
# bench-postgres.sh [SCENARIO...] — the replica figures: two demo replicas of
# scripts/run-postgres.sh on one local PostgreSQL, 16 clients of the load
# command on each at once, beside a bbolt demo server with the same number
# of proposals under 32 clients in the same round (the machine is shared
# and noisy: compare within a round). Prints one line per scenario and
# round. The PostgreSQL cluster lives in $PD_RUN_DATA/pg (default .run/pg)
# and is kept: seeding 10,000 proposals takes minutes the first time only.
#
#   PROPOSALS=10000 DURATION=5s REPS=3 scripts/bench-postgres.sh list get create-area
set -euo pipefail
cd "$(dirname "$0")/.."
scenarios=("${@:-list get create-area}")
read -r -a scenarios <<<"${scenarios[*]}"
proposals=${PROPOSALS:-10000}
duration=${DURATION:-5s}
reps=${REPS:-3}
run="${PD_RUN_DATA:-$PWD/.run}"
bport=${BBOLT_PORT:-18090}
command -v jq >/dev/null || { echo "jq is missing (apt-get install jq)" >&2; exit 1; }

bdata=$(mktemp -d)
rp="" bp=""
cleanup() {
  [ -n "$bp" ] && kill "$bp" 2>/dev/null && wait "$bp" 2>/dev/null
  [ -n "$rp" ] && kill "$rp" 2>/dev/null && wait "$rp" 2>/dev/null
  rm -rf "$bdata"
}
trap cleanup EXIT
PD_RUN_DATA="$run" scripts/run-postgres.sh --demo-proposals "$proposals" >"$bdata/run.log" 2>&1 &
rp=$!
until grep -q "replica 2 at" "$bdata/run.log" 2>/dev/null; do
  kill -0 "$rp" 2>/dev/null || { cat "$bdata/run.log" >&2; exit 1; }
  sleep 0.5
done
./bin/server serve --demo --demo-proposals "$proposals" --data "$bdata/bbolt" --addr "127.0.0.1:$bport" >"$bdata/bbolt.log" 2>&1 &
bp=$!
until [ -s "$bdata/bbolt/demo.json" ] && curl -fs -o /dev/null "http://127.0.0.1:$bport/openapi.json"; do
  kill -0 "$bp" 2>/dev/null || { cat "$bdata/bbolt.log" >&2; exit 1; }
  sleep 0.5
done

# One run: connection file, clients, scenario -> "req/s p99".
load() {
  local user
  user=$(jq -r '.accounts[0].users[] | select(.role=="Admin") | .email' "$1" | head -1)
  PD_PASSWORD=$(jq -r --arg u "$user" '.accounts[0].users[] | select(.email==$u) | .password' "$1") \
    ./bin/server load --connection-file "$1" --user "$user" --clients "$2" --duration "$duration" --scenario "$3" --json |
    jq -r '"\(.throughput|floor) req/s p99 \(.p99/1e6*10|floor/10) ms\(if .errors > 0 then " ERRORS \(.errors)" else "" end)"'
}
for r in $(seq "$reps"); do
  for s in "${scenarios[@]}"; do
    b=$(load "$bdata/bbolt/demo.json" 32 "$s")
    load "$run/pg/replica1/demo.json" 16 "$s" >"$bdata/r1" &
    p1=$!
    r2=$(load "$run/pg/replica2/demo.json" 16 "$s")
    wait "$p1"
    echo "round $r $s | bbolt (32) $b | replica 1 (16) $(cat "$bdata/r1") | replica 2 (16) $r2 | load $(cut -d' ' -f1 /proc/loadavg)"
  done
done
