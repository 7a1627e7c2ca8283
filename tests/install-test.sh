#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Installs the build into an empty folder (meson install --destdir) and runs
# gst-inspect-1.0, the README's Python example and its C program, compiled
# with the installed pkg-config file, and the installed clhistogram-probe
# (on data/vtest.avi beside the README, when it is there), against the
# installed files alone: GST_PLUGIN_PATH unset, the system's plugins and the
# installed ones only.
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
  "$root$prefix/share/man/man1/clhistogram-probe.1"; do
  [ -f "$f" ] || { echo "install-test: $f is missing"; exit 1; }
done
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

echo "=== gst-inspect-1.0 clhistogram"
gst-inspect-1.0 clhistogram | grep -E 'Long-name|Filename'
gst-inspect-1.0 clhistogram | grep -q "Filename.*$root" || {
  echo "install-test: gst-inspect-1.0 did not load the installed plugin"; exit 1; }

# The README's first python and first c blocks, as written there.
snippet() {
  awk -v lang="$1" '$0 == "```" lang {on = 1; next} on && /^```/ {exit} on' "$readme"
}

echo "=== README's Python example"
snippet python > "$root/example.py"
"$python" "$root/example.py" | tee "$root/python.txt"
grep -qE "^R \[" "$root/python.txt" || {
  echo "install-test: the Python example printed no R channel"; exit 1; }

echo "=== README's C example"
snippet c > "$root/example.c"
# shellcheck disable=SC2046
cc -o "$root/example" "$root/example.c" \
  $(pkg-config --cflags --libs gstreamer-clhistogram-1.0)
"$root/example" | tee "$root/c.txt"
[ "$(grep -c 'dark pixels of 3072' "$root/c.txt")" -eq 3 ] || {
  echo "install-test: the C example did not print three frames"; exit 1; }

echo "=== installed clhistogram-probe"
"$root$prefix/bin/clhistogram-probe" --help > /dev/null
"$root$prefix/bin/clhistogram-probe" --version
video="$(dirname "$readme")/data/vtest.avi"
if [ -f "$video" ]; then
  "$root$prefix/bin/clhistogram-probe" --check --max-frames 2 --no-counts \
    "$video" > "$root/probe.jsonl"
  python3 -c 'import json, sys; print(len([json.loads(l) for l in sys.stdin]), "JSON lines")' \
    < "$root/probe.jsonl" | tee "$root/probe.txt"
  grep -qx "2 JSON lines" "$root/probe.txt" || {
    echo "install-test: the installed probe did not print two frames"; exit 1; }
else
  echo "install-test: no $video, the probe is not run on frames"
fi
echo "install-test: OK"
