#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The probe's index page of docs/probe.md and the README, as a browser
# shows it: clhistogram-probe --monitor-pictures 1 on three cameras'
# worth of inputs, each at its own pace (--sync):
#   - lobby: vtest.avi with 3x3 zones and a clipping alert at 2%, on
#     (its van and paper clip) by the time of the screenshot;
#   - door: Megamind.avi;
#   - yard: a camera on a port no one listens on, down;
# and headless chromium's screenshot of http://127.0.0.1:PORT/ once both
# pictures are there and lobby's alert is on, as probe-index.png.
#   scripts/probe-index-picture.sh [OUT_DIR]
set -eu -o pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/docs/images}
probe=${CLHISTOGRAM_PROBE:-$root/build/tools/clhistogram-probe}
export GST_PLUGIN_PATH=${GST_PLUGIN_PATH:-$root/build/gst}
export GST_DEBUG=${GST_DEBUG:-0}
command -v chromium > /dev/null || {
  echo "probe-index-picture.sh: no chromium (Debian's chromium package)" >&2
  exit 1
}
tmp=$(mktemp -d)
pid=
cleanup() {
  [ -z "$pid" ] || kill "$pid" 2> /dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat > "$tmp/cameras.conf" << EOF
[lobby]
uri=$root/data/vtest.avi
zones=3x3
alert-clipped=2

[door]
uri=$root/data/Megamind.avi

[yard]
uri=http://127.0.0.1:$port/stream
EOF
"$probe" --quiet --sync --metrics 127.0.0.1:0 --monitor-pictures 1 \
  --inputs "$tmp/cameras.conf" 2> "$tmp/stderr" &
pid=$!

# until: COMMAND... true within a minute, polled.
until_true() {
  local i
  for i in $(seq 600); do
    "$@" && return 0
    sleep 0.1
  done
  echo "probe-index-picture.sh: timed out waiting for: $*" >&2
  cat "$tmp/stderr" >&2
  exit 1
}
url_said() {
  grep -q '^clhistogram-probe: metrics on ' "$tmp/stderr"
}
until_true url_said
url=$(sed -n 's|^clhistogram-probe: metrics on \(.*\)/metrics$|\1/|p' \
  "$tmp/stderr")
ready() {
  curl -s "$url" > "$tmp/index.html" || return 1
  [ "$(grep -c '<img ' "$tmp/index.html")" = 2 ] \
    && grep -q 'class="alert active"' "$tmp/index.html" \
    && grep -q 'data-state="down"' "$tmp/index.html"
}
until_true ready

chromium --headless --no-sandbox --disable-gpu --no-first-run \
  --hide-scrollbars --user-data-dir="$tmp/profile" --window-size=1100,920 \
  --screenshot="$out/probe-index.png" "$url" > /dev/null 2>&1
echo "wrote $out/probe-index.png"
