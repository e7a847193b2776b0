#!/usr/bin/env bash
# Smoke test of the Windows build under Wine in a virtual display:
# build the packages once (scripts/package.sh; later runs relink from the
# build cache), check them (scripts/check-packages.sh), start a demo
# server, then in a fresh Wine prefix
#   1. run the zip's ProposalDesk.exe signed in as the demo Sales user,
#      with no --data: it must sign in, list and sync, keep its data in
#      %AppData%\ProposalDesk and draw a non-blank window;
#   2. start it again without signing in: it must come back signed in
#      from Windows' credential store (Wine's);
#   3. msiexec /i an older MSI, then this one quietly: it replaces the
#      older one; the .exe, the Start-menu shortcut and one uninstall
#      entry appear; start the installed .exe (signed in,
#      synced); msiexec /x removes all three.
# Prints the seconds from starting the .exe to signed in and synced.
# Debian 12's Wine 8.0 lacks ProcessPrng, which Go's runtime calls at
# start: the prefix gets a stand-in DLL built here from scripts/wine
# (test set-up only; the packages never carry it). Wine without wine32
# warns about syswow64 at prefix creation; that is harmless.
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in wine wineboot wineserver winepath xvfb-run xdotool import convert curl x86_64-w64-mingw32-gcc-win32; do
  command -v "$tool" >/dev/null || { echo "smoke-windows: $tool is missing (scripts/setup-debian.sh installs it)" >&2; exit 1; }
done

# Everything below runs in one virtual display (Wine's windows and the
# prefix's own processes share it).
if [ -z "${PD_SMOKE_WINDOWS_XVFB:-}" ]; then
  exec env PD_SMOKE_WINDOWS_XVFB=1 xvfb-run -a -s "-screen 0 1280x800x24" "$0" "$@"
fi

t0=$SECONDS
./scripts/package.sh linux windows
./scripts/check-packages.sh
echo "smoke-windows: packages built and checked in $((SECONDS - t0)) s"

version=$(tr -d '[:space:]' <VERSION)
msi="bin/dist/ProposalDesk-$version-x64.msi"
work=$(mktemp -d)
export WINEPREFIX="$work/prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  wineserver -k 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "smoke-windows: $*" >&2
  for f in "$work"/*.log; do [ -f "$f" ] && { echo "--- $f"; tail -30 "$f"; } >&2; done
  exit 1
}

t0=$SECONDS
wineboot -i >"$work/wineboot.log" 2>&1 || fail "wineboot failed"
x86_64-w64-mingw32-gcc-win32 -shared -O2 -o "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" \
  scripts/wine/processprng.c scripts/wine/processprng.def -lbcrypt
echo "smoke-windows: Wine prefix ready in $((SECONDS - t0)) s"

got=$(wine bin/win/ProposalDesk.exe --version 2>/dev/null | tr -d '\r')
[ "$got" = "Proposal Desk desktop $version" ] || fail "ProposalDesk.exe --version says \"$got\", want $version"

# The demo server (Linux build), on a free loopback port.
port=""
for _ in $(seq 1 50); do
  p=$((20000 + RANDOM % 20000))
  if ! (exec 3<>/dev/tcp/127.0.0.1/$p) 2>/dev/null; then port=$p; break; fi
done
[ -n "$port" ] || fail "no free port"
bin/release/server serve --demo --data "$work/server" --addr "127.0.0.1:$port" >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 300); do
  [ -f "$work/server/demo.json" ] && curl -fsS -o /dev/null "http://127.0.0.1:$port/healthz" 2>/dev/null && break
  sleep 0.1
done
[ -f "$work/server/demo.json" ] || fail "the demo server did not start"
demo=$(winepath -w "$work/server/demo.json")

# run NAME EXE [ARGS...]: start the Windows app, wait for its smoke
# report, screenshot, stop it, and check what it reported.
run() {
  local name=$1 exe=$2
  shift 2
  local report="$work/report-$name.json" shot="$work/$name.png"
  local start
  start=$(date +%s.%N)
  PD_SMOKE_REPORT="$(winepath -w "$report")" PD_SMOKE_WAIT=240s \
    timeout 300 wine "$exe" --connect "$demo" "$@" >"$work/$name.log" 2>&1 &
  local pid=$!
  for _ in $(seq 1 1200); do
    [ -f "$report" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.25
  done
  [ -f "$report" ] || fail "$name: the app wrote no report"
  local secs
  secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
  timeout 60 xdotool search --sync --name "Proposal Desk" >/dev/null || fail "$name: no window"
  # The report comes when the sync is done; give the frame a moment.
  sleep 2
  import -window root "$shot"
  # The report as the screenshot was taken: a closing app has no session
  # left to report.
  cp "$report" "$report.shot"
  kill "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null || true
  mv "$report.shot" "$report"
  echo "smoke-windows: $name: $(tr -d '\n' <"$report")"
  grep -q '"signedIn": true' "$report" || fail "$name: not signed in"
  grep -q '"synced": true' "$report" || fail "$name: no completed sync"
  grep -q '"rows": 0' "$report" && fail "$name: the list is empty"
  grep -q '"statusError"' "$report" && fail "$name: the status bar shows an error"
  grep -qiE 'panic|fatal' "$work/$name.log" && fail "$name: the app logged a failure"
  local sd
  sd=$(convert "$shot" -format '%[fx:standard_deviation]' info:)
  awk -v s="$sd" 'BEGIN { exit !(s > 0.05) }' || fail "$name: the screenshot is blank (standard deviation $sd)"
  cp "$shot" "bin/smoke-windows-$name.png"
  printf 'smoke-windows: %s: signed in and synced %.1f s after start; screenshot standard deviation %s\n' "$name" "$secs" "$sd"
}

appdata=$(echo "$WINEPREFIX"/drive_c/users/*/AppData/Roaming)

