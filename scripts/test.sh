#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Set up (packages, vtest.avi, build), build and run the test suite; the
# last line says "N passed, N failed, N skipped". Exits non-zero on a
# failure.
#   scripts/test.sh           the quick run: every test, formats sampled
#                             one of each layout, a short fuzz, one video
#   scripts/test.sh --full    the thorough run CI makes: every format and
#                             size, every video check, the 90 s fuzz, the
#                             Python tracker pipelines
# (tests/meson.build, "Two runs of the suites", says which test is where.)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
case "${1:-}" in
  "") skip=slow ;;
  --full) skip=fast ;;
  *) echo "usage: $0 [--full]" >&2; exit 2 ;;
esac
"$root/scripts/setup.sh"
echo "test: building (ninja)" >&2
ninja -C "$root/build"
status=0
echo "test: running the tests (meson test --no-suite $skip)" >&2
meson test -C "$root/build" --print-errorlogs --no-suite "$skip" || status=$?
python3 "$root/scripts/tally.py" "$root/build/meson-logs/testlog.json"
exit $status
