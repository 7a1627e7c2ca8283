#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""An RTSP server on localhost for the probe's tests: gst-rtsp-server
(Debian's gir1.2-gst-rtsp-server-1.0) serving one clip at /clip as JPEG
over RTP, every client from the clip's first frame.

    rtsp-server.py [--port PORT] [--frames N] [--fps F] [--video FILE]

The clip is N frames (default 100) of videotestsrc at F frames a second
(default 10), 160x120, or with --video the first N frames of FILE scaled
to 160x120. PORT 0 (the default) binds any free port. Once the server
listens, its URL goes to stdout as one line, e.g.
rtsp://127.0.0.1:40123/clip. It runs until killed. Exit status 77 where
GstRtspServer cannot be imported (meson's "skipped")."""
import argparse
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402

try:
    gi.require_version("GstRtspServer", "1.0")
    from gi.repository import GstRtspServer  # noqa: E402
except (ImportError, ValueError) as e:
    print(f"rtsp-server.py: no GstRtspServer ({e}): install "
          "gir1.2-gst-rtsp-server-1.0", file=sys.stderr)
    sys.exit(77)

SIZE = "format=I420,width=160,height=120"


def launch_line(args):
    """The media's pipeline: one video stream, payloaded as pay0. The
    server's sinks wait for the clock, so the clip plays at its rate."""
    if args.video:
        uri = Gst.filename_to_uri(args.video)
        head = (f'uridecodebin uri="{uri}" ! videoconvert ! videoscale ! '
                f'videorate ! video/x-raw,{SIZE},framerate={args.fps}/1 ! '
                f'identity eos-after={args.frames}')
    else:
        head = (f"videotestsrc pattern=ball num-buffers={args.frames} ! "
                f"video/x-raw,{SIZE},framerate={args.fps}/1")
    return f"( {head} ! jpegenc ! rtpjpegpay name=pay0 pt=26 )"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--frames", type=int, default=100)
    parser.add_argument("--fps", type=int, default=10)
    parser.add_argument("--video")
    args = parser.parse_args()

    Gst.init(None)
    server = GstRtspServer.RTSPServer()
    server.set_address("127.0.0.1")
    server.set_service(str(args.port))
    factory = GstRtspServer.RTSPMediaFactory()
    factory.set_launch(launch_line(args))
    # Each client its own media, from the first frame.
    factory.set_shared(False)
    server.get_mount_points().add_factory("/clip", factory)
    if server.attach(None) == 0:
        print(f"rtsp-server.py: cannot listen on port {args.port}",
              file=sys.stderr)
        return 1
    print(f"rtsp://127.0.0.1:{server.get_bound_port()}/clip", flush=True)
    GLib.MainLoop().run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
