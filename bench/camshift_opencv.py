#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""OpenCV's CPU CamShift tracker loop, timed on the raw BGR frames and the
windows bench/clh-track-bench.c gives clcamshift, so that the two compare.

Frames: --frames-file holds WxH BGR frames, concatenated, rows in
GStreamer's default layout (padded to 4 bytes; packed when W is a multiple
of 4). Windows: a 4x4 grid over the frame, each window 1/8 of the frame's
width and height centred in its cell (cell i = row * 4 + col); N tracks take
windows 0..N-1.

Per track, once, from the first frame, the model of OpenCV's
samples/python/camshift.py: the window's 16-bin hue histogram ([0, 180])
under the inRange mask, normalised NORM_MINMAX to 0..255. Per frame
(the first included, as clcamshift tracks it):

    hsv = cvtColor(frame, COLOR_BGR2HSV)
    mask = inRange(hsv, (0, 60, 32), (180, 255, 255))
    per track: prob = calcBackProject([hsv], [0], model, [0, 180], 1)
               prob &= mask
               box, window = CamShift(prob, window, (COUNT | EPS, 10, 1))

(a track whose window has no area is skipped, as the sample does). For each
track count and each thread setting (cv2.setNumThreads: all CPUs, 1) the
tracks start afresh; after a warm-up of --warmup frames, --runs blocks of
--frames frames each (looping over the file's frames) are timed with
time.perf_counter() and time.process_time() (the process's CPU time, all
threads). Prints the median us/frame over the blocks, frames/s and CPU
us/frame, and --json FILE writes them.

    python3 bench/camshift_opencv.py --frames-file /tmp/vtest.BGR \\
        --width 600 --height 480 --tracks 1,16
"""
import argparse
import json
import os
import statistics
import sys
import time

try:
    import cv2
    import numpy as np
except ImportError as e:
    print(f"camshift_opencv.py needs OpenCV's and numpy's Python modules "
          f"({e}): apt-get install python3-opencv, or pip install "
          f"opencv-python-headless", file=sys.stderr)
    sys.exit(2)

GRID = 4
BINS = 16
LOW = np.array((0., 60., 32.))
HIGH = np.array((180., 255., 255.))
CRITERIA = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 10, 1)


def grid_window(i, width, height):
    """Window i of the 4x4 grid, as clh-track-bench.c's grid_window()."""
    col, row = i % GRID, i // GRID
    w, h = max(1, width // 8), max(1, height // 8)
    x = col * width // GRID + (width // GRID - w) // 2
    y = row * height // GRID + (height // GRID - h) // 2
    return (x, y, w, h)


def read_frames(path, width, height, limit):
    stride = (width * 3 + 3) & ~3
    size = stride * height
    total = os.path.getsize(path)
    n = total // size
    if n == 0:
        sys.exit(f"{path} holds {total} bytes, less than one {width}x{height}"
                 f" BGR frame ({size} bytes)")
    if total % size:
        print(f"warning: {path} ends with {total % size} bytes that are no "
              f"whole frame (wrong --width or --height?)", file=sys.stderr)
    if limit:
        n = min(n, limit)
    data = np.fromfile(path, dtype=np.uint8, count=n * size)
    rows = data.reshape(n, height, stride)[:, :, :width * 3]
    return rows.reshape(n, height, width, 3)


def make_tracks(first, n_tracks):
    """Each track's [window, model] from the first frame, as camshift.py
    makes its model."""
    height, width = first.shape[:2]
    hsv = cv2.cvtColor(first, cv2.COLOR_BGR2HSV)
    mask = cv2.inRange(hsv, LOW, HIGH)
    tracks = []
    for i in range(n_tracks):
        x, y, w, h = grid_window(i, width, height)
        hist = cv2.calcHist([hsv[y:y + h, x:x + w]], [0],
                            mask[y:y + h, x:x + w], [BINS], [0, 180])
        cv2.normalize(hist, hist, 0, 255, cv2.NORM_MINMAX)
        tracks.append([(x, y, w, h), hist.reshape(-1)])
    return tracks


def track_frame(frame, tracks):
    """One frame of the tracker loop; the number of non-empty boxes."""
    hsv = cv2.cvtColor(frame, cv2.COLOR_BGR2HSV)
    mask = cv2.inRange(hsv, LOW, HIGH)
    found = 0
    for t in tracks:
        window, model = t
        if window[2] <= 0 or window[3] <= 0:
            continue
        prob = cv2.calcBackProject([hsv], [0], model, [0, 180], 1)
        prob &= mask
        box, t[0] = cv2.CamShift(prob, window, CRITERIA)
        found += box[1][0] > 0 and box[1][1] > 0
    return found


def run(frames, n_tracks, threads, args):
    cv2.setNumThreads(threads)
    tracks = make_tracks(frames[0], n_tracks)
    models = sum(1 for _, m in tracks if m.any())
    n = len(frames)
    index = 0
    for _ in range(args.warmup):
        track_frame(frames[index % n], tracks)
        index += 1
    wall, cpu = [], []
    found = 0
    for _ in range(args.runs):
        t0, c0 = time.perf_counter(), time.process_time()
        for _ in range(args.frames):
            found = track_frame(frames[index % n], tracks)
            index += 1
        t1, c1 = time.perf_counter(), time.process_time()
        wall.append((t1 - t0) * 1e6 / args.frames)
        cpu.append((c1 - c0) * 1e6 / args.frames)
    return {
        "tracks": n_tracks, "threads": cv2.getNumThreads(),
        "us_per_frame": round(statistics.median(wall), 2),
        "cpu_us_per_frame": round(statistics.median(cpu), 2),
        "frames_per_s": round(1e6 / statistics.median(wall), 1),
        "runs_us": [round(v, 2) for v in wall],
        "runs_cpu_us": [round(v, 2) for v in cpu],
        "nonzero_models": models, "boxes_last_frame": int(found),
    }


def int_list(text, lo, hi, what):
    try:
        values = [int(v) for v in text.split(",")]
    except ValueError:
        values = []
    if not values or any(v < lo or v > hi for v in values):
        raise argparse.ArgumentTypeError(
            f"{what}: a list of numbers from {lo} to {hi}, e.g. 1,16")
    return values


def main():
    cpus = len(os.sched_getaffinity(0))
    p = argparse.ArgumentParser(
        description="OpenCV's CPU CamShift loop on raw BGR frames")
    p.add_argument("--frames-file", required=True)
    p.add_argument("--width", type=int, required=True)
    p.add_argument("--height", type=int, required=True)
    p.add_argument("--tracks", default="1,16",
                   type=lambda s: int_list(s, 1, GRID * GRID, "--tracks"),
                   help="track counts, 1..16 (default 1,16)")
    p.add_argument("--threads", default=f"{cpus},1",
                   type=lambda s: int_list(s, 1, 4096, "--threads"),
                   help=f"cv2.setNumThreads settings (default {cpus},1: "
                   "all CPUs, then one)")
    p.add_argument("--frames", type=int, default=200,
                   help="frames per timed block (default 200)")
    p.add_argument("--warmup", type=int, default=10,
                   help="frames of the warm-up (default 10)")
    p.add_argument("--runs", type=int, default=5,
                   help="timed blocks per setting (default 5)")
    p.add_argument("--file-frames", type=int, default=0,
                   help="use only the file's first N frames (default all)")
    p.add_argument("--json", help="write the results here")
    args = p.parse_args()
    if args.width < 1 or args.height < 1 or args.frames < 1 \
            or args.runs < 1 or args.warmup < 0 or args.file_frames < 0:
        p.error("sizes, --frames and --runs must be positive")

    frames = read_frames(args.frames_file, args.width, args.height,
                         args.file_frames)
    print(f"{args.frames_file}: {len(frames)} frames of {args.width}x"
          f"{args.height} BGR; OpenCV {cv2.__version__}, {cpus} CPUs; blocks "
          f"of {args.frames} frames (warm-up {args.warmup}), {args.runs} "
          f"runs; median us/frame, min..max, CPU us/frame of the process")
    print(f"{'tracks':>6} {'threads':>7} {'us/frame':>10} {'min':>9} "
          f"{'max':>9} {'frames/s':>9} {'cpu us/fr':>10} {'models':>6} "
          f"{'boxes':>5}")
    results = []
    for n_tracks in args.tracks:
        for threads in args.threads:
            r = run(frames, n_tracks, threads, args)
            results.append(r)
            print(f"{n_tracks:>6} {r['threads']:>7} {r['us_per_frame']:>10.1f}"
                  f" {min(r['runs_us']):>9.1f} {max(r['runs_us']):>9.1f} "
                  f"{r['frames_per_s']:>9.1f} {r['cpu_us_per_frame']:>10.1f} "
                  f"{r['nonzero_models']:>6} {r['boxes_last_frame']:>5}",
                  flush=True)
    print("models: tracks whose model is not all 0; boxes: tracks with a "
          "non-empty box on the last frame")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"frames_file": args.frames_file, "width": args.width,
                       "height": args.height, "file_frames": len(frames),
                       "frames": args.frames, "warmup": args.warmup,
                       "runs": args.runs, "opencv": cv2.__version__,
                       "cpus": cpus, "rows": results}, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
