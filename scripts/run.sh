#!/usr/bin/env bash
# Runs the system on this machine: the server in demo mode on loopback,
# and the desktop app connected to it as the demo Sales user. Stop with
# Ctrl+C; the server is stopped with the desktop.
set -euo pipefail
cd "$(dirname "$0")/.."

data="${PD_RUN_DATA:-$PWD/.run}"
addr="${PD_ADDR:-127.0.0.1:8080}"
mkdir -p "$data" bin

if [ ! -d cmd/server ]; then
  echo "run: the server (cmd/server) is not built yet; only the domain core exists. Try: make test" >&2
  exit 1
fi
go build -o bin/ ./cmd/server
./bin/server serve --demo --data "$data/server" --addr "$addr" &
server_pid=$!
trap 'kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true' EXIT

for _ in $(seq 1 100); do
  [ -f "$data/server/demo.json" ] && curl -fsS -o /dev/null "http://$addr/openapi.json" 2>/dev/null && break
  sleep 0.1
done
echo "run: server up at http://$addr (demo credentials in $data/server/demo.json)"

if [ ! -d cmd/desktop ]; then
  echo "run: the desktop app (cmd/desktop) does not exist yet; the server keeps running until Ctrl+C"
  wait "$server_pid"
  exit 0
fi
go build -o bin/ ./cmd/desktop
./bin/desktop --data "$data/desktop" --connect "$data/server/demo.json" --demo-user Sales
