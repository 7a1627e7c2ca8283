#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Renders histogramoverlay's pictures for the documentation: one frame of
a video through `clhistogram ... ! histogramoverlay ...`, as PNG.

Usage: overlay-pictures.py VIDEO FRAME OUT.PNG 'CAPS' 'CLHISTOGRAM' 'OVERLAY'
  e.g. overlay-pictures.py data/vtest.avi 397 docs/images/x.png \\
       'video/x-raw,format=I420' 'clhistogram zones=5x5' \\
       'histogramoverlay zone-labels=true'

The frame is found by an accurate seek to FRAME / framerate; the caps
(after videoconvert and videoscale) choose the format and size drawn on.
Run it with the build's plugin on GST_PLUGIN_PATH.

docs/monitoring.md's pictures, frame 397 into docs/images/, each NAME.png with
CAPS, CLHISTOGRAM and OVERLAY:
  histogramoverlay-zones: 'video/x-raw,format=I420'
      'clhistogram zones=5x5' 'histogramoverlay graticule=ire zone-labels=true'
  histogramoverlay-400x300: 'video/x-raw,format=I420,width=400,height=300'
      'clhistogram zones=5x5' 'histogramoverlay'
  histogramoverlay-4k: 'video/x-raw,format=I420,width=3840,height=2160'
      'clhistogram zones=5x5' 'histogramoverlay ! videocrop right=2400 bottom=1400'
  histogramoverlay: 'video/x-raw,format=RGBx,width=600,height=480'
      'clhistogram mode=channels' 'histogramoverlay'
"""

import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402


def main(argv):
    if len(argv) != 7:
        sys.stderr.write(__doc__)
        return 2
    video, frame, out, caps, counter, overlay = argv[1:]
    Gst.init(None)
    pipeline = Gst.parse_launch(
        f'filesrc location="{video}" ! decodebin ! videoconvert ! '
        f"videoscale ! {caps} ! {counter} ! {overlay} ! videoconvert ! "
        "video/x-raw,format=RGB ! pngenc snapshot=false ! "
        "appsink name=sink sync=false")
    sink = pipeline.get_by_name("sink")
    pipeline.set_state(Gst.State.PAUSED)
    pipeline.get_state(Gst.CLOCK_TIME_NONE)
    # vtest.avi is 10 frames/s; the seek lands on the frame's timestamp.
    sample = sink.emit("pull-preroll")
    rate = sample.get_caps()
    fps = Gst.Fraction(10, 1)
    structure = rate.get_structure(0)
    ok, num, den = structure.get_fraction("framerate")
    if ok and num > 0:
        fps = Gst.Fraction(num, den)
    position = int(frame) * Gst.SECOND * fps.denom // fps.num
    pipeline.seek_simple(Gst.Format.TIME,
                         Gst.SeekFlags.FLUSH | Gst.SeekFlags.ACCURATE,
                         position)
    pipeline.get_state(Gst.CLOCK_TIME_NONE)
    sample = sink.emit("pull-preroll")
    buffer = sample.get_buffer()
    ok, info = buffer.map(Gst.MapFlags.READ)
    with open(out, "wb") as f:
        f.write(info.data)
    buffer.unmap(info)
    pipeline.set_state(Gst.State.NULL)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
