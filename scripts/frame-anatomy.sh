#!/usr/bin/env bash
# What a keystroke's frame costs under Mesa's llvmpipe, by what it draws.
# Builds the desktop against a copy of Fyne with
# scripts/frame-anatomy/fyne.patch applied (a diagnostic in its painter's
# walk: PD_SKIP leaves out the drawn leaves of a kind (text, rect, other;
# a raster, the timings' probe, is always drawn), PD_SKIP_REGION
# those whose top-left corner lies in a rectangle, PD_DUMP_FRAME lists one
# frame's leaves; see the patch), then runs
#   PD_BENCH_ITEMS=500 REPS=0 scripts/bench-desktop.sh 200
# once per variant and prints each run's 500-item keystroke timing.
# A variant is "NAME=ENV ..." ("all drawn=" skips nothing), e.g.
#   scripts/frame-anatomy.sh "all drawn=" "no text=PD_SKIP=text" \
#     "list pane not drawn=PD_SKIP_REGION=0,0,515,800"
# Without arguments it runs the variants of docs/performance.md ("What a
# keystroke's frame is made of"). Each run takes 2-3 minutes; the
# variants run one after the other, so compare runs of one call.
# The repository's go.mod is left alone (the patched build uses a copy,
# through GOFLAGS=-modfile), and bin/desktop is built again unpatched at
# the end.
set -euo pipefail
cd "$(dirname "$0")/.."

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fyne=$(go list -m -f '{{.Dir}}' fyne.io/fyne/v2)
cp -r "$fyne" "$tmp/fyne"
chmod -R u+w "$tmp/fyne"
patch -s -d "$tmp/fyne" -p1 <scripts/frame-anatomy/fyne.patch
cp go.mod "$tmp/go.mod"
cp go.sum "$tmp/go.sum"
go mod edit -modfile="$tmp/go.mod" -replace=fyne.io/fyne/v2="$tmp/fyne"

if [ $# -eq 0 ]; then
  set -- "all drawn=" "no text=PD_SKIP=text" "no rectangles=PD_SKIP=rect" \
    "no images, gradients or circles=PD_SKIP=other" \
    "list pane not drawn (x < 515)=PD_SKIP_REGION=0,0,515,800" \
    "page above the rows not drawn=PD_SKIP_REGION=515,0,1280,195" \
    "item rows not drawn=PD_SKIP_REGION=515,195,1280,750"
fi
for variant in "$@"; do
  name=${variant%%=*}
  # shellcheck disable=SC2086 # the variant's settings are words on purpose
  line=$(env ${variant#*=} GOFLAGS="-modfile=$tmp/go.mod" PD_BENCH_ITEMS=500 REPS=0 \
    scripts/bench-desktop.sh 200 2>&1 | grep "500-item proposal: keystroke median" || echo "(no timing)")
  echo "frame-anatomy: $name: ${line#*keystroke }"
done
go build -o bin/ ./cmd/desktop
