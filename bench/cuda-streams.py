#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Streams decoded by NVDEC, counted by clhistogram: from CUDA memory on the
device against the same pipeline through cudadownload.

Runs gst-launch-1.0 with N branches `filesrc ! demux ! parse ! decoder !
[cudadownload !] clhistogram mode=MODE ! fakesink`, each over the whole
clip, R times per way, alternating; reports the median frames/s of all
streams together, the host CPU (user + system) per frame, and the ratios.
Needs GStreamer's nvcodec plugin and an NVIDIA GPU (scripts/
device-cuda-check.sh runs it on the GPU machine).

  cuda-streams.py CLIP FRAMES [--streams 16] [--repeats 3]
      [--decoder "h264parse ! nvh264dec"] [--mode luma]
"""
import argparse
import resource
import statistics
import subprocess
import sys
import time


WAYS = {
    # counted from CUDA memory where it lies
    "cuda": '"video/x-raw(memory:CUDAMemory)" ! clhistogram mode={mode} ! ',
    # downloaded to the host first
    "cudadownload": "cudadownload ! clhistogram mode={mode} ! ",
    # decoded and dropped: the decoder's own ceiling
    "decode-only": '"video/x-raw(memory:CUDAMemory)" ! ',
}


def pipeline(args, way):
    demux = "matroskademux" if args.clip.endswith((".webm", ".mkv")) \
        else "qtdemux"
    branch = (f"filesrc location={args.clip} ! {demux} ! {args.decoder} ! "
              + WAYS[way].format(mode=args.mode) + "fakesink sync=false")
    return " ".join([branch] * args.streams)


def run_once(args, way):
    """Wall seconds and host CPU seconds of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    cmd = "gst-launch-1.0 -q " + pipeline(args, way)
    done = subprocess.run(cmd, shell=True, capture_output=True, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"failed ({done.returncode}): {cmd}\n{done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime
                                                - before.ru_stime)
    return wall, cpu


def main():
    p = argparse.ArgumentParser()
    p.add_argument("clip")
    p.add_argument("frames", type=int, help="frames in the clip")
    p.add_argument("--streams", type=int, default=16)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--decoder", default="h264parse ! nvh264dec")
    p.add_argument("--mode", default="luma")
    args = p.parse_args()

    frames = args.frames * args.streams
    runs = {way: [] for way in WAYS}
    run_once(args, "cuda")  # warm-up: caches, driver
    for _ in range(args.repeats):
        for way in WAYS:
            runs[way].append(run_once(args, way))
    result = {}
    for way, samples in runs.items():
        fps = statistics.median(frames / w for w, _ in samples)
        cpu_us = statistics.median(c / frames * 1e6 for _, c in samples)
        result[way] = (fps, cpu_us)
        print(f"{way:13s} {args.streams} streams: {fps:8.0f} frames/s "
              f"(runs: {', '.join(f'{frames / w:.0f}' for w, _ in samples)}),"
              f" host CPU {cpu_us:7.1f} us/frame")
    print("(decode-only: decoded, then dropped: the decoders' ceiling)")
    fps_ratio = result["cuda"][0] / result["cudadownload"][0]
    cpu_ratio = result["cuda"][1] / result["cudadownload"][1]
    print(f"cuda-streams streams={args.streams} mode={args.mode} "
          f"frames={frames} fps_cuda={result['cuda'][0]:.0f} "
          f"fps_download={result['cudadownload'][0]:.0f} "
          f"fps_ratio={fps_ratio:.2f} cpu_us_cuda={result['cuda'][1]:.1f} "
          f"cpu_us_download={result['cudadownload'][1]:.1f} "
          f"cpu_ratio={cpu_ratio:.2f}")


if __name__ == "__main__":
    main()
