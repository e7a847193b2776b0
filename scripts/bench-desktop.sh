#!/usr/bin/env bash
# Measures the real desktop binary with N proposals (default 10,000) in
# a virtual display: the first start (sign in, download everything) and
# warm starts from the local store (REPS, default 3; the key comes from the keyring),
# printing the app's own timings and resident memory. Needs what
# scripts/smoke-desktop.sh needs, plus gnome-keyring; it runs itself
# inside a private D-Bus session with a fresh keyring.
# PD_BENCH_ITEMS=500 also fills the last proposal opened to 500 items and
# times opening it, keystrokes and structural edits (cmd/desktop/bigtimings.go);
# sending its N edits can take minutes on a loaded machine: PD_BENCH_TIMEOUT
# (seconds, default 600) bounds each start.
# At the end a minimal Fyne window with a 10,000-row widget.List runs in
# the same display driver, as the yardstick of the resident memory, and a
# bare window with one widget.Entry (alone, then beside such a list) times
# keystrokes to the painted frame: the floor under the app's keystroke.
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-10000}"

if [ -z "${PD_BENCH_INNER:-}" ]; then
  keyring_home=$(mktemp -d)
  trap 'rm -rf "$keyring_home"' EXIT
  XDG_DATA_HOME="$keyring_home" PD_BENCH_INNER=1 dbus-run-session -- bash -c \
    'echo -n bench | gnome-keyring-daemon --unlock --components=secrets >/dev/null; exec "$0" "$1"' "$0" "$n" \
    2> >(grep -v "Failed to set fd limit\|SystemPrompter\|gcr-prompter\|cannot open display" >&2)
  exit
fi

work=$(mktemp -d)
server_pid=""
trap '[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"' EXIT
go build -o bin/ ./cmd/server ./cmd/desktop
port=$((20000 + RANDOM % 20000))
echo "bench-desktop: seeding a demo server with $n proposals…"
./bin/server serve --demo --demo-proposals "$n" --data "$work/server" --addr "127.0.0.1:$port" >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 1200); do
  [ -f "$work/server/demo.json" ] && curl -fsS -o /dev/null "http://127.0.0.1:$port/openapi.json" 2>/dev/null && break
  sleep 0.25
done

run() {
  PD_STARTUP_LOG=1 LANG=en_US.UTF-8 xvfb-run -a -s "-screen 0 1280x800x24" bash -c '
    timeout "$4" ./bin/desktop --data "$1" --connect "$2" --demo-user Sales 2>"$3" &
    pid=$!
    for _ in $(seq 1 $(($4 * 10))); do grep -q "timings done" "$3" 2>/dev/null && break; sleep 0.1; done
    # The peak resident memory of the desktop (the child of timeout), and
    # how much of the memory now is anonymous (heap) rather than file-
    # backed (the mmapped bbolt file).
    for child in $(pgrep -P $pid); do
      grep -E "^(VmHWM|RssAnon|RssFile):" /proc/$child/status 2>/dev/null | tr -s " " | sed "s/^/desktop: memory /" >>"$3"
    done
    kill $pid; wait $pid 2>/dev/null || true
  ' _ "$work/desktop" "$work/server/demo.json" "$work/$1.log" "${PD_BENCH_TIMEOUT:-600}"
  echo "bench-desktop: $1 start:"; grep "desktop:" "$work/$1.log" | sed 's/^/  /'
}
run first
for i in $(seq 1 "${REPS:-3}"); do run "warm-$i"; done
go build -o bin/minimal-list scripts/minimal-list/main.go
LANG=en_US.UTF-8 xvfb-run -a -s "-screen 0 1280x800x24" timeout 60 ./bin/minimal-list 2>&1 | grep "minimal-list:" | sed 's/^/  /'
go build -o bin/minimal-entry scripts/minimal-entry/main.go
for mode in "" -list; do
  LANG=en_US.UTF-8 xvfb-run -a -s "-screen 0 1280x800x24" timeout 60 ./bin/minimal-entry $mode 2>&1 | grep "minimal-entry:" | sed 's/^/  /'
done
