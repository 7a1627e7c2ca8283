# SPDX-License-Identifier: LGPL-2.1-or-later
"""What the tests of clhistogram-probe --monitor-pictures share: clips
made with gst-launch-1.0 (no gi), the probe running with --metrics and
its URL, the pages fetched, a PNG decoded with the standard library, and
waits for a state."""
import os
import shutil
import signal
import struct
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import zlib

from probe_server import metrics_url, probe_env  # noqa: F401 (theirs)
from timeouts import seconds

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def write_clip(path, frames, pattern="smpte", width=320, height=240):
    """videotestsrc's `pattern`, JPEG in AVI, at 10 frames a second."""
    subprocess.run(
        ["gst-launch-1.0", "-q", "videotestsrc", f"pattern={pattern}",
         f"num-buffers={frames}", "!",
         f"video/x-raw,format=I420,width={width},height={height},"
         "framerate=10/1", "!", "jpegenc", "!", "avimux", "!", "filesink",
         f"location={path}"],
        check=True, capture_output=True, env=probe_env(),
        timeout=seconds(120))


def wait_until(condition, what, limit=60):
    """condition()'s first true value, polled until seconds(limit)."""
    deadline = time.monotonic() + seconds(limit)
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


class RunningProbe:
    """The probe started with --metrics; `base` is its server's root
    (http://127.0.0.1:PORT/) once it listens."""

    def __init__(self, probe, args, cwd=None):
        self.dir = tempfile.mkdtemp(prefix="probe-pictures-")
        self.stderr = open(os.path.join(self.dir, "stderr"), "w+b")
        self.process = subprocess.Popen([probe, *args],
                                        stdout=subprocess.DEVNULL,
                                        stderr=self.stderr, cwd=cwd,
                                        env=probe_env())
        url = metrics_url(self.process, self.err)
        self.base = url[:-len("metrics")] if url and \
            url.endswith("/metrics") else None

    def err(self):
        with open(self.stderr.name, "rb") as f:
            return f.read().decode(errors="replace")

    def url(self, path):
        return urllib.parse.urljoin(self.base, path)

    def resident_kib(self):
        with open(f"/proc/{self.process.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def stop(self):
        """SIGTERM: every stream ends; the exit status."""
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=seconds(60))

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.stderr.close()
        shutil.rmtree(self.dir)


class Answer:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers
        self.body = body


def fetch(url, method="GET"):
    """The answer to one request, errors (4xx, 5xx) included."""
    request = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(request, timeout=seconds(20)) as reply:
            return Answer(reply.status, reply.headers, reply.read())
    except urllib.error.HTTPError as e:
        return Answer(e.code, e.headers, e.read())


def png_size(data):
    """(width, height) of a PNG whose pixels decode: its signature, its
    IHDR (8-bit RGB, as the probe makes it), its IDAT inflated to a
    filter byte and width x 3 bytes a row, its CRCs right."""
    assert data[:8] == PNG_SIGNATURE, data[:16]
    at, idat, size = 8, b"", None
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        chunk = data[at + 8:at + 8 + length]
        crc = struct.unpack(">I", data[at + 8 + length:at + 12 + length])[0]
        assert zlib.crc32(kind + chunk) == crc, kind
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", chunk[:10])
            assert (depth, colour) == (8, 2), (depth, colour)
            size = (width, height)
        elif kind == b"IDAT":
            idat += chunk
        elif kind == b"IEND":
            break
        at += 12 + length
    assert size, "no IHDR"
    assert len(zlib.decompress(idat)) == size[1] * (1 + size[0] * 3)
    return size
