#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Installs the build into an empty folder (meson install --destdir) and runs
# tests/installed-check.sh against the installed files alone:
# GST_PLUGIN_PATH unset, the system's plugins and the installed ones only.
#   tests/install-test.sh BUILD_DIR README [PYTHON]
# PYTHON: a python3 with gi (Debian's /usr/bin/python3).
set -eu
build=$1 readme=$2 python=${3:-python3}
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

meson install -C "$build" --destdir "$root" --no-rebuild --quiet
prefix=$(meson introspect "$build" --buildoptions \
  | python3 -c 'import json,sys; print({o["name"]: o["value"] for o in json.load(sys.stdin)}["prefix"])')
libdir=$(dirname "$(find "$root" -name 'libgstclhistogram-1.0.so.0' | head -n 1)")
plugin=$(find "$root" -name 'libgstclhistogram.so')
[ -d "$libdir" ] && [ -f "$plugin" ] || { echo "install-test: nothing installed"; exit 1; }
echo "install-test: installed under $root$prefix"
for f in "$libdir/girepository-1.0/GstClHistogram-1.0.typelib" \
  "$libdir/pkgconfig/gstreamer-clhistogram-1.0.pc" \
  "$root$prefix/include/gstreamer-1.0/gst/clhistogram/clhistogram.h" \
  "$root$prefix/bin/clhistogram-probe" \
  "$root$prefix/share/man/man1/clhistogram-probe.1" \
  "$root$prefix/lib/systemd/system/clhistogram-probe.service" \
  "$root$prefix/lib/sysusers.d/clhistogram.conf" \
  "$root$prefix/share/clhistogram/clhistogram-alerts.yml"; do
  [ -f "$f" ] || { echo "install-test: $f is missing"; exit 1; }
done
# The unit runs the probe installed beside it.
grep -q "^ExecStart=$prefix/bin/clhistogram-probe " \
  "$root$prefix/lib/systemd/system/clhistogram-probe.service" || {
  echo "install-test: the unit's ExecStart is not $prefix/bin/clhistogram-probe"; exit 1; }
# Installed where the system looks, so that no variable is needed there.
case "$plugin" in
  "$root$prefix/lib/"*"/gstreamer-1.0/libgstclhistogram.so") ;;
  *) echo "install-test: the plugin went to $plugin"; exit 1 ;;
esac

unset GST_PLUGIN_PATH GST_PLUGIN_PATH_1_0 GST_TRACERS
system_plugins=$(pkg-config --variable=pluginsdir gstreamer-1.0)
export GST_PLUGIN_SYSTEM_PATH="$(dirname "$plugin"):$system_plugins"
export GST_REGISTRY="$root/registry.bin"
export LD_LIBRARY_PATH="$libdir"
export GI_TYPELIB_PATH="$libdir/girepository-1.0"
# The installed .pc says prefix=/usr: relocated to the folder, as a
# distribution's package would not need.
mkdir -p "$root/pkgconfig"
sed "s|^prefix=.*|prefix=$root$prefix|" "$libdir/pkgconfig/gstreamer-clhistogram-1.0.pc" \
  > "$root/pkgconfig/gstreamer-clhistogram-1.0.pc"
export PKG_CONFIG_PATH="$root/pkgconfig"

"$(dirname "$0")/installed-check.sh" "$readme" "$(dirname "$plugin")" \
  "$root$prefix/bin/clhistogram-probe" "$python"
echo "install-test: OK"
