#!/usr/bin/env bash
# Checks the packages scripts/package.sh made in bin/dist: each carries
# the VERSION number (and so do FyneApp.toml and both Linux binaries'
# --version, run from inside the .debs), the MSI's tables hold the .exe,
# the Start-menu shortcut to it, the icon and the upgrade code, the zip
# holds the .exe, and the .debs hold what they promise. The Windows
# .exe's own --version is checked under Wine by scripts/smoke-windows.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in msiinfo dpkg-deb unzip; do
  command -v "$tool" >/dev/null || { echo "check-packages: $tool is missing (scripts/setup-debian.sh installs it)" >&2; exit 1; }
done

version=$(tr -d '[:space:]' <VERSION)
dist=bin/dist
msi="$dist/ProposalDesk-$version-x64.msi"
zipf="$dist/ProposalDesk-$version-x64.zip"
deb="$dist/proposal-desk_${version}_amd64.deb"
sdeb="$dist/proposal-desk-server_${version}_amd64.deb"
tarf="$dist/ProposalDesk-$version-linux-amd64.tar.xz"
fail() { echo "check-packages: $*" >&2; exit 1; }
for f in "$msi" "$zipf" "$deb" "$sdeb" "$tarf"; do
  [ -s "$f" ] || fail "$f is missing (run scripts/package.sh)"
done

grep -Eq "^\s*Version\s*=\s*\"$version\"" FyneApp.toml || fail "FyneApp.toml's Version is not $version"

# The MSI: msiinfo export prints a table as tab-separated rows.
file_table=$(msiinfo export "$msi" File)
grep -q 'ProposalDesk.exe' <<<"$file_table" || fail "the MSI's File table has no ProposalDesk.exe:"$'\n'"$file_table"
shortcut=$(msiinfo export "$msi" Shortcut)
# Shortcut row: Shortcut, Directory_, Name, Component_, Target, ...
awk -F'\t' '$2 == "ProgramMenuFolder" && $3 ~ /Proposal Desk/ && $5 ~ /ProposalDesk.exe/ { ok = 1 } END { exit !ok }' <<<"$shortcut" ||
  fail "the MSI has no Start-menu shortcut to ProposalDesk.exe:"$'\n'"$shortcut"
props=$(msiinfo export "$msi" Property)
prop() { awk -F'\t' -v k="$1" '$1 == k { sub(/\r$/, "", $2); print $2 }' <<<"$props"; }
[ "$(prop ProductVersion)" = "$version" ] || fail "the MSI's ProductVersion is $(prop ProductVersion), want $version"
[ "$(prop UpgradeCode)" = "{0B531938-A550-4408-90A0-8437EA50E5F9}" ] || fail "the MSI's UpgradeCode is $(prop UpgradeCode): it must never change"
[ "$(prop ARPPRODUCTICON)" = "ProposalDesk.ico" ] || fail "the MSI gives the uninstall entry no icon"
upgrade=$(msiinfo export "$msi" Upgrade)
grep -q '{0B531938-A550-4408-90A0-8437EA50E5F9}' <<<"$upgrade" || fail "the MSI has no Upgrade row: a newer MSI would install beside an older one"

# Listings are read whole first: grep -q stops reading early, and under
# pipefail the writer's SIGPIPE would fail the check.
zip_list=$(unzip -l "$zipf")
grep -q "ProposalDesk-$version/ProposalDesk.exe" <<<"$zip_list" || fail "the zip has no ProposalDesk-$version/ProposalDesk.exe"

# The .debs: fields, files, and the binaries' --version from inside them.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for d in "$deb" "$sdeb"; do
  [ "$(dpkg-deb -f "$d" Version)" = "$version" ] || fail "$d has Version $(dpkg-deb -f "$d" Version), want $version"
done
dpkg-deb -x "$deb" "$work/desk"
dpkg-deb -x "$sdeb" "$work/srv"
for f in usr/bin/proposal-desk usr/share/applications/io.proposaldesk.desktop.desktop usr/share/icons/hicolor/512x512/apps/io.proposaldesk.desktop.png; do
  [ -s "$work/desk/$f" ] || fail "$deb lacks /$f"
done
grep -q '^Exec=proposal-desk$' "$work/desk/usr/share/applications/io.proposaldesk.desktop.desktop" || fail "the desktop file does not start proposal-desk"
grep -q '^ExecStart=/usr/bin/proposal-desk-server serve$' "$work/srv/lib/systemd/system/proposal-desk-server.service" || fail "$sdeb lacks its systemd unit"
got=$("$work/desk/usr/bin/proposal-desk" --version)
[ "$got" = "Proposal Desk desktop $version" ] || fail "proposal-desk --version says \"$got\", want $version"
got=$("$work/srv/usr/bin/proposal-desk-server" --version)
[ "$got" = "Proposal Desk server $version" ] || fail "proposal-desk-server --version says \"$got\", want $version"

tar_list=$(tar -tJf "$tarf")
grep -q 'usr/local/bin/proposal-desk$' <<<"$tar_list" || fail "the tar has no binary"

echo "check-packages: ok ($version)"
