#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""clcamshift's tracks as GStreamer's analytics metadata, read from Python
through the GstAnalytics typelib (GStreamer 1.24 or later; Debian:
gir1.2-gst-plugins-bad-1.0), as an application reads them: every frame's
GstAnalyticsODMtd box and GstAnalyticsTrackingMtd track against the same
frame's `camshift` message; then a track started by a box an application
attaches to a frame (track-label), named by the tracking mtd the box
relates to."""
import math
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstAnalytics", "1.0")
from gi.repository import GLib, Gst, GstAnalytics  # noqa: E402

RELATE_TO = GstAnalytics.RelTypes.RELATE_TO


def run(pipeline, push=None):
    """Plays @pipeline (appsink "sink"; appsrc "src" fed by @push) to its
    end: its buffers and its camshift messages, in order."""
    pipeline.set_state(Gst.State.PLAYING)
    if push:
        push(pipeline.get_by_name("src"))
    sink = pipeline.get_by_name("sink")
    buffers = []
    while True:
        sample = sink.emit("pull-sample")
        if sample is None:
            break
        buffers.append(sample.get_buffer())
    bus = pipeline.get_bus()
    messages = []
    while True:
        msg = bus.pop()
        if msg is None:
            break
        if msg.type == Gst.MessageType.ERROR:
            sys.exit(f"error: {msg.parse_error()}")
        s = msg.get_structure()
        if msg.type == Gst.MessageType.ELEMENT and s is not None \
                and s.has_name("camshift"):
            messages.append(s)
    pipeline.set_state(Gst.State.NULL)
    return buffers, messages


def track_mtds(buf):
    """The `camshift` boxes of @buf and the tracking mtds, as lists."""
    rmeta = GstAnalytics.buffer_get_analytics_relation_meta(buf)
    assert rmeta is not None, "no GstAnalyticsRelationMeta"
    boxes, tracks = [], []
    for mtd in rmeta:
        if isinstance(mtd, GstAnalytics.ODMtd):
            if GLib.quark_to_string(mtd.get_obj_type()) == "camshift":
                boxes.append(mtd)
        elif isinstance(mtd, GstAnalytics.TrackingMtd):
            tracks.append(mtd)
    return rmeta, boxes, tracks


def check_box(box, msg, what):
    """The box mtd against the message's rotated box (OpenCV's angle in
    degrees; GStreamer 1.26's oriented box turns clockwise in radians)."""
    cx, cy = msg.get_double("center-x")[1], msg.get_double("center-y")[1]
    w, h = msg.get_double("width")[1], msg.get_double("height")[1]
    angle = msg.get_double("angle")[1]
    if hasattr(box, "get_oriented_location"):
        ok, x, y, bw, bh, r, conf = box.get_oriented_location()
        assert ok
        assert abs(r - math.radians(angle)) < 1e-5, (what, r, angle)
        assert abs(bw - w) <= 0.5 and abs(bh - h) <= 0.5, (what, bw, bh, w, h)
        assert abs(x + bw / 2 - cx) <= 1 and abs(y + bh / 2 - cy) <= 1, \
            (what, x, y, cx, cy)
    ok, x, y, bw, bh, conf = box.get_location()
    # The location confidence is the track's, as a float.
    want = msg.get_double("confidence")[1]
    assert ok and abs(conf - want) <= 1e-6 * max(1.0, want), (what, conf, want)
    assert x <= cx <= x + bw and y <= cy <= y + bh, (what, x, y, bw, bh, cx,
                                                     cy)


def ball():
    """The element's example: a window on videotestsrc's orange ball."""
    pipeline = Gst.parse_launch(
        "videotestsrc pattern=ball foreground-color=0xffff8000 "
        "num-buffers=20 ! video/x-raw,format=BGRx,width=320,height=240 ! "
        "clcamshift window=\"<140, 100, 40, 40>\" ! "
        "appsink name=sink sync=false")
    buffers, messages = run(pipeline)
    assert len(buffers) == 20 and len(messages) == 20, (len(buffers),
                                                        len(messages))
    first = messages[0].get_uint64("running-time")[1]
    for i, (buf, msg) in enumerate(zip(buffers, messages)):
        what = f"frame {i}"
        rmeta, boxes, tracks = track_mtds(buf)
        assert len(boxes) == 1 and len(tracks) == 1, (what, boxes, tracks)
        box, track = boxes[0], tracks[0]
        assert rmeta.get_relation(box.id, track.id) & RELATE_TO, what
        ok, tid, first_seen, last_seen, lost = track.get_info()
        assert ok and tid == msg.get_uint("id")[1] == 0, (what, tid)
        assert first_seen == first, (what, first_seen, first)
        assert last_seen == msg.get_uint64("running-time")[1], (what,
                                                                last_seen)
        assert not lost and not msg.get_boolean("lost")[1], what
        check_box(box, msg, what)
    print(f"ball: {len(buffers)} frames, box and track as the messages say")


WIDTH, HEIGHT = 96, 64


def orange_square_frame(index):
    """A grey BGRx frame with an orange square at (20, 16), 16 pixels."""
    data = bytearray(b"\x80\x80\x80\x00" * (WIDTH * HEIGHT))
    for y in range(16, 32):
        for x in range(20, 36):
            data[(y * WIDTH + x) * 4:(y * WIDTH + x) * 4 + 3] = b"\x00\x80\xff"
    buf = Gst.Buffer.new_wrapped(bytes(data))
    buf.pts = index * Gst.SECOND // 30
    buf.duration = Gst.SECOND // 30
    return buf


def started_by_box():
    """A face box related to tracking id 7 on the first frame starts
    track 7 (track-label=face)."""
    pipeline = Gst.parse_launch(
        f"appsrc name=src format=time caps=video/x-raw,format=BGRx,"
        f"width={WIDTH},height={HEIGHT},framerate=30/1 ! "
        "clcamshift track-label=face ! appsink name=sink sync=false")

    def push(src):
        for i in range(3):
            buf = orange_square_frame(i)
            if i == 0:
                rmeta = GstAnalytics.buffer_add_analytics_relation_meta(buf)
                ok, od = rmeta.add_od_mtd(GLib.quark_from_string("face"),
                                          18, 14, 20, 20, 0.9)
                assert ok
                ok, trk = rmeta.add_tracking_mtd(7, 0)
                assert ok
                assert rmeta.set_relation(RELATE_TO, od.id, trk.id)
            src.emit("push-buffer", buf)
        src.emit("end-of-stream")

    buffers, messages = run(pipeline, push)
    assert len(buffers) == 3 and len(messages) == 3
    for i, (buf, msg) in enumerate(zip(buffers, messages)):
        what = f"frame {i}"
        assert msg.get_uint("id")[1] == 7, (what, msg.get_uint("id"))
        rmeta, boxes, tracks = track_mtds(buf)
        assert len(boxes) == 1, (what, boxes)
        related = [t for t in tracks
                   if rmeta.get_relation(boxes[0].id, t.id) & RELATE_TO]
        assert len(related) == 1, what
        ok, tid, first_seen, last_seen, lost = related[0].get_info()
        assert ok and tid == 7 and first_seen == 0, (what, tid, first_seen)
        assert last_seen == i * Gst.SECOND // 30 and not lost, (what,
                                                                last_seen)
        check_box(boxes[0], msg, what)
    print("started by a box: track 7 on every frame")


def main():
    Gst.init(None)
    ball()
    started_by_box()


if __name__ == "__main__":
    main()
