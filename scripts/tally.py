#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Prints "N passed, N failed, N skipped" over meson's testlog.json files."""
import json
import sys

tally = {}
for path in sys.argv[1:]:
    try:
        with open(path) as f:
            for line in f:
                if line.strip():
                    result = json.loads(line)["result"]
                    tally[result] = tally.get(result, 0) + 1
    except FileNotFoundError:
        tally["ERROR"] = tally.get("ERROR", 0) + 1
passed = tally.get("OK", 0) + tally.get("EXPECTEDFAIL", 0)
skipped = tally.get("SKIP", 0)
failed = sum(tally.values()) - passed - skipped
print(f"{passed} passed, {failed} failed, {skipped} skipped")
