#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Summarises bench/track-ab.sh's folder: for each size, track count and
message setting, the median us/frame of each build over its rounds (each
round's figure is clh-track-bench's median over its runs), the spread of
one build's rounds, and after / before."""
import glob
import os
import re
import statistics
import sys

out = sys.argv[1]
rows = {}
for path in sorted(glob.glob(os.path.join(out, "track-*-*-*.txt"))):
    m = re.match(r"track-(\d+x\d+)-(before|after)-(\d+)\.txt$", os.path.basename(path))
    if not m:
        continue
    size, side, _ = m.groups()
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) >= 6 and p[0] == "clcamshift" and p[1].isdigit():
                key = (size, int(p[1]), p[2])
                rows.setdefault(key, {}).setdefault(side, []).append(float(p[4]))
print("size       tracks msg  before us  after us  spread%  after/before")
for key in sorted(rows, key=lambda k: (int(k[0].split("x")[0]), k[1], k[2])):
    r = rows[key]
    if "before" not in r or "after" not in r:
        continue
    b, a = statistics.median(r["before"]), statistics.median(r["after"])
    spread = max((max(v) - min(v)) / statistics.median(v) * 100 for v in r.values())
    print(f"{key[0]:<10} {key[1]:>6} {key[2]:<4} {b:>9.1f} {a:>9.1f} {spread:>8.1f}  {a / b:>12.3f}")
