#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""clexposuremarks marks=brng against FFmpeg's `signalstats=out=brng`, byte
for byte, on every planar YUV layout both take (4:2:0, 4:2:2, 4:4:4, 4:1:1 at
8 bits; 4:2:0, 4:2:2, 4:4:4 at 10 and 12; 4:4:4 at 16): frames of vtest.avi,
random frames whose samples cover the whole range (so that every edge of the
broadcast range is crossed), and odd sizes. Both read the same raw frames;
the element's caps say BT.601 limited range, where its BRNG colour (yellow)
converts to the codes signalstats paints, (210, 16, 146) scaled by
2^(depth - 8). Each case must mark pixels, so that it cannot pass unmarked.

Where they differ (documented in the element's description): FFmpeg takes
no semi-planar, packed, RGB or gray formats, and converts other colours with
8-bit integer coefficients whatever the matrix.

usage: test_marks_ffmpeg.py VIDEO
"""
import os
import random
import shutil
import subprocess
import sys
import tempfile

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstVideo", "1.0")
from gi.repository import Gst, GstVideo  # noqa: E402

# (FFmpeg pix_fmt, GStreamer format, bytes per sample, depth, log2 chroma
# subsampling across, down)
LAYOUTS = [
    ("yuv420p", "I420", 1, 8, 1, 1),
    ("yuv422p", "Y42B", 1, 8, 1, 0),
    ("yuv444p", "Y444", 1, 8, 0, 0),
    ("yuv411p", "Y41B", 1, 8, 2, 0),
    ("yuv420p10le", "I420_10LE", 2, 10, 1, 1),
    ("yuv422p10le", "I422_10LE", 2, 10, 1, 0),
    ("yuv444p10le", "Y444_10LE", 2, 10, 0, 0),
    ("yuv420p12le", "I420_12LE", 2, 12, 1, 1),
    ("yuv422p12le", "I422_12LE", 2, 12, 1, 0),
    ("yuv444p12le", "Y444_12LE", 2, 12, 0, 0),
    ("yuv444p16le", "Y444_16LE", 2, 16, 0, 0),
]


def plane_sizes(layout, width, height):
    """(bytes a row, rows) of each plane as FFmpeg's rawvideo packs it."""
    _, _, bps, _, ws, hs = layout
    cw, ch = -(-width >> ws), -(-height >> hs)
    return [(width * bps, height), (cw * bps, ch), (cw * bps, ch)]


def ffmpeg_brng(layout, width, height, raw):
    """The frames of @raw through signalstats=out=brng."""
    pix = layout[0]
    out = subprocess.run(
        ["ffmpeg", "-v", "error", "-f", "rawvideo", "-pix_fmt", pix,
         "-s", "%dx%d" % (width, height), "-i", "-",
         "-vf", "signalstats=out=brng", "-f", "rawvideo", "-pix_fmt", pix,
         "-"], input=raw, check=True, capture_output=True).stdout
    if len(out) != len(raw):
        raise SystemExit("ffmpeg gave %d bytes for %d" % (len(out), len(raw)))
    return out


def to_gst(info, layout, width, height, frame):
    """A packed FFmpeg frame laid out as GStreamer's @info places it."""
    buf = bytearray(info.size)
    pos = 0
    for p, (row, rows) in enumerate(plane_sizes(layout, width, height)):
        for y in range(rows):
            at = info.offset[p] + y * info.stride[p]
            buf[at:at + row] = frame[pos:pos + row]
            pos += row
    return bytes(buf)


def from_gst(info, layout, width, height, data):
    """The inverse of to_gst()."""
    out = bytearray()
    for p, (row, rows) in enumerate(plane_sizes(layout, width, height)):
        for y in range(rows):
            at = info.offset[p] + y * info.stride[p]
            out += data[at:at + row]
    return bytes(out)


def element_brng(layout, width, height, raw):
    """The frames of @raw through clexposuremarks marks=brng, BT.601
    limited-range caps."""
    caps = Gst.Caps.from_string(
        "video/x-raw,format=%s,width=%d,height=%d,framerate=25/1,"
        "colorimetry=bt601" % (layout[1], width, height))
    info = GstVideo.VideoInfo.new_from_caps(caps)
    pipeline = Gst.parse_launch(
        "appsrc name=src format=time ! clexposuremarks marks=brng ! "
        "appsink name=sink sync=false")
    src = pipeline.get_by_name("src")
    sink = pipeline.get_by_name("sink")
    src.set_property("caps", caps)
    pipeline.set_state(Gst.State.PLAYING)
    frame_bytes = sum(r * n for r, n in plane_sizes(layout, width, height))
    out = bytearray()
    for i in range(len(raw) // frame_bytes):
        frame = raw[i * frame_bytes:(i + 1) * frame_bytes]
        buf = Gst.Buffer.new_wrapped(to_gst(info, layout, width, height,
                                            frame))
        buf.pts = i * Gst.SECOND // 25
        buf.duration = Gst.SECOND // 25
        if src.emit("push-buffer", buf) != Gst.FlowReturn.OK:
            raise SystemExit("push failed")
        sample = sink.emit("pull-sample")
        if sample is None:
            msg = pipeline.get_bus().pop_filtered(Gst.MessageType.ERROR)
            raise SystemExit("no frame out: %s" %
                             (msg.parse_error()[0].message if msg else "?"))
        b = sample.get_buffer()
        ok, m = b.map(Gst.MapFlags.READ)
        out += from_gst(info, layout, width, height, bytes(m.data))
        b.unmap(m)
    pipeline.set_state(Gst.State.NULL)
    return bytes(out)


def random_frames(layout, width, height, n, seed):
    """@n frames of random samples of the layout's depth."""
    rng = random.Random(seed)
    bps, depth = layout[2], layout[3]
    samples = sum(r * h for r, h in plane_sizes(layout, width, height)) // bps
    top = (1 << depth) - 1
    if bps == 1:
        return bytes(rng.randrange(256) for _ in range(samples * n))
    out = bytearray()
    for _ in range(samples * n):
        out += rng.randrange(top + 1).to_bytes(2, "little")
    return bytes(out)


def video_frames(video, layout, n):
    """The first @n frames of @video in the layout, as FFmpeg converts."""
    return subprocess.run(
        ["ffmpeg", "-v", "error", "-i", video, "-frames:v", str(n),
         "-pix_fmt", layout[0], "-f", "rawvideo", "-"],
        check=True, capture_output=True).stdout


def compare(name, layout, width, height, raw):
    want = ffmpeg_brng(layout, width, height, raw)
    got = element_brng(layout, width, height, raw)
    marked = sum(a != b for a, b in zip(raw, want))
    if marked == 0:
        raise SystemExit("%s: FFmpeg marked nothing: the case tests "
                         "nothing" % name)
    if got != want:
        i = next(k for k in range(len(got)) if got[k] != want[k])
        raise SystemExit("%s: byte %d is %d, FFmpeg's %d (input %d)"
                         % (name, i, got[i], want[i], raw[i]))
    print("ok %s: %d bytes, %d marked by both" % (name, len(got), marked))


def main():
    video = sys.argv[1]
    if not shutil.which("ffmpeg"):
        print("ffmpeg is not installed: skipped")
        return 77
    Gst.init(None)
    if not os.path.exists(video):
        raise SystemExit("no video at %s" % video)
    for layout in LAYOUTS:
        compare("%s vtest.avi" % layout[1], layout, 768, 576,
                video_frames(video, layout, 3))
        for k, (w, h) in enumerate([(64, 48), (37, 23), (1, 1), (5, 3)]):
            compare("%s random %dx%d" % (layout[1], w, h), layout, w, h,
                    random_frames(layout, w, h, 8, k))
    return 0


if __name__ == "__main__":
    sys.exit(main())
