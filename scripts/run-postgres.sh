#!/usr/bin/env bash
# Tries the server on PostgreSQL: a local throwaway cluster (initdb and
# pg_ctl from Debian's postgresql package, as the postgres user when run
# as root) in $PD_RUN_DATA/pg, one database, and two replicas in demo mode
# on 127.0.0.1:8081 and :8082, each with its own demo.json. Ctrl+C stops
# the replicas and the cluster. Extra arguments go to both serve commands
# (e.g. --demo-proposals 10000).
set -euo pipefail
cd "$(dirname "$0")/.."

run="${PD_RUN_DATA:-$PWD/.run}/pg"
port="${PD_PG_PORT:-55432}"
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "run-postgres: PostgreSQL not found: scripts/setup-debian.sh installs it" >&2; exit 1; }
as_pg=()
[ "$(id -u)" -eq 0 ] && as_pg=(runuser -u postgres --)

mkdir -p "$run"
[ "$(id -u)" -eq 0 ] && chown postgres "$run"
if [ ! -f "$run/cluster/PG_VERSION" ]; then
  "${as_pg[@]}" "$bin/initdb" -D "$run/cluster" -U postgres --auth=trust -E UTF8 --no-locale >/dev/null
fi
"${as_pg[@]}" "$bin/pg_ctl" start -w -D "$run/cluster" -l "$run/postgres.log" \
  -o "-p $port -k $run -c listen_addresses=127.0.0.1 -c max_connections=200" >/dev/null
url="postgres://postgres@127.0.0.1:$port/proposals?sslmode=disable"
"$bin/psql" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -tc "SELECT 1 FROM pg_database WHERE datname = 'proposals'" | grep -q 1 ||
  "$bin/psql" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -c "CREATE DATABASE proposals"

go build -o bin/ ./cmd/server
pids=()
stop() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  "${as_pg[@]}" "$bin/pg_ctl" stop -w -D "$run/cluster" >/dev/null || true
}
trap stop EXIT
trap "exit 130" INT
trap "exit 143" TERM
for i in 1 2; do
  ./bin/server serve --demo --database "$url" --data "$run/replica$i" --addr "127.0.0.1:808$i" "$@" 2>"$run/replica$i.log" &
  pids+=($!)
done
for i in 1 2; do
  ready=""
  for _ in $(seq 1 1500); do  # seeding --demo-proposals 10000 takes minutes
    if curl -fsS -o /dev/null "http://127.0.0.1:808$i/readyz" 2>/dev/null && [ -f "$run/replica$i/demo.json" ]; then ready=1; break; fi
    kill -0 "${pids[$((i-1))]}" 2>/dev/null || break
    sleep 0.2
  done
  [ -n "$ready" ] || { echo "run-postgres: replica $i did not start; see $run/replica$i.log" >&2; exit 1; }
  echo "run-postgres: replica $i at http://127.0.0.1:808$i (demo credentials in $run/replica$i/demo.json, log $run/replica$i.log)"
done
echo "run-postgres: database $url; Ctrl+C stops everything"
wait "${pids[0]}"
