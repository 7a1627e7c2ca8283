#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The main job: set up (packages, sample videos, build), then histogram every frame
# of OpenCV's vtest.avi scaled to 600x480 GRAY8 with clhistogram-probe, print
# each frame's histogram message as a line of JSON and check every frame
# against the golden reference (the summary comes last, on stderr).
#   scripts/run-vtest.sh [clhistogram-probe options, e.g. --format RGBA --mode channels]
# Options given here come after the defaults, so they win; --as-decoded
# counts the decoder's own frames.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
echo "run-vtest: building (ninja; a few minutes the first time on 2 cores)" >&2
ninja -C "$root/build"
export GST_PLUGIN_PATH="$root/build/gst"
cd "$root"
echo "run-vtest: counting every frame of data/vtest.avi and checking each against the golden reference" >&2
exec build/tools/clhistogram-probe --check --format GRAY8 --width 600 \
  --height 480 "$@" data/vtest.avi
