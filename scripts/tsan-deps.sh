#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Builds GLib, GStreamer and the parts of gst-plugins-base the concurrency
# tests use, with -fsanitize=thread, into build-tsan-deps/prefix, from the
# Debian 12 source packages of the versions installed (patches applied).
#
# Why: GLib 2.74 implements GMutex and GCond with futex system calls, and
# GStreamer's reference counts are inline atomics; in the distribution's
# uninstrumented libraries ThreadSanitizer sees neither, and reports every
# hand-off through a lock as a race. Built with the sanitizer, both are
# atomics it models.
#
# Needs network access to deb.debian.org: the build tools are installed
# as scripts/setup.sh installs packages; the sources come through a private
# apt source list (the system's apt configuration is not touched). About
# 10 minutes on 2 cores; a second run reuses what it built.
#   scripts/tsan-deps.sh        then  scripts/sanitize.sh tsan
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
deps="$root/build-tsan-deps"
prefix="$deps/prefix"
stamp="$prefix/.complete"
[ -f "$stamp" ] && { echo "tsan-deps: $prefix is built"; exit 0; }
mkdir -p "$deps/apt/lists/partial" "$deps/apt/cache" "$deps/src"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q \
  --no-install-recommends dpkg-dev flex bison > /dev/null

# A private source list and index: deb-src lines for the release, its
# updates and security archive, where the installed versions come from.
cat > "$deps/apt/sources.list" <<EOF
deb-src http://deb.debian.org/debian bookworm main
deb-src http://deb.debian.org/debian bookworm-updates main
deb-src http://deb.debian.org/debian-security bookworm-security main
EOF
apt_opts="-o Dir::Etc::SourceList=$deps/apt/sources.list \
  -o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists=$deps/apt/lists \
  -o Dir::Cache=$deps/apt/cache -o APT::Sandbox::User=root"
# shellcheck disable=SC2086
apt-get -q $apt_opts update > /dev/null

# The installed binary package's version names its source; where that
# version's source is gone from the archive, the release's own is taken
# (same upstream tarball, fewer Debian patches).
fetch_source() {
  src=$1 binpkg=$2
  ver=$(dpkg-query -W -f='${Version}' "$binpkg")
  (cd "$deps/src" &&
    # shellcheck disable=SC2086
    { apt-get -q $apt_opts source "$src=$ver" > /dev/null 2>&1 ||
      apt-get -q $apt_opts source "$src/bookworm" > /dev/null; })
}

# Configures, builds and installs one source tree; on failure shows the end
# of its log.
build() {
  dir=$1; shift
  log="$deps/build-$dir.log"
  if ! { [ -f "$deps/build-$dir/build.ninja" ] ||
      PKG_CONFIG_PATH="$prefix/lib/pkgconfig" meson setup \
        "$deps/build-$dir" "$deps/src/$dir" --prefix="$prefix" --libdir=lib \
        --buildtype=debugoptimized -Db_sanitize=thread -Db_lundef=false \
        "$@"; } > "$log" 2>&1 ||
    ! ninja -C "$deps/build-$dir" install >> "$log" 2>&1; then
    tail -n 30 "$log" >&2
    echo "tsan-deps: building $dir failed; the whole log is $log" >&2
    exit 1
  fi
}

[ -d "$deps/src/glib" ] || { fetch_source glib2.0 libglib2.0-0 &&
  mv "$deps"/src/glib2.0-*/ "$deps/src/glib"; }
[ -d "$deps/src/gstreamer" ] || { fetch_source gstreamer1.0 libgstreamer1.0-0 &&
  mv "$deps"/src/gstreamer1.0-*/ "$deps/src/gstreamer"; }
[ -d "$deps/src/base" ] || {
  fetch_source gst-plugins-base1.0 libgstreamer-plugins-base1.0-0 &&
  mv "$deps"/src/gst-plugins-base1.0-*/ "$deps/src/base"; }

echo "tsan-deps: GLib"
build glib -Dtests=false -Dinstalled_tests=false -Dman=false \
  -Dgtk_doc=false -Dnls=disabled -Dselinux=disabled -Dxattr=false \
  -Dlibmount=disabled -Dsysprof=disabled
echo "tsan-deps: GStreamer"
build gstreamer -Dtests=disabled -Dexamples=disabled -Dbenchmarks=disabled \
  -Dintrospection=disabled -Ddoc=disabled -Dnls=disabled \
  -Dlibunwind=disabled -Dlibdw=disabled -Dbash-completion=disabled \
  -Dptp-helper-permissions=none -Dcheck=enabled -Dtools=enabled
echo "tsan-deps: gst-plugins-base (app, videotestsrc, videoconvertscale)"
build base -Dauto_features=disabled -Dapp=enabled -Dvideotestsrc=enabled \
  -Dvideoconvertscale=enabled -Dintrospection=disabled -Dtests=disabled \
  -Dexamples=disabled -Dtools=disabled -Ddoc=disabled -Dnls=disabled \
  -Dorc=disabled
touch "$stamp"
echo "tsan-deps: built in $prefix"
