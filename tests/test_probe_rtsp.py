#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""clhistogram-probe on a real RTSP server on localhost (gst-rtsp-server,
tests/rtsp-server.py): two cameras, each served by a server process of
its own, and a file in one probe. Camera "a"'s server is killed mid-clip
and started again on the same port a few seconds later: the probe says
"a" went down, retries it, and says it came back; "a"'s clip after that
and camera "b"'s clip, which plays on meanwhile, are counted frame for
frame (RTSP over TCP, rtspt://, loses nothing on the way), and so is the
file. Its /metrics (--metrics) say the same: "a" down (its statistics
gone) with one outage, its failed retry counted apart, then up with one
reconnection, while "b" stays up; the file ended, with no outage.
SIGTERM then ends the probe with exit
status 0. Skipped (exit
status 77) where gi has no GstRtspServer (Debian's
gir1.2-gst-rtsp-server-1.0).

    test_probe_rtsp.py CLHISTOGRAM_PROBE VIDEO RTSP_SERVER_PY
"""
import json
import os
import signal
import subprocess
import sys
import threading
import time
import unittest
import urllib.request

import gi

from timeouts import seconds

gi.require_version("Gst", "1.0")
try:
    gi.require_version("GstRtspServer", "1.0")
except ValueError as e:
    print(f"SKIP: no GstRtspServer ({e}): install gir1.2-gst-rtsp-server-1.0")
    sys.exit(77)

PROBE = VIDEO = SERVER = None
# The clips, at 10 frames a second: "b"'s lasts through "a"'s fall and
# return with room to spare on a slow machine (a's run, 3 s down, its
# retry up to 2 s later, its server's start).
FRAMES_A = 80
FRAMES_B = 400
VIDEO_FRAMES = 795
# Seconds to wait for a step, scaled as meson test's timeouts.
STEP_S = seconds(60)


class Server:
    """An rtsp-server.py process serving a clip at its URL."""

    def __init__(self, frames, port=0):
        env = dict(os.environ, GST_DEBUG="0", GST_TRACERS="")
        self.proc = subprocess.Popen(
            [sys.executable, SERVER, "--frames", str(frames), "--port",
             str(port)], stdout=subprocess.PIPE, env=env)
        line = self.proc.stdout.readline().decode().strip()
        if not line.startswith("rtsp://"):
            self.proc.kill()
            self.proc.wait()
            raise AssertionError(f"rtsp-server.py said {line!r}, status "
                                 f"{self.proc.returncode}")
        self.port = int(line.rsplit(":", 1)[1].split("/")[0])
        # Interleaved in the RTSP connection: TCP, nothing lost.
        self.url = line.replace("rtsp://", "rtspt://", 1)

    def kill(self):
        self.proc.kill()
        self.proc.wait()
        self.proc.stdout.close()


class Lines:
    """A running probe's JSON objects, read as they come."""

    def __init__(self, proc):
        self.objects = []
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self.read, args=(proc,))
        self.thread.start()

    def read(self, proc):
        for line in proc.stdout:
            with self.lock:
                self.objects.append(json.loads(line))

    def of(self, name):
        with self.lock:
            return [o for o in self.objects if o["input"] == name]

    def wait_for(self, what, name, timeout=STEP_S):
        """Waits until what(the input's objects) holds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if what(self.of(name)):
                return
            time.sleep(0.2)
        raise AssertionError(f"{name}: not seen within {timeout} s; its "
                             f"last lines: {self.of(name)[-4:]}")


class Stderr:
    """A running probe's standard error, read as it comes."""

    def __init__(self, proc):
        self.lines = []
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self.read, args=(proc,))
        self.thread.start()

    def read(self, proc):
        for line in proc.stderr:
            with self.lock:
                self.lines.append(line.decode(errors="replace"))

    def text(self):
        with self.lock:
            return "".join(self.lines)

    def metrics_url(self, timeout=STEP_S):
        deadline = time.monotonic() + timeout
        prefix = "clhistogram-probe: metrics on "
        while time.monotonic() < deadline:
            with self.lock:
                for line in self.lines:
                    if line.startswith(prefix):
                        return line[len(prefix):].strip()
            time.sleep(0.1)
        raise AssertionError(f"no metrics URL on stderr: {self.text()!r}")


