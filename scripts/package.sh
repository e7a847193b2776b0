#!/usr/bin/env bash
# Builds the release packages into bin/dist/, all carrying the number in
# VERSION:
#   ProposalDesk-<version>-x64.msi   Windows installer (wixl)
#   ProposalDesk-<version>-x64.zip   the same .exe, to run without installing
#   proposal-desk_<version>_amd64.deb         desktop app, on PATH as proposal-desk
#   proposal-desk-server_<version>_amd64.deb  server, with a systemd unit
#   ProposalDesk-<version>-linux-amd64.tar.xz  the desktop app as `fyne package` makes it
# `scripts/package.sh windows` or `linux` builds one half. The Windows
# .exe is a mingw cross build with cgo (Fyne's GL driver is C): cold it
# takes 10 minutes or more on 2 cores, so its flags below never vary and
# every later build (the Wine smoke run's included) is a cached relink.
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(tr -d '[:space:]' <VERSION)
dist=bin/dist
mkdir -p "$dist"
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(linux windows)

need() {
  for tool in "$@"; do
    command -v "$tool" >/dev/null || { echo "package: $tool is missing (scripts/setup-debian.sh installs it)" >&2; exit 1; }
  done
}

# The mingw compiler with Win32 threads: the .exe then needs no
# libwinpthread DLL beside it. Named explicitly (not the alternatives
# link) so the build cache key is the same on every machine.
export WINDOWS_CC=x86_64-w64-mingw32-gcc-win32

windows() {
  need "$WINDOWS_CC" x86_64-w64-mingw32-windres convert wixl zip
  local w=bin/win
  mkdir -p "$w"
  convert assets/icon.png -define icon:auto-resize=256,128,64,48,32,16 "$w/ProposalDesk.ico"
  # The icon and version resources, linked only into Windows builds.
  local commas
  commas=$(echo "$version" | tr . ,),0
  sed -e "s/@VERSION@/$version/g" -e "s/@COMMAS@/$commas/g" packaging/windows/ProposalDesk.rc.in >"$w/ProposalDesk.rc"
  x86_64-w64-mingw32-windres --include-dir "$w" -i "$w/ProposalDesk.rc" -O coff -o cmd/desktop/rsrc_windows_amd64.syso
  local t0=$SECONDS
  # -H windowsgui: no console window behind the app. -trimpath: no build
  # machine paths in the binary. Keep these flags as they are: a change
  # means another cold build.
  CGO_ENABLED=1 GOOS=windows GOARCH=amd64 CC="$WINDOWS_CC" \
    go build -trimpath -ldflags "-s -w -H windowsgui" -o "$w/ProposalDesk.exe" ./cmd/desktop
  echo "package: windows .exe built in $((SECONDS - t0)) s"

  local zipdir="$w/zip/ProposalDesk-$version"
  rm -rf "$w/zip" && mkdir -p "$zipdir"
  cp "$w/ProposalDesk.exe" "$zipdir/"
  rm -f "$dist/ProposalDesk-$version-x64.zip"
  (cd "$w/zip" && zip -q -r "../../../$dist/ProposalDesk-$version-x64.zip" "ProposalDesk-$version")

  wixl -a x64 -D Version="$version" -D Exe="$w/ProposalDesk.exe" -D Icon="$w/ProposalDesk.ico" \
    -o "$dist/ProposalDesk-$version-x64.msi" packaging/windows/ProposalDesk.wxs
}

# deb NAME DESCRIPTION DEPENDS STAGING_DIR [RECOMMENDS [POSTINST]]: a
# binary .deb of the staged tree.
deb() {
  local name=$1 desc=$2 depends=$3 root=$4 recommends=${5:-} postinst=${6:-}
  mkdir -p "$root/DEBIAN"
  cat >"$root/DEBIAN/control" <<EOF
Package: $name
Version: $version
Architecture: amd64
Maintainer: Proposal Desk <support@proposaldesk.io>
Section: misc
Priority: optional
Depends: $depends
${recommends:+Recommends: $recommends
}Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Homepage: https://github.com/proposaldesk/proposaldesk
Description: $desc
EOF
  [ -z "$postinst" ] || install -m 0755 "$postinst" "$root/DEBIAN/postinst"
  dpkg-deb --root-owner-group -Zxz --build "$root" "$dist/${name}_${version}_amd64.deb" >/dev/null
}

linux() {
  need dpkg-deb
  # The same build as the smoke test's (cached); -s -w only relinks.
  go build -ldflags "-s -w" -o bin/release/ ./cmd/desktop ./cmd/server
  local root=bin/deb
  rm -rf "$root"

  local d="$root/proposal-desk"
  install -D -m 0755 bin/release/desktop "$d/usr/bin/proposal-desk"
  install -D -m 0644 packaging/linux/proposal-desk.desktop "$d/usr/share/applications/io.proposaldesk.desktop.desktop"
  install -D -m 0644 assets/icon.png "$d/usr/share/icons/hicolor/512x512/apps/io.proposaldesk.desktop.png"
  # GLFW opens the X extension libraries at run time: list them here.
  deb proposal-desk "Offline-first sales proposals (desktop app)
 Proposal Desk keeps a salesperson's proposals on the laptop, works
 offline, and syncs with the dealer's Proposal Desk server." \
    "libc6, libgl1, libx11-6, libxcursor1, libxrandr2, libxinerama1, libxi6, libxxf86vm1" "$d" \
    "gnome-keyring" # the Secret Service keeps the sign-in; without it the app asks at every start

  local s="$root/proposal-desk-server"
  install -D -m 0755 bin/release/server "$s/usr/bin/proposal-desk-server"
  install -D -m 0644 packaging/linux/proposal-desk-server.service "$s/lib/systemd/system/proposal-desk-server.service"
  deb proposal-desk-server "Proposal Desk API server
 The server Proposal Desk's desktop apps sync with: accounts, users,
 proposals, the catalog. Installs a systemd unit, not enabled." \
    "libc6, adduser" "$s" "" packaging/linux/server.postinst

  # The tar the fyne tool makes (binary, .desktop file, icon, Makefile).
  # fyne rewrites FyneApp.toml (bumps Build): keep the committed one.
  (cd tools && go build -o ../bin/fyne fyne.io/tools/cmd/fyne)
  cp FyneApp.toml bin/FyneApp.toml.keep
  mkdir -p bin/fyne-stage
  cp bin/release/desktop bin/fyne-stage/proposal-desk
  ./bin/fyne package -os linux --src cmd/desktop --exe "$PWD/bin/fyne-stage/proposal-desk" --icon "$PWD/assets/icon.png" \
    --name "Proposal Desk" --app-id io.proposaldesk.desktop --app-version "$version" --release
  mv bin/FyneApp.toml.keep FyneApp.toml
  mv -f ./*.tar.xz "$dist/ProposalDesk-$version-linux-amd64.tar.xz"
}

for part in "${parts[@]}"; do
  case "$part" in
    windows) windows ;;
    linux) linux ;;
    *) echo "package: unknown part $part (linux, windows)" >&2; exit 2 ;;
  esac
done
ls -l "$dist"
