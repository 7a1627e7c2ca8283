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
python3 - "$root/build/meson-logs/testlog.json" <<'PY'
import json, sys
tally = {}
with open(sys.argv[1]) as f:
    for line in f:
        if line.strip():
            result = json.loads(line)["result"]
            tally[result] = tally.get(result, 0) + 1
passed = tally.get("OK", 0) + tally.get("EXPECTEDFAIL", 0)
skipped = tally.get("SKIP", 0)
failed = sum(tally.values()) - passed - skipped
print(f"{passed} passed, {failed} failed, {skipped} skipped")
PY
exit $status
