#!/usr/bin/env bash
# The whole test suite: formatting, vet, staticcheck, every package's
# tests with the race detector, and a short run of every fuzz target.
# Tests that use the OS keyring talk to a real gnome-keyring inside a
# private D-Bus session.
set -euo pipefail
cd "$(dirname "$0")/.."

# A count of executions, not a duration: with a duration Go 1.26's fuzz
# coordinator can fail a target with a bare "context deadline exceeded"
# when the time runs out mid-execution on a loaded machine (go.dev/issue/75804,
# fixed in Go 1.27); a count has no deadline to race. 40,000 runs take
# 2-15 s per target here.
fuzztime="${FUZZTIME:-40000x}"

# The PDF tests read their documents back with pdftotext; here a missing
# pdftotext fails them instead of skipping (scripts/setup-debian.sh
# installs poppler-utils).
export PD_REQUIRE_PDFTOTEXT=1

# Every tool a test needs must be here: a missing one fails the run
# rather than letting its tests skip (make test installs them all).
missing=""
for tool in xvfb-run dbus-run-session gnome-keyring-daemon pdftotext; do
  command -v "$tool" >/dev/null || missing="$missing $tool"
done
# Debian keeps PostgreSQL's programs off PATH (pgtest finds them there too).
command -v initdb >/dev/null || compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing="$missing initdb"
if [ -n "$missing" ]; then
  echo "test: missing:$missing (scripts/setup-debian.sh installs them; make test runs it first)" >&2
  exit 1
fi

unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
go vet ./...
# staticcheck, built from the tools module so it stays out of the app's
# go.mod: a finding fails the run like a vet error.
(cd tools && go build -o ../bin/staticcheck honnef.co/go/tools/cmd/staticcheck)
./bin/staticcheck ./...

run_tests() {
  # Its own errexit: it runs in a fresh bash under dbus-run-session, where
  # the script's set -e does not reach, and then only the last command's
  # status counted (a failing package passed CI).
  set -euo pipefail
  # cmd/desktop has no tests of its own: leaving it out spares a second
  # cold build of Fyne's cgo GL driver (with -race); the smoke test
  # below builds and runs the real binary.
  go test -race -count=1 -timeout 20m $(go list ./... | grep -v '/cmd/desktop$')
  # The server's HTTP tests again on PostgreSQL (the storage suite and the
  # replica tests run on it above already).
  PD_TEST_BACKEND=postgres go test -race -count=1 -timeout 10m ./apiserver/
  # Memory measurements mean nothing under the race detector, so those
  # tests skip themselves there and run here without it.
  go test -count=1 -run 'Memory' ./sync/
  # The real desktop binary in a virtual display (needs Xvfb and the GL
  # driver's Mesa DRI modules; scripts/setup-debian.sh installs them).
  ./scripts/smoke-desktop.sh
}

# A keyring folder of the run's own: a login keyring left by an earlier
# run with another password would need an unlock prompt.
keyring_home=$(mktemp -d)
trap 'rm -rf "$keyring_home"' EXIT
export -f run_tests
XDG_DATA_HOME="$keyring_home" PD_REQUIRE_KEYRING=1 dbus-run-session -- bash -c \
  'echo -n ci-keyring | gnome-keyring-daemon --unlock --components=secrets >/dev/null; run_tests' \
  2> >(grep -v "Failed to set fd limit" >&2)

# The Windows build under Wine, and the packages (scripts/package.sh,
# the same build as `make package`). A cold Windows build is 10 minutes
# or more on 2 cores; warm, a relink.
smoke_start=$SECONDS
./scripts/smoke-windows.sh
echo "test: Windows smoke run and packages took $((SECONDS - smoke_start)) s"

# Fuzz each target briefly; the seed corpora under testdata/ already ran above.
fuzz_files=$(grep -rl --include='*_test.go' '^func Fuzz' . || true)
for f in $fuzz_files; do
  dir=$(dirname "$f")
  for target in $(grep -o '^func Fuzz[A-Za-z0-9_]*' "$f" | sed 's/^func //'); do
    echo "fuzz: $dir $target ($fuzztime)"
    go test -run='^$' -fuzz="^${target}\$" -fuzztime="$fuzztime" "$dir"
  done
done
