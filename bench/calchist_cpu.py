#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""OpenCV's calcHist on the CPU, 256 bins of GRAY8 frames, timed on the
same kinds of frames bench/clh-pipeline-bench.c feeds clhistogram: 64
uniform random frames, 64 of one value (all 0) and, with --frames-file,
the raw packed WxH GRAY8 frames of a real video. For each content and
thread setting (cv2.setNumThreads: all CPUs, then 1), after a warm-up,
--runs blocks of --frames calls rotating over the frames are timed with
time.perf_counter() and time.process_time(); prints the median us/frame
and CPU us/frame, and --json FILE writes them.

    /usr/bin/python3 bench/calchist_cpu.py --frames-file /tmp/vtest.GRAY8
"""
import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

try:
    import cv2
except ImportError:
    sys.exit("calchist_cpu: no cv2 (Debian: python3-opencv, run with "
             "/usr/bin/python3)")


def contents(args):
    rng = np.random.default_rng(1)
    shape = (args.height, args.width)
    yield "uniform", [rng.integers(0, 256, shape, dtype=np.uint8)
                      for _ in range(64)]
    yield "one-value", [np.zeros(shape, np.uint8)] * 64
    if args.frames_file:
        raw = np.fromfile(args.frames_file, np.uint8)
        n = min(raw.size // (args.width * args.height), args.max_real)
        if n == 0:
            sys.exit(f"calchist_cpu: {args.frames_file} holds no "
                     f"{args.width}x{args.height} frame")
        yield f"real({n})", list(raw[:n * args.width * args.height].reshape(
            n, args.height, args.width))


def time_blocks(frames, args):
    for i in range(args.warmup):
        cv2.calcHist([frames[i % len(frames)]], [0], None, [256], [0, 256])
    wall, cpu = [], []
    for _ in range(args.runs):
        t, c = time.perf_counter(), time.process_time()
        for i in range(args.frames):
            cv2.calcHist([frames[i % len(frames)]], [0], None, [256],
                         [0, 256])
        wall.append((time.perf_counter() - t) / args.frames * 1e6)
        cpu.append((time.process_time() - c) / args.frames * 1e6)
    return statistics.median(wall), statistics.median(cpu)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--width", type=int, default=600)
    p.add_argument("--height", type=int, default=480)
    p.add_argument("--frames-file")
    p.add_argument("--max-real", type=int, default=64,
                   help="real frames rotated over (clh-pipeline-bench: 64)")
    p.add_argument("--frames", type=int, default=2000)
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--warmup", type=int, default=200)
    p.add_argument("--json")
    args = p.parse_args()

    rows = []
    print(f"OpenCV {cv2.__version__}, {os.cpu_count()} CPUs, GRAY8 "
          f"{args.width}x{args.height}, 256 bins")
    for name, frames in contents(args):
        for threads in (os.cpu_count(), 1):
            cv2.setNumThreads(threads)
            us, cpu_us = time_blocks(frames, args)
            rows.append({"content": name, "threads": threads,
                         "us_per_frame": us, "cpu_us_per_frame": cpu_us})
            print(f"calcHist {name:9s} threads={threads:<3d} "
                  f"{us:8.1f} us/frame {cpu_us:8.1f} CPU us/frame")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"opencv": cv2.__version__, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
