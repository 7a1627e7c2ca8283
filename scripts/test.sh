#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Set up (packages, vtest.avi, build), build and run the whole test suite; the
# last line says "N passed, N failed, N skipped". Exits non-zero on a failure.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
ninja -C "$root/build"
status=0
meson test -C "$root/build" --print-errorlogs || status=$?
python3 "$root/scripts/tally.py" "$root/build/meson-logs/testlog.json"
exit $status
