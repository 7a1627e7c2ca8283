#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The regions example of docs/reading.md from Python: ROI metas on frames an appsrc
pushes (a probe's buffer is not writable from Python),
every region's histogram listed from the buffer and checked against counts
made here from the frame's bytes (GRAY8, so a region's bytes are its
samples)."""
import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstVideo", "1.0")
gi.require_version("GstClHistogram", "1.0")
from gi.repository import Gst, GstVideo, GstClHistogram  # noqa: E402

WIDTH, HEIGHT, BINS = 96, 64, 16
WINDOWS = [("target", 3, (10, 12, 30, 20)), ("target", 4, (80, 50, 40, 40))]


def frame_with_windows(data):
    buffer = Gst.Buffer.new_wrapped(data)
    for kind, ident, (x, y, w, h) in WINDOWS:
        roi = GstVideo.buffer_add_video_region_of_interest_meta(
            buffer, kind, x, y, w, h)
        roi.id = ident
    return buffer


def expected(data, x, y, w, h):
    x1, y1 = min(x + w, WIDTH), min(y + h, HEIGHT)
    counts = [0] * BINS
    for row in range(y, y1):
        for v in data[row * WIDTH + x:row * WIDTH + x1]:
            counts[v * BINS // 256] += 1
    return counts, (x, y, x1 - x, y1 - y)


def main():
    Gst.init(None)
    pipeline = Gst.parse_launch(
        f"appsrc name=src caps=video/x-raw,format=GRAY8,width={WIDTH},"
        f"height={HEIGHT},framerate=30/1 format=time ! "
        f"clhistogram bins={BINS} zones=2x2 ! appsink name=sink")
    data = bytes((x * 7 + y * 13) % 256 for y in range(HEIGHT)
                 for x in range(WIDTH))
    pipeline.set_state(Gst.State.PLAYING)
    src = pipeline.get_by_name("src")
    src.emit("push-buffer", frame_with_windows(data))
    src.emit("end-of-stream")
    buffer = pipeline.get_by_name("sink").emit("pull-sample").get_buffer()
    pipeline.set_state(Gst.State.NULL)

    ok, info = buffer.map(Gst.MapFlags.READ)
    assert ok
    data = bytes(info.data)
    buffer.unmap(info)

    metas = GstClHistogram.buffer_get_histogram_metas(buffer)
    names = [(m.region.type, m.region.id) for m in metas]
    assert names == [("frame", 0), ("zone", 0), ("zone", 1), ("zone", 2),
                     ("zone", 3), ("target", 3), ("target", 4)], names
    for kind, ident, rect in WINDOWS:
        meta = GstClHistogram.buffer_get_histogram_meta_for_region(
            buffer, kind, ident)
        counts, clipped = expected(data, *rect)
        r = meta.region
        assert (r.x, r.y, r.width, r.height) == clipped, clipped
        assert meta.get_counts(0) == counts, (kind, ident)
        print(kind, ident, clipped, counts)
    print("ok")


if __name__ == "__main__":
    main()
