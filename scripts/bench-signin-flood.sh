#!/usr/bin/env bash
# bench-signin-flood.sh BEFORE_BINARY AFTER_BINARY — one user's signed
# detail GETs (one client, the first demo account) alone and while 16
# other clients send failing sign-ins (unknown users, wrong passwords,
# each from its own X-Forwarded-For address, so the lockout never answers
# before the password check), against a demo server of each binary,
# the two binaries taking turns in each round (the machine is shared and
# noisy: compare within a round). The load command of AFTER_BINARY drives
# both. The flood's first sign-in is another demo account's user. Prints one line per run; the flood's own figures are its 401s
# and 429s.
#
#   DURATION=10s REPS=5 scripts/bench-signin-flood.sh /tmp/server-main bin/server
set -euo pipefail
before=$1 after=$2
duration=${DURATION:-10s}
reps=${REPS:-5}
flood=${FLOOD_CLIENTS:-16}
command -v jq >/dev/null || { echo "jq is missing (apt-get install jq)" >&2; exit 1; }
dirs=() pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null || true; done
  rm -rf "${dirs[@]}"
}
trap cleanup EXIT
start() { # binary port: sets dir (not a subshell, so cleanup knows the server)
  dir=$(mktemp -d); dirs+=("$dir")
  "$1" serve --demo --trust-forwarded --data "$dir" --addr "127.0.0.1:$2" >"$dir/server.log" 2>&1 &
  pids+=($!)
  local i=0
  until [ -s "$dir/demo.json" ] && curl -s -o /dev/null "http://127.0.0.1:$2/openapi.json"; do
    i=$((i + 1)); [ $i -lt 600 ] || { echo "server did not start" >&2; cat "$dir/server.log" >&2; exit 1; }
    kill -0 "${pids[-1]}" 2>/dev/null || { echo "server exited" >&2; cat "$dir/server.log" >&2; exit 1; }
    sleep 0.5
  done
}
start "$before" "${PORT:-18181}"; bdir=$dir
start "$after" "$((${PORT:-18181} + 1))"; adir=$dir
run() { # label datadir with-flood
  local d=$2 user pw fpid=""
  user=$(jq -r '.accounts[0].users[] | select(.role=="Admin") | .email' "$d/demo.json" | head -1)
  pw=$(jq -r --arg u "$user" '.accounts[0].users[] | select(.email==$u) | .password' "$d/demo.json")
  # The measured client signs in first (during a flood it might not get
  # a password check: that is the point), then measures after a warmup
  # of 3 s; the flood starts 1 s in and runs a second longer.
  PD_PASSWORD=$pw "$after" load --connection-file "$d/demo.json" --user "$user" --clients 1 \
    --warmup 3s --duration "$duration" --scenario get --json >"$d/get.json" &
  local gpid=$!
  if [ "$3" = flood ]; then
    sleep 1
    fuser=$(jq -r '.accounts[1].users[0].email' "$d/demo.json")
    fpw=$(jq -r '.accounts[1].users[0].password' "$d/demo.json")
    PD_PASSWORD=$fpw "$after" load --connection-file "$d/demo.json" --user "$fuser" --clients "$flood" \
      --warmup 1s --duration "$duration" --scenario failed-signin --json >"$d/flood.json" &
    fpid=$!
  fi
  wait "$gpid"
  jq -r --arg l "$1 $3" '"\($l): get p50 \(.p50/1e6*100|floor/100) ms p99 \(.p99/1e6*100|floor/100) ms max \(.max/1e6|floor) ms, \(.requests) requests, errors \(.errors)"' "$d/get.json"
  if [ -n "$fpid" ]; then
    wait "$fpid"
    jq -r '"  flood: \(.requests) sign-ins, \(.errorKinds)"' "$d/flood.json"
  fi
}
for r in $(seq "$reps"); do
  echo "round $r"
  run before "$bdir" alone
  run after "$adir" alone
  run before "$bdir" flood
  run after "$adir" flood
done
