#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""clhistogram-probe --monitor-pictures against the running probe, over
HTTP on localhost: two inputs, one of them named with characters HTML
escapes (a file's name: a slash, <, >, &, quotes); the index at / lists
both, escaped (the raw name nowhere), is well-formed HTML5 (its tags
balanced) and links each picture; each picture is a PNG whose pixels
decode, of the monitor's layout for a 320x240 input, 320x346, sent with
Cache-Control: no-store; a name that is no input's, paths that climb out
of /inputs/ or smuggle slashes and a NUL are 400 or 404, never a
picture or a file; HEAD is answered, POST refused. 48 clients at once,
8 requests each, get the picture whole or are refused by the server's
cap of connections, and the probe's resident memory stays bounded; the
frames the pictures leave out are not counted lost. An
--inputs key file sets pictures for one input and not another (404 for
it, said on the index), and a file that ends within a second still
leaves its picture (state ended). Without the option the pages are
404 and /metrics is there as ever. A frame too narrow for the scopes
gives up the pictures, said once, while every frame is counted. Usage
errors: the option without --metrics (on the command line and in a key
file's group) and bad periods, exit status 2 and one line.

    test_probe_pictures.py CLHISTOGRAM_PROBE
"""
import html.parser
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import unittest
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probe_pictures import (  # noqa: E402
    RunningProbe, fetch, png_size, probe_env, wait_until, write_clip)
from timeouts import seconds  # noqa: E402

PROBE = None
# The monitor of a 320x240 frame: the scopes under it, as wide as the
# frame and a third as high (a waveform two heights wide and a
# vectorscope one), an even number of rows (docs/monitoring.md).
LAYOUT = (320, 346)
WEIRD = 'sub dir/cam <b> & "c" \'d\'.avi'
VOID = {"meta", "img", "br", "hr", "link", "input", "source", "wbr"}


class Document(html.parser.HTMLParser):
    """The index's headings, images and links; its tags must balance."""

    def __init__(self):
        super().__init__()
        self.stack, self.errors = [], []
        self.h2, self.images, self.links = [], [], []
        self.doctype = None
        self.in_h2 = False

    def handle_decl(self, decl):
        self.doctype = decl

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "img":
            self.images.append(attrs)
        if tag == "a":
            self.links.append(attrs.get("href"))
        if tag == "h2":
            self.in_h2 = True
            self.h2.append("")
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if tag == "h2":
            self.in_h2 = False
        if not self.stack or self.stack.pop() != tag:
            self.errors.append(f"</{tag}> closes nothing open")

    def handle_data(self, data):
        if self.in_h2:
            self.h2[-1] += data


def parse(text):
    doc = Document()
    doc.feed(text)
    doc.close()
    return doc


def raw_status(port, path, method="GET"):
    """The status line's code for `path` sent as it is, unnormalised (no
    client library would send some of these), and the body."""
    with socket.create_connection(("127.0.0.1", port),
                                  timeout=seconds(20)) as s:
        s.sendall(f"{method} {path} HTTP/1.1\r\nHost: probe\r\n"
                  "Connection: close\r\n\r\n".encode("latin-1"))
        answer = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


class Pictures(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="probe-pictures-")
        # 30 s at their own pace (--sync): running while the test reads.
        cls.long = os.path.join(cls.tmp, "long.avi")
        cls.ball = os.path.join(cls.tmp, "ball.avi")
        cls.short = os.path.join(cls.tmp, "short.avi")
        write_clip(cls.long, 300)
        write_clip(cls.ball, 300, pattern="ball")
        write_clip(cls.short, 5, pattern="snow")
        os.mkdir(os.path.join(cls.tmp, "sub dir"))
        os.symlink(cls.ball, os.path.join(cls.tmp, WEIRD))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def run_probe(self, args):
        probe = RunningProbe(PROBE, args, cwd=self.tmp)
        self.addCleanup(probe.close)
        self.assertTrue(probe.base, probe.err())
        return probe

    def picture_url(self, probe, name):
        return probe.url("inputs/" + urllib.parse.quote(name, safe="")
                         + "/monitor.png")

    def test_pages(self):
        probe = self.run_probe(["--sync", "--quiet", "--metrics",
                                "127.0.0.1:0", "--monitor-pictures", "0.5",
                                "--zones", "3x3", "--alert-clipped", "2",
                                f"cam={self.long}", WEIRD])
        for name in ("cam", WEIRD):
            wait_until(lambda: fetch(self.picture_url(probe, name)).status
                       == 200, f"{name}'s first picture")

        index = fetch(probe.url(""))
        self.assertEqual(index.status, 200)
        self.assertEqual(index.headers["Content-Type"],
                         "text/html; charset=utf-8")
        self.assertEqual(index.headers["Cache-Control"], "no-store")
        text = index.body.decode("utf-8")
        self.assertTrue(text.startswith("<!DOCTYPE html>\n"))
        doc = parse(text)
        self.assertEqual(doc.doctype, "DOCTYPE html")
        self.assertEqual(doc.errors, [])
        self.assertEqual(doc.stack, [])
        self.assertEqual(doc.h2, ["cam", WEIRD])
        self.assertNotIn("<b>", text)
        self.assertIn("cam &lt;b&gt; &amp; &quot;c&quot; &#39;d&#39;.avi",
                      text)
        self.assertIn("metrics", doc.links)
        self.assertIn('<meta http-equiv="refresh" content="1">', text)
        self.assertEqual(len(doc.images), 2)
        pictures = {}
        for image, name in zip(doc.images, ("cam", WEIRD)):
            self.assertEqual((int(image["width"]), int(image["height"])),
                             LAYOUT)
            path = urllib.parse.urlsplit(image["src"]).path
            self.assertEqual(urllib.parse.unquote(path),
                             f"inputs/{name}/monitor.png")
            answer = fetch(probe.url(image["src"]))
            self.assertEqual(answer.status, 200, name)
            self.assertEqual(answer.headers["Content-Type"], "image/png")
            self.assertEqual(answer.headers["Cache-Control"], "no-store")
            self.assertEqual(png_size(answer.body), LAYOUT)
            pictures[name] = answer.body
        print(f"pictures: {len(pictures['cam'])} and "
              f"{len(pictures[WEIRD])} bytes")

        port = urllib.parse.urlsplit(probe.base).port
        self.assertEqual(fetch(probe.url("inputs/nobody/monitor.png")).status,
                         404)
        self.assertEqual(fetch(probe.url("inputs/cam/monitor.png"),
                               "HEAD").status, 200)
        self.assertEqual(raw_status(port, "/inputs/cam/monitor.png",
                                    "POST")[0], 405)
        for path in ("/inputs/../../../../etc/passwd",
                     "/inputs/..%2F..%2F..%2F..%2Fetc%2Fpasswd/monitor.png",
                     "/inputs/%2e%2e/%2e%2e/etc/passwd/monitor.png",
                     "/inputs/cam/../../../etc/passwd",
                     "/inputs/cam%2F..%2F..%2Fmetrics/monitor.png",
                     "/inputs/cam%00/monitor.png",
                     "/inputs/cam/monitor.png%00.txt",
                     "/inputs/cam",
                     "/inputs/",
                     "/inputs/cam/monitor.png/",
                     "/etc/passwd",
                     "//etc/passwd"):
            status, body = raw_status(port, path)
            self.assertIn(status, (400, 404), path)
            self.assertNotIn(b"root:", body, path)
            self.assertFalse(body.startswith(b"\x89PNG"), path)

        # Many clients at once: each gets the picture whole, or is
        # refused by the cap; memory stays bounded.
        before = probe.resident_kib()
        results = []

        def client():
            for _ in range(8):
                try:
                    answer = fetch(self.picture_url(probe, "cam"))
                    results.append(answer.status == 200
                                   and answer.body[:8] == b"\x89PNG\r\n\x1a\n")
                except OSError:
                    results.append(None)

        threads = [threading.Thread(target=client) for _ in range(48)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        grown = probe.resident_kib() - before
        served = results.count(True)
        print(f"{len(results)} requests: {served} pictures, "
              f"{results.count(None)} refused; resident memory "
              f"{grown / 1024:+.1f} MiB")
        self.assertNotIn(False, results)
        self.assertGreater(served, 0)
        self.assertLess(grown, 64 * 1024)
        self.assertEqual(fetch(self.picture_url(probe, "cam")).status, 200)
        # The frames the pictures leave out are no frames lost.
        metrics = fetch(probe.url("metrics")).body.decode()
        self.assertIn('\nclhistogram_frames_dropped_total{input="cam"} 0\n',
                      metrics)
        self.assertEqual(probe.stop(), 0, probe.err())

    def test_per_input(self):
        """A key file: pictures for one input, not another; a file that
        ends within a second keeps its picture."""
        conf = os.path.join(self.tmp, "per-input.conf")
        with open(conf, "w") as f:
            f.write(f"[cam]\nuri={self.long}\nsync=true\n"
                    f"monitor-pictures=0.5\n"
                    f"[plain]\nuri={self.ball}\nsync=true\n"
                    f"[short]\nuri={self.short}\nmonitor-pictures=1\n")
        probe = self.run_probe(["--quiet", "--metrics", "127.0.0.1:0",
                                "--inputs", conf])
        short = self.picture_url(probe, "short")
        wait_until(lambda: fetch(short).status == 200
                   and 'data-state="ended"' in fetch(probe.url("")).body
                   .decode(), "the short file's picture, once ended")
        self.assertEqual(png_size(fetch(short).body), LAYOUT)
        wait_until(lambda: fetch(self.picture_url(probe, "cam")).status
                   == 200, "cam's picture")
        self.assertEqual(fetch(self.picture_url(probe, "plain")).status, 404)
        text = fetch(probe.url("")).body.decode()
        self.assertIn("<h2>plain</h2>", text)
        self.assertIn("No monitor picture (monitor-pictures 0)", text)
        self.assertEqual(probe.stop(), 0, probe.err())

    def test_off(self):
        """Without --monitor-pictures: no page but /metrics and
        /healthz."""
        probe = self.run_probe(["--sync", "--quiet", "--metrics",
                                "127.0.0.1:0", f"cam={self.long}"])
        wait_until(lambda: b'clhistogram_input_up{input="cam"} 1'
                   in fetch(probe.url("metrics")).body, "cam up")
        for path in ("", "inputs/cam/monitor.png", "inputs/nobody/monitor.png"):
            self.assertEqual(fetch(probe.url(path)).status, 404, path)
        self.assertEqual(fetch(probe.url("healthz")).status, 200)
        self.assertEqual(probe.stop(), 0, probe.err())

    def test_narrow_frames(self):
        """Frames too narrow for the monitor's scopes: the pictures are
        given up, said once; every frame is still counted."""
        done = subprocess.run(
            [PROBE, "--quiet", "--metrics", "127.0.0.1:0",
             "--monitor-pictures", "0.1", "--width", "8", "--height", "8",
             "--expect-frames", "5", f"cam={self.short}"],
            capture_output=True, text=True, env=probe_env(),
            timeout=seconds(120))
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stderr.count("no monitor picture"), 1,
                         done.stderr)
        self.assertIn("clhistogram-probe: cam: no monitor picture (monitor: "
                      "The frame is too small for the monitor's scopes.); "
                      "its frames are counted on\n", done.stderr)

    def test_errors(self):
        conf = os.path.join(self.tmp, "bad.conf")
        with open(conf, "w") as f:
            f.write(f"[cam]\nuri={self.short}\nmonitor-pictures=1\n")
        cases = [
            (["--monitor-pictures", "1", self.short],
             "clhistogram-probe: --monitor-pictures: only with --metrics "
             "ADDRESS:PORT, which serves the pictures"),
            (["--inputs", conf],
             f"clhistogram-probe: {conf}: [cam] --monitor-pictures: only "
             "with --metrics"),
            (["--metrics", "127.0.0.1:0", "--monitor-pictures", "0.01",
              self.short],
             'clhistogram-probe: --monitor-pictures: "0.01" is not 0 (no '
             "picture) or 0.1 to 86400 seconds"),
            (["--metrics", "127.0.0.1:0", "--monitor-pictures", "soon",
              self.short], '"soon" is not 0 (no picture)'),
            (["--metrics", "127.0.0.1:0", "--monitor-pictures", "1e6",
              self.short], '"1e6" is not 0'),
        ]
        for args, words in cases:
            done = subprocess.run([PROBE, "--quiet", *args],
                                  capture_output=True, text=True,
                                  env=probe_env(), timeout=seconds(60))
            self.assertEqual(done.returncode, 2, done.stderr)
            self.assertEqual(done.stderr.count("\n"), 1, done.stderr)
            self.assertIn(words, done.stderr)


if __name__ == "__main__":
    PROBE = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
