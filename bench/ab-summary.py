#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Reads what bench/ab-bench.sh wrote into OUT_DIR and prints, for each row
of the streams and regions benchmarks, the median of each build over its
rounds (over every timed run, for frames/s), the spread of one build's
values (max / min - 1: the noise), and after / before.

    bench/ab-summary.py OUT_DIR
"""
import glob
import json
import os
import re
import statistics
import sys


def rounds(out, kind, side):
    """The JSON files of one benchmark and build, one per round."""
    return sorted(glob.glob(os.path.join(out, f"{kind}-{side}-*.json")))


def streams_rows(path):
    with open(path) as f:
        doc = json.load(f)
    for row in doc["rows"]:
        if not row["histogram"] or row["skipped"]:
            continue
        key = (f'{row["streams"]} {row["format"]} msgs '
               f'{"on" if row["post_messages"] else "off"}')
        # Every timed run of the row, so that the noise is the runs' spread.
        for fps in row.get("aggregate_fps_runs") or [row["aggregate_fps"]]:
            yield key + " fps", fps
        yield key + " cpu us", row["cpu_us_per_frame"]


def regions_rows(path):
    with open(path) as f:
        # Builds before 2026-11-27 wrote C's "-nan" for a ratio to a kernel
        # time a device without profiling does not give.
        rows = json.loads(re.sub(r"-?\bnan\b", "NaN", f.read()))
    for row in rows:
        key = f'{row["width"]}x{row["height"]} {row["format"]} {row["histograms"]}'
        yield key + " e2e us", row["e2e_us"]


def collect(out, kind, reader):
    table = {}
    for side in ("before", "after"):
        for path in rounds(out, kind, side):
            try:
                for key, value in reader(path):
                    table.setdefault(key, {}).setdefault(side, []).append(value)
            except (OSError, ValueError, KeyError) as err:
                print(f"# {path}: {err}")
    return table


def spread(values):
    return max(values) / min(values) - 1 if values and min(values) > 0 else 0.0


def report(title, table):
    print(f"== {title}")
    print(f'{"row":44} {"before":>10} {"noise":>6} {"after":>10} {"noise":>6} {"after/before":>12}')
    for key, sides in table.items():
        b, a = sides.get("before", []), sides.get("after", [])
        if not b or not a:
            continue
        mb, ma = statistics.median(b), statistics.median(a)
        ratio = ma / mb if mb else float("nan")
        print(f"{key:44} {mb:10.1f} {spread(b):6.1%} {ma:10.1f} {spread(a):6.1%} {ratio:12.3f}")
    print()


def cpu_ratio(table):
    """Host CPU per frame with messages on over off, one stream, per build."""
    print("== messages on / off, host CPU per frame, one stream")
    for fmt in ("GRAY8", "RGBA"):
        for side in ("before", "after"):
            on = table.get(f"1 {fmt} msgs on cpu us", {}).get(side)
            off = table.get(f"1 {fmt} msgs off cpu us", {}).get(side)
            if on and off:
                print(f"{fmt:6} {side:7} {statistics.median(on) / statistics.median(off):.2f}x")
    print()


def main():
    out = sys.argv[1]
    one = collect(out, "one", streams_rows)
    report("one stream", one)
    cpu_ratio(one)
    report("64 streams", collect(out, "many", streams_rows))
    report("regions", collect(out, "regions", regions_rows))


if __name__ == "__main__":
    main()
