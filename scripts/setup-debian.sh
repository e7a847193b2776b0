#!/usr/bin/env bash
# Installs what building and testing Proposal Desk needs on Debian 12:
# the C headers of Fyne's cgo GL driver, Xvfb and friends for real-window
# smoke tests, gnome-keyring for the real Secret Service, poppler for PDF
# text checks, PostgreSQL for the pgstore tests (a throwaway cluster each
# test binary), nginx for the replicas-behind-a-proxy test, chromium for
# the client page's browser tests (chromedp, headless), and for the
# Windows cross build, its MSI and its smoke run under Wine: mingw-w64's
# gcc with Win32 threads, wixl, msitools, wine64 (the wine32 half is not
# needed). Idempotent:
# installs only what is missing.
set -euo pipefail

pkgs=(
  gcc libc6-dev pkg-config
  libgl1-mesa-dev libx11-dev libxcursor-dev libxrandr-dev libxinerama-dev libxi-dev libxxf86vm-dev
  xvfb xauth xdotool imagemagick libgl1-mesa-dri
  dbus gnome-keyring
  poppler-utils
  postgresql nginx-light
  wrk jq # scripts/bench-get-wrk.sh
  gcc-mingw-w64-x86-64-win32 binutils-mingw-w64-x86-64 wixl msitools wine wine64 zip unzip
  chromium
)

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo_cmd apt-get update -qq
  $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

command -v go >/dev/null || { echo "setup: Go 1.26 is required (https://go.dev/dl/)" >&2; exit 1; }
go mod download
