#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Builds clhistogram's Debian packages from this checkout on the Debian
# release this machine runs (12 or 13), as root: installs the build
# dependencies debian/control names, builds the binary packages with
# dpkg-buildpackage (running the build-time tests unless
# DEB_BUILD_OPTIONS has nocheck), checks them with lintian (an error
# fails the build) and copies the .debs into OUT_DIR.
#   scripts/build-packages.sh OUT_DIR
# A clean machine is Debian's way to build; scripts/debian-chroot.sh
# gives one:   scripts/debian-chroot.sh trixie pkg scripts/build-packages.sh /src/debs
set -eu
[ $# -eq 1 ] || { echo "usage: $0 OUT_DIR" >&2; exit 2; }
src=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC1091
. /etc/os-release
echo "build-packages: on $PRETTY_NAME" >&2

$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends dpkg-dev lintian
# One version number: meson's, which the changelog's must repeat.
meson_version=$(sed -n "s/^ *version *: *'\([^']*\)'.*/\1/p" "$src/meson.build" | head -n 1)
deb_version=$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version)
[ "$meson_version" = "$deb_version" ] || {
  echo "build-packages: meson.build says $meson_version, debian/changelog $deb_version" >&2
  exit 1
}
$sudo apt-get build-dep -y -q --no-install-recommends "$src"

# dpkg-buildpackage writes its packages beside the source folder.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/clhistogram-$deb_version"
(cd "$src" && tar --exclude='./build*' --exclude=./data --exclude=./.git \
  --exclude=./.device -cf - .) | tar -xf - -C "$work/clhistogram-$deb_version"
(cd "$work/clhistogram-$deb_version" && dpkg-buildpackage -b -us -uc)
changes=$(ls "$work"/*.changes)
echo "build-packages: lintian $(basename "$changes")" >&2
lintian --fail-on error --info --display-level '>=warning' "$changes"
cp "$work"/*.deb "$changes" "$out"/
echo "build-packages: in $out:" >&2
ls -l "$out" >&2
