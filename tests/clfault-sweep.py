#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Fault injection at every OpenCL call the element and the engine make.

For each scenario of clfault-scenarios, a first run counts the calls of
each OpenCL function (through tests/libclfault.so); then, for every function
F and every N up to that count (capped, see below), the scenario runs again
in a process of its own with the Nth call of F failing. Every run must end
cleanly: exit status 0 (a clean element error or histograms equal to the
reference; a wrong count or a lost frame exits 1), no crash, no hang (a
timeout), no GStreamer leak or GLib warning (GST_TRACERS=leaks with
G_DEBUG=fatal-warnings abort the run) and no OpenCL object left unreleased
(clfault's report).

  clfault-sweep.py SCENARIOS_PROGRAM LIBCLFAULT [--max-n N] [--jobs J]
                   [--scenarios a,b]

--max-n caps N per function and scenario (default: $CLFAULT_SWEEP_MAX_N, or
6; 0 for every call: the full sweep, docs/reliability.md). The last line
says how many runs passed and failed.
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys
import tempfile
from timeouts import seconds

SCENARIOS = {
    # name: (argument, extra environment)
    "stream1": ("stream1", {}),
    "stream4": ("stream4", {}),
    "change": ("change", {}),
    "cycle": ("cycle", {}),
    "engine": ("engine", {}),
    "batch": ("batch", {}),
    "marks": ("marks", {}),
    # The kernels built from source, not read from the program cache.
    "engine-no-cache": ("engine", {"CLHISTOGRAM_CACHE_DIR": ""}),
}
# Releasing never fails in the shim: it would be a leak by construction.
NEVER_FAILS = ("clRelease", "clRetain")


def run(program, shim, scenario, fail=None, timeout=seconds(120)):
    argument, extra = SCENARIOS[scenario]
    fd, report = tempfile.mkstemp(prefix="clfault-", suffix=".txt")
    os.close(fd)
    env = dict(os.environ, LD_PRELOAD=shim, CLFAULT_REPORT=report,
               G_DEBUG="fatal-warnings,gc-friendly", **extra)
    env.pop("CLFAULT_FAIL", None)
    if fail:
        env["CLFAULT_FAIL"] = fail
    result = {"scenario": scenario, "fail": fail, "calls": {}, "held": {},
              "injected": False}
    try:
        proc = subprocess.run([program, argument], env=env, timeout=timeout,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, errors="replace")
        result["status"] = proc.returncode
        result["output"] = proc.stdout
    except OSError as e:
        result["status"] = f"could not run: {e}"
        result["output"] = ""
    except subprocess.TimeoutExpired as e:
        result["status"] = "hang"
        result["output"] = (e.stdout or b"").decode(errors="replace") \
            if isinstance(e.stdout, bytes) else (e.stdout or "")
    with open(report) as f:
        for line in f:
            kind, *rest = line.split()
            if kind == "calls":
                result["calls"][rest[0]] = int(rest[1])
            elif kind == "held":
                result["held"][rest[0]] = int(rest[1])
            elif kind == "injected":
                result["injected"] = rest[0] == "1"
    os.unlink(report)
    return result


def problems(result):
    found = []
    if result["status"] != 0:
        found.append(f"exit status {result['status']}")
    if not result["held"] and result["status"] != "hang":
        found.append("no clfault report (crashed before exit?)")
    held = {k: v for k, v in result["held"].items() if v != 0}
    if held:
        found.append(f"OpenCL objects not released: {held}")
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("program")
    parser.add_argument("shim")
    parser.add_argument("--max-n", type=int,
                        default=int(os.environ.get("CLFAULT_SWEEP_MAX_N", 6)))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--scenarios", default=",".join(SCENARIOS))
    args = parser.parse_args()
    scenarios = args.scenarios.split(",")

    cases = []
    failed = []
    for scenario in scenarios:
        clean = run(args.program, args.shim, scenario)
        found = problems(clean)
        if found:
            failed.append((clean, found))
            continue
        for func, count in sorted(clean["calls"].items()):
            if func.startswith(NEVER_FAILS):
                continue
            last = count if args.max_n == 0 else min(count, args.max_n)
            cases += [(scenario, f"{func}:{n}") for n in range(1, last + 1)]
        print(f"{scenario}: {sum(clean['calls'].values())} OpenCL calls "
              f"of {len(clean['calls'])} functions", flush=True)

    print(f"{len(cases)} injected failures (N up to "
          f"{args.max_n or 'every call'} per function)", flush=True)
    passed = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(run, args.program, args.shim, s, f): (s, f)
                   for s, f in cases}
        for future in concurrent.futures.as_completed(futures):
            result = future.result()
            found = problems(result)
            if found:
                failed.append((result, found))
            else:
                passed += 1

    for result, found in failed:
        print(f"FAIL {result['scenario']} {result['fail'] or '(no fault)'}: "
              f"{'; '.join(found)}")
        print("  " + "\n  ".join(result["output"].strip().splitlines()[-15:]))
    print(f"{passed} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
