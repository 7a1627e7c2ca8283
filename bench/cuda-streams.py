#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Streams decoded by NVDEC, counted by clhistogram: in place, from CUDA
memory imported into OpenCL, against the host way, the frames downloaded by
cudadownload into system memory and uploaded again.

Runs gst-launch-1.0 with N branches `filesrc ! demux ! parse ! decoder !
WAY ! fakesink`, each over the whole clip, R times per way, alternating;
reports the median frames/s of all streams together, the host CPU (user +
system) per frame, and the ratios. Each run's log (GST_DEBUG=clhistogram:4)
must say N times that its frames took the way it names ("counted where
they lie" in place, "frames in system memory" the host way), or the
benchmark stops: cudadownload hands CUDA memory on to an element that
accepts it, so the host way's caps leave the CUDA feature out. Where
nvidia-smi is there, each run is sampled (`nvidia-smi dmon -s ut`) for the
decoders' load and the bytes over PCIe.
Needs GStreamer's nvcodec plugin and an NVIDIA GPU (scripts/
device-cuda-check.sh runs it on the GPU machine).

  cuda-streams.py CLIP FRAMES [--streams 16] [--repeats 3]
      [--decoder "h264parse ! nvh264dec"] [--mode luma]
"""
import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time


# way: (the branch after the decoder, what its log says N times)
WAYS = {
    "in-place": ('"video/x-raw(memory:CUDAMemory)" ! clhistogram mode={mode}'
                 ' ! ', "frames in CUDA memory are counted where they lie"),
    "host": ('cudadownload ! video/x-raw ! clhistogram mode={mode} ! ',
             "frames in system memory are copied to the OpenCL device"),
    # decoded and dropped: the decoders' own ceiling
    "decode-only": ('"video/x-raw(memory:CUDAMemory)" ! ', None),
}
OTHER_WAYS = ("copied to the host and back",)


def pipeline(args, way):
    demux = "matroskademux" if args.clip.endswith((".webm", ".mkv")) \
        else "qtdemux"
    branch = (f"filesrc location={args.clip} ! {demux} ! {args.decoder} ! "
              + WAYS[way][0].format(mode=args.mode) + "fakesink sync=false")
    return " ".join([branch] * args.streams)


class Dmon:
    """nvidia-smi dmon over one run: the decoders' mean load (%) and the
    bytes over PCIe each way (MB/s samples, one a second)."""

    def __init__(self):
        self.proc = None
        if shutil.which("nvidia-smi"):
            self.proc = subprocess.Popen(
                ["nvidia-smi", "dmon", "-i", "0", "-s", "ut", "-d", "1"],
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)

    def stop(self):
        if not self.proc:
            return None
        self.proc.terminate()
        out, _ = self.proc.communicate()
        names, rows = None, []
        for line in out.splitlines():
            if line.startswith("# gpu"):
                names = line[1:].split()
            elif names and line.strip() and not line.startswith("#"):
                rows.append(dict(zip(names, line.split())))

        def column(name):
            return [float(r[name]) for r in rows
                    if r.get(name, "-").replace(".", "").isdigit()]
        dec, rx, tx = column("dec"), column("rxpci"), column("txpci")
        if not dec:
            return None
        return {"dec": statistics.mean(dec), "rx_mb": sum(rx),
                "tx_mb": sum(tx), "samples": len(dec)}


def run_once(args, way):
    """Wall seconds, host CPU seconds and the dmon sample of one run."""
    env = dict(os.environ, GST_DEBUG="clhistogram:4", GST_DEBUG_NO_COLOR="1")
    cmd = "gst-launch-1.0 -q " + pipeline(args, way)
    dmon = Dmon()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    done = subprocess.run(cmd, shell=True, capture_output=True, text=True,
                          env=env)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    sample = dmon.stop()
    if done.returncode != 0:
        sys.exit(f"failed ({done.returncode}): {cmd}\n{done.stderr[-2000:]}")
    said = WAYS[way][1]
    if said:
        took = done.stderr.count(said)
        others = sum(done.stderr.count(o) for o in OTHER_WAYS + tuple(
            w[1] for w in WAYS.values() if w[1] and w[1] != said))
        if took != args.streams or others:
            sys.exit(f"the {way} run's log says '{said}' {took} time(s) and "
                     f"another way {others} time(s), for {args.streams} "
                     f"streams:\n{cmd}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime
                                                - before.ru_stime)
    return wall, cpu, sample


def describe(way, args, samples, frames):
    fps = statistics.median(frames / w for w, _, _ in samples)
    cpu_us = statistics.median(c / frames * 1e6 for _, c, _ in samples)
    line = (f"{way:11s} {args.streams} streams: {fps:8.0f} frames/s "
            f"(runs: {', '.join(f'{frames / w:.0f}' for w, _, _ in samples)})"
            f", host CPU {cpu_us:7.1f} us/frame")
    dmons = [d for _, _, d in samples if d]
    if dmons:
        dec = statistics.median(d["dec"] for d in dmons)
        # MB/s samples a second apart: their sum is MB over the run.
        rx = statistics.median(d["rx_mb"] * 1e6 / frames for d in dmons)
        tx = statistics.median(d["tx_mb"] * 1e6 / frames for d in dmons)
        line += (f", NVDEC {dec:3.0f}% busy, PCIe {rx / 1e6:5.2f} MB/frame "
                 f"to the GPU, {tx / 1e6:5.2f} MB/frame from it")
    print(line)
    return fps, cpu_us


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
    run_once(args, "in-place")  # warm-up: caches, driver
    for _ in range(args.repeats):
        for way in WAYS:
            runs[way].append(run_once(args, way))
    result = {way: describe(way, args, samples, frames)
              for way, samples in runs.items()}
    print("(decode-only: decoded, then dropped: the decoders' ceiling; "
          "NVDEC % and PCIe from nvidia-smi dmon, one sample a second)")
    fps_ratio = result["in-place"][0] / result["host"][0]
    cpu_ratio = result["in-place"][1] / result["host"][1]
    print(f"cuda-streams clip={os.path.basename(args.clip)} "
          f"streams={args.streams} mode={args.mode} frames={frames} "
          f"fps_in_place={result['in-place'][0]:.0f} "
          f"fps_host={result['host'][0]:.0f} "
          f"fps_decode_only={result['decode-only'][0]:.0f} "
          f"fps_ratio={fps_ratio:.2f} "
          f"cpu_us_in_place={result['in-place'][1]:.1f} "
          f"cpu_us_host={result['host'][1]:.1f} cpu_ratio={cpu_ratio:.2f}")


if __name__ == "__main__":
    main()