def scrape_text(url):
    with urllib.request.urlopen(url, timeout=STEP_S) as reply:
        return reply.read().decode()


def has_series(text, family, name):
    """Whether the scrape holds a sample of family for input="name"."""
    return any(line.startswith(f'{family}{{input="{name}"')
               for line in text.splitlines())


def scrape(url, family, name, state=None):
    """The value of the sample of family with input="name" (and
    state="state", for clhistogram_input_state)."""
    text = scrape_text(url)
    more = f',state="{state}"' if state else ""
    want = f'{family}{{input="{name}"{more}}} '
    for line in text.splitlines():
        if line.startswith(want):
            return float(line[len(want):])
    raise AssertionError(f"no {want!r} in the scrape:\n{text}")


def messages(objects, message):
    return [o for o in objects if o.get("message") == message]


def frames_of_runs(objects):
    """Each run of a live input, from its input-up to the next
    input-down (or the end): (the input-up, its frames, the input-down or
    None)."""
    runs, up, frames = [], None, 0
    for obj in objects:
        if obj.get("message") == "input-up":
            up, frames = obj, 0
        elif obj.get("message") == "input-down":
            if up:
                runs.append((up, frames, obj))
            up = None
        elif up:
            frames += 1
    if up:
        runs.append((up, frames, None))
    return runs


def ended(run_index):
    """Whether the input's run run_index went down at its clip's end."""
    def test(objects):
        runs = frames_of_runs(objects)
        return len(runs) > run_index and runs[run_index][2] is not None
    return test


