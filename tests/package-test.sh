#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Installs clhistogram's Debian packages with apt, as a user does (their
# recommendations too: PoCL, the CPU's OpenCL driver), on a machine that
# has never built clhistogram, and runs against the installed files alone:
# the README's main job (clhistogram-probe checking every frame of
# vtest.avi against the golden reference), a gst-launch-1.0 pipeline, the
# README's Python and C examples (tests/installed-check.sh), the tool's
# --version and its man page. Run as root in a fresh chroot
# (scripts/debian-ci.sh does).
#   tests/package-test.sh DEB_DIR
set -eu
[ $# -eq 1 ] || { echo "usage: $0 DEB_DIR" >&2; exit 2; }
debs=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC1091
. /etc/os-release
echo "package-test: on $PRETTY_NAME"
if [ -e "$src/build" ] || command -v meson >/dev/null; then
  echo "package-test: this machine has a build or meson: not a user's machine"; exit 1
fi

apt-get update -q
echo "=== apt-get install the packages"
# shellcheck disable=SC2046
apt-get install -y -q $(find "$debs" -name '*.deb' ! -name '*-dbgsym_*' | sort)
# What the examples need beyond the packages, as the README's install line
# names it: GStreamer's Python bindings, a C compiler, a demuxer and
# decoder for vtest.avi.
apt-get install -y -q --no-install-recommends python3-gi python3-gst-1.0 \
  gir1.2-gst-plugins-base-1.0 gcc libc6-dev pkgconf \
  gstreamer1.0-tools gstreamer1.0-plugins-good gstreamer1.0-libav
dpkg -l 'gstreamer1.0-clhistogram' 'libgstclhistogram*' 'gir1.2-gstclhistogram*' \
  'clhistogram-tools' 'pocl-opencl-icd' | grep '^ii'

plugin_dir=$(pkg-config --variable=pluginsdir gstreamer-1.0)
version=$(dpkg-query -W -f '${Version}' clhistogram-tools)

echo "=== clhistogram-probe --version"
clhistogram-probe --version | tee /tmp/version.txt
grep -q "clhistogram-probe $version" /tmp/version.txt || {
  echo "package-test: --version does not say $version"; exit 1; }

echo "=== man clhistogram-probe"
man_page=/usr/share/man/man1/clhistogram-probe.1.gz
[ -f "$man_page" ] || { echo "package-test: $man_page is missing"; exit 1; }
zcat "$man_page" | grep -q '^\.SH EXAMPLES' || {
  echo "package-test: the man page has no EXAMPLES"; exit 1; }

echo "=== the service's unit, alerting rule and dashboard"
unit=/usr/lib/systemd/system/clhistogram-probe.service
for f in "$unit" /usr/share/clhistogram/clhistogram-alerts.yml \
  /usr/share/clhistogram/grafana/clhistogram.json; do
  [ -f "$f" ] || { echo "package-test: $f is missing"; exit 1; }
done
grep -q '^ExecStart=/usr/bin/clhistogram-probe ' "$unit" || {
  echo "package-test: the unit does not run /usr/bin/clhistogram-probe"; exit 1; }
# The group that reads the cameras' key file, made by the postinst.
[ -f /usr/lib/sysusers.d/clhistogram.conf ] || {
  echo "package-test: /usr/lib/sysusers.d/clhistogram.conf is missing"; exit 1; }
getent group clhistogram > /dev/null || {
  echo "package-test: installing the package made no clhistogram group"; exit 1; }
grep -q '^SupplementaryGroups=video render clhistogram$' "$unit" || {
  echo "package-test: the unit's user is not in the clhistogram group"; exit 1; }
# Installed, not enabled: it waits for the cameras' key file.
if ls /etc/systemd/system/*.wants/clhistogram-probe.service 2>/dev/null; then
  echo "package-test: installing the package enabled the unit"; exit 1
fi

echo "=== the README's main job: every frame of vtest.avi, checked"
clhistogram-probe --check --quiet --format GRAY8 --width 600 --height 480 \
  --expect-frames 795 "$src/data/vtest.avi"

echo "=== gst-launch-1.0 -m"
gst-launch-1.0 -m videotestsrc num-buffers=3 ! video/x-raw,format=NV12,width=320,height=240 \
  ! clhistogram bins=16 ! fakesink > /tmp/launch.txt
[ "$(grep -c '(element): histogram, ' /tmp/launch.txt)" -eq 3 ] || {
  cat /tmp/launch.txt; echo "package-test: gst-launch-1.0 -m showed no 3 histogram messages"; exit 1; }

"$src/tests/installed-check.sh" "$src/README.md" "$plugin_dir" /usr/bin/clhistogram-probe \
  /usr/bin/python3 2
echo "package-test: OK"
