# SPDX-License-Identifier: LGPL-2.1-or-later
"""Cameras on localhost for the probe's tests, without gi: an HTTP server
that streams, at every path, an endless AVI of uncompressed frames (a
live input for the probe: http:// is retried, never a file that ends),
each GET from its first frame, at a steady rate. It counts, per path, the
connections it took and those still open, so that a test can tell that
the probe connected to a camera again (it restarted the input) or let a
camera go (it stopped the input), whatever the load.

The AVI, RIFF's "AVI " form (Microsoft's AVI RIFF file reference): one
video stream of 24-bit DIB frames (BI_RGB), the sizes of the RIFF and
movi lists as large as they go, since the stream has no end; GStreamer's
avidemux (gst-plugins-good) reads it as it comes (push mode), its
header, then each '00db' chunk as a frame."""
import collections
import http.server
import socketserver
import struct
import threading

WIDTH, HEIGHT = 32, 24
FRAME_BYTES = WIDTH * HEIGHT * 3
# The largest sizes a RIFF list says, even, for a stream without end.
ENDLESS = 0x7FFFFFF0


def chunk(tag, data):
    """A RIFF chunk: tag, little-endian size, data, padded to even."""
    return (tag + struct.pack("<I", len(data)) + data
            + (b"\0" if len(data) % 2 else b""))


def avi_header(fps):
    """Everything before the first frame: RIFF, hdrl, and movi opened."""
    avih = struct.pack("<10I4I", 1000000 // fps, FRAME_BYTES * fps, 0,
                       0x10, ENDLESS, 0, 1, FRAME_BYTES, WIDTH, HEIGHT,
                       0, 0, 0, 0)
    strh = struct.pack("<4s4sIHHIIIIIIIIhhhh", b"vids", b"DIB ", 0, 0, 0, 0,
                       1, fps, 0, ENDLESS, FRAME_BYTES, 0xFFFFFFFF, 0,
                       0, 0, WIDTH, HEIGHT)
    # BITMAPINFOHEADER: 24 bits a pixel, BI_RGB (0).
    strf = struct.pack("<IiiHHIIiiII", 40, WIDTH, HEIGHT, 1, 24, 0,
                       FRAME_BYTES, 0, 0, 0, 0)
    hdrl = (b"hdrl" + chunk(b"avih", avih)
            + chunk(b"LIST", b"strl" + chunk(b"strh", strh)
                    + chunk(b"strf", strf)))
    return (b"RIFF" + struct.pack("<I", ENDLESS) + b"AVI "
            + chunk(b"LIST", hdrl) + b"LIST" + struct.pack("<I", ENDLESS)
            + b"movi")


class Cameras:
    """The server, on a thread of its own; url(name) is a camera's URL."""

    def __init__(self, fps=10):
        self.lock = threading.Lock()
        self.taken = collections.Counter()
        self.open = collections.Counter()
        self.closing = threading.Event()
        cameras = self

        class Handler(http.server.BaseHTTPRequestHandler):
            # HTTP/1.0: the body ends when the connection does.
            protocol_version = "HTTP/1.0"

            def do_GET(self):
                cameras.stream(self)

            def log_message(self, *args):
                pass

        class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True

        self.fps = fps
        self.server = Server(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever)
        self.thread.start()

    def url(self, name):
        return f"http://127.0.0.1:{self.port}/{name}"

    def stream(self, handler):
        """Frames until the probe lets go or the server closes; the pixel
        value is the frame's number on the connection (mod 256)."""
        path = handler.path.lstrip("/")
        with self.lock:
            self.taken[path] += 1
            self.open[path] += 1
        try:
            handler.send_response(200)
            handler.send_header("Content-Type", "video/x-msvideo")
            handler.end_headers()
            handler.wfile.write(avi_header(self.fps))
            frame = 0
            # The rate is the camera's, as a real one delivers frames; the
            # wait is no test's condition.
            while not self.closing.wait(1 / self.fps):
                handler.wfile.write(chunk(b"00db",
                                          bytes([frame % 256]) * FRAME_BYTES))
                handler.wfile.flush()
                frame += 1
        except OSError:
            pass
        finally:
            with self.lock:
                self.open[path] -= 1

    def connections(self, name):
        """The connections the camera took, all told."""
        with self.lock:
            return self.taken[name]

    def streaming(self, name):
        """The connections of the camera still open."""
        with self.lock:
            return self.open[name]

    def close(self):
        self.closing.set()
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()
