#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""clhistogram's luma statistics against FFmpeg's signalstats filter on every
frame of a real clip: YMIN, YLOW (p10), YAVG, YHIGH (p90) and YMAX of the
decoded Y plane, frames matched by timestamp. Both read the frames as the
decoder hands them out (GStreamer's avdec_* is FFmpeg's decoder), so they
see the same samples. YAVG is printed by signalstats with "%g"; the mean is
compared in that form."""
import json
import os
import subprocess
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

FIELDS = ("YMIN", "YLOW", "YAVG", "YHIGH", "YMAX")


def signalstats(video):
    """{pts in microseconds: (YMIN, YLOW, YAVG, YHIGH, YMAX)} from ffprobe."""
    tags = ",".join("lavfi.signalstats." + f for f in FIELDS)
    movie = "movie=" + video.replace("\\", "\\\\").replace(":", "\\:") \
        .replace("'", "\\'").replace(",", "\\,")
    out = subprocess.run(
        ["ffprobe", "-v", "error", "-f", "lavfi", movie + ",signalstats",
         "-show_entries", "frame=pts_time:frame_tags=" + tags,
         "-of", "json"], check=True, capture_output=True, text=True).stdout
    frames = {}
    for frame in json.loads(out)["frames"]:
        t = frame["tags"]
        key = round(float(frame["pts_time"]) * 1e6)
        frames[key] = tuple(t["lavfi.signalstats." + f] for f in FIELDS)
    return frames


def clhistogram(video):
    """{pts in microseconds: the same five figures} from the element's
    messages, the mean in signalstats' "%g"."""
    Gst.init(None)
    pipeline = Gst.parse_launch(
        "filesrc name=src ! decodebin ! clhistogram name=h "
        "percentiles=\"<10.0, 90.0>\" ! fakesink")
    pipeline.get_by_name("src").set_property("location", video)
    bus = pipeline.get_bus()
    pipeline.set_state(Gst.State.PLAYING)
    frames = {}
    while True:
        msg = bus.timed_pop_filtered(
            60 * Gst.SECOND, Gst.MessageType.ELEMENT | Gst.MessageType.EOS
            | Gst.MessageType.ERROR)
        if msg is None or msg.type != Gst.MessageType.ELEMENT:
            break
        s = msg.get_structure()
        if s.get_name() != "histogram":
            continue
        p10, p90 = s.get_value("percentiles")[0]
        key = round(s.get_value("timestamp") / 1e3)
        frames[key] = (str(s.get_value("min")[0]), str(p10),
                       "%g" % s.get_value("mean")[0], str(p90),
                       str(s.get_value("max")[0]))
    pipeline.set_state(Gst.State.NULL)
    if msg is None or msg.type == Gst.MessageType.ERROR:
        sys.exit("the pipeline failed: %s" % (msg.parse_error(),)
                 if msg else "the pipeline timed out")
    return frames


def main():
    video = os.environ.get("CLH_TEST_VIDEO", "data/vtest.avi")
    want = signalstats(video)
    got = clhistogram(video)
    assert len(want) > 0, "signalstats gave no frames"
    assert sorted(got) == sorted(want), (
        "frames differ: %d from clhistogram, %d from signalstats; first "
        "unmatched %s" % (len(got), len(want),
                          sorted(set(got) ^ set(want))[:5]))
    differ = [(t, got[t], want[t]) for t in sorted(want) if got[t] != want[t]]
    for t, g, w in differ[:10]:
        print("pts %d us: clhistogram %s, signalstats %s" % (t, g, w))
    print("%d frames of %s: %d differ from signalstats' %s"
          % (len(want), video, len(differ), "/".join(FIELDS)))
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
