#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Prints "N passed, N failed, N skipped" over meson's testlog.json files
(a file that is missing counts as one failure); with --stages FILE, first
a table of the stages scripts/ci-stage.sh timed: each stage's result and
wall time, those run inside another indented under it, and the whole
run's time (its outermost stages).

    tally.py [--stages STAGES.json] TESTLOG.json...
"""
import argparse
import json


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def minutes(seconds):
    return f"{seconds // 60:d}:{seconds % 60:02d}"


def stage_table(path):
    """The table's lines: stages in the order they started, a parent
    before what ran inside it."""
    try:
        stages = read_lines(path)
    except FileNotFoundError:
        return [f"(no stages: {path} is missing)"]
    stages.sort(key=lambda s: (s.get("start", 0), s.get("depth", 0)))
    outer = [s for s in stages if s.get("depth", 0) == 0]
    total = sum(s["duration"] for s in outer)
    width = max([len(s["name"]) + 2 * s.get("depth", 0) for s in stages]
                + [len("whole run")])
    lines = [f"{'stage':<{width}}  result  wall time  share"]
    for s in stages:
        name = "  " * s.get("depth", 0) + s["name"]
        share = f"{100 * s['duration'] / total:4.0f}%" if total else "    -"
        lines.append(f"{name:<{width}}  {s['result']:<6}  "
                     f"{minutes(s['duration']):>9}  {share}")
    lines.append(f"{'whole run':<{width}}  {'':<6}  {minutes(total):>9}")
    return lines


def tally(paths):
    counts = {}
    for path in paths:
        try:
            for result in read_lines(path):
                counts[result["result"]] = counts.get(result["result"], 0) + 1
        except FileNotFoundError:
            counts["ERROR"] = counts.get("ERROR", 0) + 1
    passed = counts.get("OK", 0) + counts.get("EXPECTEDFAIL", 0)
    skipped = counts.get("SKIP", 0)
    failed = sum(counts.values()) - passed - skipped
    return f"{passed} passed, {failed} failed, {skipped} skipped"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stages", metavar="STAGES.json")
    parser.add_argument("testlogs", nargs="*", metavar="TESTLOG.json")
    args = parser.parse_args()
    if args.stages:
        print("\n".join(stage_table(args.stages)))
    print(tally(args.testlogs))


if __name__ == "__main__":
    main()
