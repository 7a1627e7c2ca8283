#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# What a user does first with an installed clhistogram, run against the
# installed files alone (the caller sets where those are: the system's own
# paths for the Debian packages, a --destdir folder for meson install):
# gst-inspect-1.0 finds the plugin there, the README's Python example and
# its C program, compiled with the installed pkg-config file, print their
# histograms, and the installed clhistogram-probe checks frames of vtest.avi
# against the golden reference.
#   tests/installed-check.sh README PLUGIN_DIR PROBE [PYTHON [FRAMES]]
# PLUGIN_DIR: where gst-inspect-1.0 must say the plugin was loaded from.
# PYTHON: a python3 with gi (Debian's /usr/bin/python3). FRAMES: how many
# frames of data/vtest.avi (beside README) the probe checks (default 2; 0:
# all of them).
set -eu
readme=$1 plugin_dir=$2 probe=$3 python=${4:-python3} frames=${5:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "=== gst-inspect-1.0 clhistogram"
gst-inspect-1.0 clhistogram > "$tmp/inspect.txt"
grep -E 'Long-name|Filename|Version' "$tmp/inspect.txt"
# The same file by another name counts: with Debian's merged /usr, GStreamer
# may name /lib/... for /usr/lib/...
loaded=$(awk '$1 == "Filename" {print $2; exit}' "$tmp/inspect.txt")
[ -n "$loaded" ] && [ "$(readlink -f "$loaded")" = "$(readlink -f "$plugin_dir/libgstclhistogram.so")" ] || {
  echo "installed-check: gst-inspect-1.0 loaded the plugin from '$loaded', not $plugin_dir"; exit 1; }

# The README's first python and first c blocks, as written there.
snippet() {
  awk -v lang="$1" '$0 == "```" lang {on = 1; next} on && /^```/ {exit} on' "$readme"
}

echo "=== README's Python example"
snippet python > "$tmp/example.py"
"$python" "$tmp/example.py" | tee "$tmp/python.txt"
grep -qE "^R \[" "$tmp/python.txt" || {
  echo "installed-check: the Python example printed no R channel"; exit 1; }

echo "=== README's C example"
snippet c > "$tmp/example.c"
# shellcheck disable=SC2046
cc -o "$tmp/example" "$tmp/example.c" \
  $(pkg-config --cflags --libs gstreamer-clhistogram-1.0)
"$tmp/example" | tee "$tmp/c.txt"
[ "$(grep -c 'dark pixels of 3072' "$tmp/c.txt")" -eq 3 ] || {
  echo "installed-check: the C example did not print three frames"; exit 1; }

echo "=== installed clhistogram-probe"
"$probe" --help > /dev/null
"$probe" --version
video="$(dirname "$readme")/data/vtest.avi"
if [ -f "$video" ]; then
  if [ "$frames" -eq 0 ]; then max=""; else max="--max-frames $frames"; fi
  # shellcheck disable=SC2086
  "$probe" --check $max --no-counts "$video" > "$tmp/probe.jsonl"
  n=$("$python" -c 'import json, sys; print(len([json.loads(l) for l in sys.stdin]))' \
    < "$tmp/probe.jsonl")
  echo "$n JSON lines"
  if [ "$frames" -eq 0 ]; then want=795; else want=$frames; fi
  [ "$n" -eq "$want" ] || {
    echo "installed-check: the installed probe printed $n frames, not $want"; exit 1; }
else
  echo "installed-check: no $video, the probe is not run on frames"
fi
echo "installed-check: OK"
