#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The stress run's report (scripts/test.sh --stress N): over the runs'
testlog.json files, each test that did not pass in every run, with the
runs it failed in and how, then "N runs: N tests failed at least once".
Exits 1 if any did (or a run left no log).

Usage: stress-report.py TESTLOG.json...   (one file a run, in order)
"""
import json
import sys

PASSED = ("OK", "EXPECTEDFAIL", "SKIP")


def results(path):
    """{test name: its result} of one run's log; None if there is none."""
    try:
        with open(path, encoding="utf-8") as f:
            rows = [json.loads(line) for line in f if line.strip()]
    except FileNotFoundError:
        return None
    return {row["name"]: row["result"] for row in rows}


def main(paths):
    failures = {}
    missing = []
    for run, path in enumerate(paths, start=1):
        got = results(path)
        if got is None:
            missing.append(run)
            continue
        for name, result in got.items():
            if result not in PASSED:
                failures.setdefault(name, []).append((run, result))
    for name, runs in sorted(failures.items()):
        print("%s: failed in %d of %d runs: %s" % (
            name, len(runs), len(paths),
            ", ".join("run %d (%s)" % run for run in runs)))
    for run in missing:
        print("run %d: no test log (the run did not finish)" % run)
    print("%d runs: %d tests failed at least once" % (len(paths),
                                                     len(failures)))
    return 1 if failures or missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