run first bin/win/ProposalDesk.exe --demo-user Sales
[ -f "$appdata/ProposalDesk/session.json" ] || fail "no session in %AppData%\\ProposalDesk (the default data folder)"

# go-keyring's wincred names a credential SERVICE:USER; Wine keeps its
# credential store in the registry.
wine reg query 'HKCU\Software\Wine\Credential Manager' /s 2>/dev/null | tr -d '\r' | grep -q 'proposal-desk:' ||
  fail "no proposal-desk credential in the credential store"
run restart bin/win/ProposalDesk.exe # no --demo-user: the key comes from the credential store

# An older MSI first (the same files, version 0.0.0): the real one must
# replace it through the upgrade code, leaving one uninstall entry.
wixl -a x64 -D Version=0.0.0 -D Exe=bin/win/ProposalDesk.exe -D Icon=bin/win/ProposalDesk.ico \
  -o "$work/old.msi" packaging/windows/ProposalDesk.wxs
uninstall_entries() { wine reg query 'HKLM\Software\Microsoft\Windows\CurrentVersion\Uninstall' /s 2>/dev/null | tr -d '\r'; }
wine msiexec /i "$(winepath -w "$work/old.msi")" /qn >"$work/msiexec-old.log" 2>&1 || fail "msiexec /i of the older MSI failed"
wine msiexec /i "$(winepath -w "$msi")" /qn >"$work/msiexec-install.log" 2>&1 || fail "msiexec /i failed"
entries=$(uninstall_entries)
n=$(grep -c 'DisplayName.*REG_SZ.*Proposal Desk$' <<<"$entries" || true)
[ "$n" = 1 ] || fail "$n uninstall entries named Proposal Desk after upgrading 0.0.0 to $version, want 1"
grep -q "DisplayVersion.*REG_SZ.*$version\$" <<<"$entries" || fail "the uninstall entry does not say version $version"
installed="$WINEPREFIX/drive_c/Program Files/Proposal Desk/ProposalDesk.exe"
# The all-users Start menu on Windows; Wine puts a per-machine shortcut
# in the user's.
start_menu_lnk() { find "$WINEPREFIX/drive_c/ProgramData" "$WINEPREFIX/drive_c/users" -path '*/Start Menu/Programs/Proposal Desk.lnk' 2>/dev/null | head -1; }
uninstall_entry() { grep -q 'DisplayName.*REG_SZ.*Proposal Desk$' <<<"$(uninstall_entries)"; }
[ -f "$installed" ] || fail "msiexec installed no $installed"
[ -n "$(start_menu_lnk)" ] || fail "msiexec made no Start-menu shortcut Proposal Desk.lnk"
uninstall_entry || fail "no uninstall entry named Proposal Desk"
got=$(wine 'C:\Program Files\Proposal Desk\ProposalDesk.exe' --version 2>/dev/null | tr -d '\r')
[ "$got" = "Proposal Desk desktop $version" ] || fail "the installed .exe's --version says \"$got\", want $version"

run installed 'C:\Program Files\Proposal Desk\ProposalDesk.exe'

wine msiexec /x "$(winepath -w "$msi")" /qn >"$work/msiexec-uninstall.log" 2>&1 || fail "msiexec /x failed"
[ ! -e "$installed" ] || fail "msiexec /x left $installed"
[ -z "$(start_menu_lnk)" ] || fail "msiexec /x left the Start-menu shortcut"
uninstall_entry && fail "msiexec /x left the uninstall entry"

echo "smoke-windows: ok"