class Rtsp(unittest.TestCase):
    def test_a_camera_falls_and_comes_back(self):
        server_a, server_b = Server(FRAMES_A), Server(FRAMES_B)
        self.server_a = server_a
        env = dict(os.environ, GST_DEBUG="0")
        proc = subprocess.Popen(
            [PROBE, "--no-counts", "--format", "GRAY8",
             "--width", "160", "--height", "120", "--stall-timeout", "5",
             "--retry-max", "2", "--metrics", "127.0.0.1:0",
             "a=" + server_a.url, "b=" + server_b.url, "file=" + VIDEO],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        lines = Lines(proc)
        errors = Stderr(proc)
        try:
            self.url = errors.metrics_url()
            self.run_scenario(lines, server_a)
        finally:
            server_b.kill()
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=seconds(15))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            lines.thread.join()
            errors.thread.join()
            stderr = errors.text()
            proc.stdout.close()
            proc.stderr.close()
            self.server_a.kill()
        self.assertEqual(proc.returncode, 0, stderr)
        self.assertNotIn("Leaks detected", stderr)
        self.check_lines(lines)

    def run_scenario(self, lines, server_a):
        self.server_a = server_a
        # Both cameras up, "a" a second into its clip: its server goes.
        lines.wait_for(lambda o: len(messages(o, "input-up")) == 1, "b")
        lines.wait_for(lambda o: len(o) > 10, "a")
        port = server_a.port
        server_a.kill()
        lines.wait_for(lambda o: messages(o, "input-down"), "a")
        # Down in the metrics too, "b" still up.
        self.assertEqual(scrape(self.url, "clhistogram_input_up", "a"), 0)
        self.assertEqual(scrape(self.url, "clhistogram_input_state", "a",
                                "down"), 1)
        self.assertEqual(
            scrape(self.url, "clhistogram_input_outages_total", "a"), 1)
        self.assertEqual(
            scrape(self.url, "clhistogram_input_reconnects_total", "a"), 0)
        self.assertEqual(scrape(self.url, "clhistogram_input_up", "b"), 1)
        # A camera that is down shows no statistics of its last run; the
        # one that is up does.
        text = scrape_text(self.url)
        self.assertFalse(has_series(text, "clhistogram_mean", "a"), text)
        self.assertTrue(has_series(text, "clhistogram_mean", "b"), text)
        # Still down when a retry comes (its second down), then back.
        lines.wait_for(lambda o: len(messages(o, "input-down")) >= 2, "a")
        # One outage still, its retries that failed counted apart.
        self.assertEqual(
            scrape(self.url, "clhistogram_input_outages_total", "a"), 1)
        self.assertGreaterEqual(
            scrape(self.url, "clhistogram_input_retries_total", "a"), 1)
        self.server_a = Server(FRAMES_A, port)
        # Back: up again, one reconnection; "b" never went down.
        lines.wait_for(lambda o: len(messages(o, "input-up")) == 2, "a")
        self.assertEqual(scrape(self.url, "clhistogram_input_up", "a"), 1)
        self.assertEqual(
            scrape(self.url, "clhistogram_input_reconnects_total", "a"), 1)
        self.assertEqual(scrape(self.url, "clhistogram_input_up", "b"), 1)
        self.assertEqual(
            scrape(self.url, "clhistogram_input_outages_total", "b"), 0)
        # Its whole clip counted; "b"'s and the file's too.
        lines.wait_for(ended(1), "a")
        lines.wait_for(ended(0), "b")
        lines.wait_for(lambda o: len(o) == VIDEO_FRAMES, "file")
        # The file ended: not up, never down, every frame counted.
        self.assertEqual(scrape(self.url, "clhistogram_frames_total",
                                "file"), VIDEO_FRAMES)
        self.assertEqual(scrape(self.url, "clhistogram_input_up", "file"), 0)
        self.assertEqual(scrape(self.url, "clhistogram_input_state", "file",
                                "ended"), 1)
        self.assertEqual(
            scrape(self.url, "clhistogram_input_outages_total", "file"), 0)

    def check_lines(self, lines):
        a, b, file = lines.of("a"), lines.of("b"), lines.of("file")
        self.assertEqual({o["input"] for o in lines.objects},
                         {"a", "b", "file"})

        # "a": up, down when its server went, retried (after at most
        # --retry-max), up again: one reconnection, its clip whole.
        runs = frames_of_runs(a)
        self.assertGreaterEqual(len(runs), 2)
        self.assertEqual([run[0]["reconnects"] for run in runs[:2]], [0, 1])
        self.assertLess(runs[0][1], FRAMES_A)
        self.assertEqual(runs[1][1], FRAMES_A)
        self.assertEqual(runs[1][2]["reason"], "end of stream")
        downs = messages(a, "input-down")
        self.assertEqual([d["downs"] for d in downs],
                         list(range(1, len(downs) + 1)))
        self.assertTrue(all(1 <= d["retry-in"] <= 2 for d in downs), downs)
        self.assertEqual(list(downs[0]),
                         ["input", "message", "reason", "retry-in", "downs"])
        self.assertEqual(list(messages(a, "input-up")[0]),
                         ["input", "message", "reconnects"])
        # Every frame line of a run comes between its up and its down.
        self.assertEqual(sum(run[1] for run in runs),
                         len([o for o in a if "message" not in o]))

        # "b" played on: its first run is its whole clip.
        runs = frames_of_runs(b)
        self.assertEqual(runs[0][0]["reconnects"], 0)
        self.assertEqual(runs[0][1], FRAMES_B)
        self.assertEqual(runs[0][2]["reason"], "end of stream")

        # The file: every frame, in order; a file is never up or down.
        self.assertEqual([o["pts"] for o in file],
                         [i * 100000000 for i in range(VIDEO_FRAMES)])


if __name__ == "__main__":
    PROBE, VIDEO, SERVER = sys.argv[1:4]
    unittest.main(argv=sys.argv[:1], verbosity=2)
