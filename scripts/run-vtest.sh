#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The main job: set up (packages, vtest.avi, build), then histogram every frame
# of OpenCV's vtest.avi scaled to 600x480 with clhistogram, print each frame's
# histogram and check it against the golden reference.
#   scripts/run-vtest.sh [clhistogram-video options, e.g. --format RGBA --mode channels]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
ninja -C "$root/build"
export GST_PLUGIN_PATH="$root/build/gst/clhistogram"
exec "$root/build/tools/clhistogram-video" "$@" "$root/data/vtest.avi"
