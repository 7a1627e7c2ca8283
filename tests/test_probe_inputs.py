#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""clhistogram-probe with several inputs: the names (NAME=FILE-OR-URI, an
argument as given, an --inputs key file's groups), each input's lines
against a probe of that input alone with the same options (a key file's
per-input options among them), --check and --expect-frames per input, a
file's error ending that input only, the usage errors (a name given twice,
a bad key file: exit status 2, one line naming what is wrong), SIGTERM
mid-run ending every input with its partial interval (exit status 0),
and cameras on localhost that talk garbage (garbage-camera.py) going
down and retried.

    test_probe_inputs.py CLHISTOGRAM_PROBE VIDEO
"""
import base64
import json
import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.request

from probe_states import wait_for, writing_blocked
from timeouts import seconds

PROBE = VIDEO = None
# Small frames, so that a check or a run in real time costs little.
SMALL = ["--format", "GRAY8", "--width", "160", "--height", "120"]
# vtest.avi's frames: one line each.
VIDEO_FRAMES = 795
# A name given twice, a bad key file: the usage error's exit status.
EXIT_USAGE = 2


def probe_env():
    # The debug log off, so that stderr holds what the probe says; the
    # leaks tracer (GST_TRACERS from the test's environment) still warns.
    return dict(os.environ, GST_DEBUG="0")


def probe(*args):
    """The exit status, JSON objects and stderr of a probe run."""
    done = subprocess.run([PROBE, *args], capture_output=True,
                          env=probe_env(), timeout=seconds(300))
    stderr = done.stderr.decode()
    assert "Leaks detected" not in stderr, stderr
    return (done.returncode,
            [json.loads(line) for line in done.stdout.decode().splitlines()],
            stderr)


def by_input(objects):
    """Each input's objects, in their order, without the "input"
    member."""
    inputs = {}
    for obj in objects:
        rest = dict(obj)
        del rest["input"]
        inputs.setdefault(obj["input"], []).append(rest)
    return inputs


def write(folder, name, text):
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def free_port():
    """A TCP port no one listens on (bound, then let go)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Several(unittest.TestCase):
    """Three inputs of one clip in one probe: one named on the command
    line, one by its argument, one from a key file with options of its
    own."""

    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp()
        cls.inputs_file = write(cls.folder, "probe.conf", f"""\
# the clip in 2x2 zones, small, four frames
[zoned]
uri={VIDEO}
format=GRAY8
width=160
height=120
zones=2x2
percentiles=5,50,95
max-frames=4
expect-frames=4
check=true
""")
        cls.status, cls.objects, cls.stderr = probe(
            "--no-counts", "-n", "6", "--expect-frames", "6", "--mode",
            "channels", "whole=" + VIDEO, VIDEO, "--inputs", cls.inputs_file)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.folder)

    def test_status(self):
        # --check (zoned only) says so on stderr; nothing else does.
        self.assertEqual(self.status, 0, self.stderr)
        self.assertRegex(self.stderr, r"^4 frames of zoned as 160x120 GRAY8, "
                         r"mode channels, 256 bins, 5 histograms a frame, "
                         r"on .*: 0 differ from the golden reference\n$")

    def test_every_line_names_its_input(self):
        self.assertTrue(all(list(o)[0] == "input" for o in self.objects))
        inputs = by_input(self.objects)
        self.assertEqual(set(inputs), {"whole", VIDEO, "zoned"})
        self.assertEqual(len(inputs["whole"]), 6)
        self.assertEqual(len(inputs[VIDEO]), 6)
        self.assertEqual(len(inputs["zoned"]), 4)

    def test_each_input_as_if_alone(self):
        """Each input's lines, in order, equal those of a probe of that
        input alone, with the options the key file gave it."""
        inputs = by_input(self.objects)
        alone = {
            "whole": ["--mode", "channels", "-n", "6", VIDEO],
            VIDEO: ["--mode", "channels", "-n", "6", VIDEO],
            "zoned": ["--mode", "channels", *SMALL, "--zones", "2x2",
                      "--percentiles", "5,50,95", "-n", "4", VIDEO],
        }
        for name, args in alone.items():
            with self.subTest(input=name):
                status, objects, stderr = probe("--no-counts", *args)
                self.assertEqual(status, 0, stderr)
                self.assertEqual({o["input"] for o in objects}, {VIDEO})
                self.assertEqual(inputs[name], by_input(objects)[VIDEO])
        zoned = inputs["zoned"][0]
        self.assertEqual(len(zoned["regions"]), 4)
        self.assertEqual(zoned["percentile-points"], [5.0, 50.0, 95.0])
        self.assertEqual(zoned["pixels"], 160 * 120)
        self.assertEqual(inputs["whole"][0]["pixels"], 768 * 576)


class PerInput(unittest.TestCase):
    def test_expect_frames_per_input(self):
        with tempfile.TemporaryDirectory() as folder:
            conf = write(folder, "in.conf", f"[short]\nuri={VIDEO}\n"
                         "max-frames=2\nexpect-frames=3\n")
            status, objects, stderr = probe(
                "-q", "-n", "4", "--expect-frames", "4", "long=" + VIDEO,
                "--inputs", conf)
        self.assertEqual((status, objects), (1, []), stderr)
        self.assertEqual(stderr.splitlines(),
                         ["clhistogram-probe: short: expected 3 frames, "
                          "got 2"])

    def test_a_file_error_ends_that_input_only(self):
        status, objects, stderr = probe(
            "-n", "3", "--no-counts", "gone=/nonexistent/vtest.avi",
            "here=" + VIDEO)
        self.assertEqual(status, 1, stderr)
        self.assertEqual(stderr.splitlines(),
                         ["clhistogram-probe: gone: /nonexistent/vtest.avi: "
                          "No such file or directory"])
        self.assertEqual([o["input"] for o in objects], ["here"] * 3)

    def test_an_existing_file_is_never_a_name(self):
        """A file whose name holds a '=' is that file whole, its name the
        argument; a text before '=' that is no name is no name."""
        with tempfile.TemporaryDirectory() as folder:
            odd = os.path.join(folder, "cam=1.avi")
            shutil.copy(VIDEO, odd)
            status, objects, stderr = probe("-n", "1", "--no-counts", odd)
            self.assertEqual(status, 0, stderr)
            self.assertEqual([o["input"] for o in objects], [odd])
            status, objects, stderr = probe("-n", "1", "-q",
                                            "cam 1=" + odd)
            self.assertEqual(status, 1, stderr)
            self.assertIn(f"cam 1={odd}: No such file", stderr)


class Names(unittest.TestCase):
    def test_name_not_utf8(self):
        """A file named in bytes that are not UTF-8 names its input in
        UTF-8 (U+FFFD for each bad byte): its lines are JSON; two names
        that then read the same are a usage error."""
        with tempfile.TemporaryDirectory() as folder:
            first = os.path.join(os.fsencode(folder), b"a\xff.avi")
            second = os.path.join(os.fsencode(folder), b"a\xfe.avi")
            shutil.copy(VIDEO, first)
            shutil.copy(VIDEO, second)
            status, objects, stderr = probe("-n", "2", "--no-counts", *SMALL,
                                            first)
            self.assertEqual(status, 0, stderr)
            self.assertEqual({o["input"] for o in objects},
                             {os.path.join(folder, "a\ufffd.avi")})
            status, objects, stderr = probe("-n", "2", first, second)
            self.assertEqual(status, EXIT_USAGE, stderr)
            self.assertIn("given twice", stderr)


class UsageErrors(unittest.TestCase):
    """Each is refused before any input starts: exit status 2, nothing
    on stdout, one line on stderr saying what is wrong."""

    def refused(self, *args):
        status, objects, stderr = probe(*args)
        self.assertEqual((status, objects), (EXIT_USAGE, []), stderr)
        lines = stderr.splitlines()
        self.assertEqual(len(lines), 1, stderr)
        self.assertTrue(lines[0].startswith("clhistogram-probe: "), stderr)
        return lines[0]

    def refused_file(self, text):
        with tempfile.TemporaryDirectory() as folder:
            conf = write(folder, "in.conf", text)
            line = self.refused("--inputs", conf, VIDEO)
            self.assertIn(conf, line)
            return line

    def test_name_given_twice(self):
        self.assertIn('two inputs are named "cam"',
                      self.refused("cam=" + VIDEO, "cam=" + VIDEO))
        self.assertIn("given twice", self.refused(VIDEO, VIDEO))
        with tempfile.TemporaryDirectory() as folder:
            conf = write(folder, "in.conf", f"[cam]\nuri={VIDEO}\n")
            self.assertIn('two inputs are named "cam"',
                          self.refused("cam=" + VIDEO, "--inputs", conf))

    def test_empty_location(self):
        self.assertIn("cam=: give a file or URI", self.refused("cam="))

    def test_unknown_key(self):
        line = self.refused_file(f"[cam]\nuri={VIDEO}\nzone=2x2\n")
        self.assertIn("[cam] zone: unknown key", line)
        self.assertIn("zones", line)

    def test_key_of_the_whole_probe(self):
        line = self.refused_file(f"[cam]\nuri={VIDEO}\nquiet=true\n")
        self.assertIn("[cam] quiet: an option of the whole probe", line)

    def test_bad_values(self):
        self.assertIn('[cam] width: "wide" is not an integer',
                      self.refused_file(f"[cam]\nuri={VIDEO}\nwidth=wide\n"))
        self.assertIn("[cam] check: give true or false",
                      self.refused_file(f"[cam]\nuri={VIDEO}\ncheck=yes\n"))
        line = self.refused_file(f"[cam]\nuri={VIDEO}\nzones=0x2\n")
        self.assertIn("[cam] --zones:", line)
        self.assertIn("1..64", line)
        line = self.refused_file(f"[cam]\nuri={VIDEO}\nretry-max=0\n")
        self.assertIn("[cam] --retry-max: give 1 to", line)

    def test_bad_groups(self):
        self.assertIn("[cam]: no uri key",
                      self.refused_file("[cam]\nzones=2x2\n"))
        self.assertIn("[two words]: not a name for an input",
                      self.refused_file(f"[two words]\nuri={VIDEO}\n"))
        self.assertIn("no inputs", self.refused_file("# nothing\n"))

    def test_not_a_key_file(self):
        self.refused_file("uri=vtest.avi\n")
        self.refused_file("[cam\nuri=vtest.avi\n")
        line = self.refused("--inputs", "/nonexistent/probe.conf")
        self.assertIn("--inputs /nonexistent/probe.conf: No such file", line)

    def test_group_given_twice(self):
        line = self.refused_file(f"[door]\nuri={VIDEO}\n[yard]\n"
                                 f"uri={VIDEO}\n[door]\nuri={VIDEO}\n")
        self.assertIn("[door] is given twice", line)

    def test_key_given_twice(self):
        """GKeyFile would keep the last of two keys of a group silently."""
        line = self.refused_file(f"[door]\nuri={VIDEO}\nbins=16\n"
                                 "# bins=8 as a comment is no key\n"
                                 "bins = 32\n")
        self.assertIn("[door] bins is given twice", line)
        # The same key in two groups is no repeat.
        status, objects, stderr = probe(
            "--inputs", self.conf(f"[a]\nuri={VIDEO}\nbins=16\n"
                                  f"[b]\nuri={VIDEO}\nbins=16\n"),
            "-n", "1")
        self.assertEqual(status, 0, stderr)

    def test_uri_not_utf8(self):
        """A uri that is not UTF-8 is said to be so, not missing."""
        with tempfile.TemporaryDirectory() as folder:
            conf = os.path.join(folder, "in.conf")
            with open(conf, "wb") as f:
                f.write(b"[cam]\nuri=/tmp/caf\xe9.avi\n")
            line = self.refused("--inputs", conf)
        self.assertIn("[cam] uri:", line)
        self.assertIn("UTF-8", line)
        self.assertNotIn("no uri key", line)

    def conf(self, text):
        folder = tempfile.mkdtemp(prefix="probe-inputs-")
        self.addCleanup(shutil.rmtree, folder)
        return write(folder, "in.conf", text)

    def test_bad_retry_options(self):
        self.assertIn("--stall-timeout",
                      self.refused("--stall-timeout", "-1", VIDEO))
        self.assertIn("--retry-max", self.refused("--retry-max", "0", VIDEO))


# The streams' time to end after SIGTERM (--stop-timeout; the probe's 5 s
# unless the timeouts are scaled, as under the sanitizers).
STOP = ["--stop-timeout", str(max(5, round(seconds(5))))]


def start(*args):
    return subprocess.Popen([PROBE, *STOP, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=probe_env())


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

    def wait_for(self, what, timeout):
        """Waits until what(objects) holds; fails after timeout s (scaled
        as meson test's timeouts)."""
        timeout = seconds(timeout)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if what(list(self.objects)):
                    return
            time.sleep(0.2)
        raise AssertionError(f"not seen within {timeout} s; lines: "
                             f"{self.objects[-5:]}")


def count(objects, name, message=None):
    return len([o for o in objects if o["input"] == name
                and o.get("message") == message])


class Live(unittest.TestCase):
    def test_unplugged_camera_is_retried(self):
        """A camera's node that is missing when the probe starts is a live
        input: down, and tried again, while a file beside it is counted."""
        proc = start("--retry-max", "1", *SMALL, "cam=/dev/video-clh-absent",
                     "file=" + VIDEO)
        lines = Lines(proc)
        try:
            lines.wait_for(lambda objects:
                           count(objects, "cam", "input-down") >= 2, 60)
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=seconds(30))
            lines.thread.join()
            stderr = proc.stderr.read().decode()
            proc.stdout.close()
            proc.stderr.close()
        downs = [o for o in lines.objects if o["input"] == "cam"]
        self.assertEqual([o["downs"] for o in downs[:2]], [1, 2])
        self.assertEqual(proc.returncode, 0, stderr)

    def test_downs_go_on_while_stdout_is_full(self):
        """A reader that takes nothing fills stdout with a file's lines;
        a live input that cannot connect still goes down and is retried
        every second meanwhile (said on stderr): the main loop never waits
        for the reader, and its input-down lines are dropped once 16 wait
        beyond the queue's bound, not held without bound."""
        proc = subprocess.Popen(
            [PROBE, "--retry-max", "1", "file=" + VIDEO,
             f"gone=rtspt://127.0.0.1:{free_port()}/clip"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=probe_env())
        downs, dropped = [], []

        def read():
            for line in proc.stderr:
                (downs if b"gone: input down" in line else dropped).append(
                    line)
        reader = threading.Thread(target=read)
        reader.start()
        try:
            wait_for(proc, writing_blocked, "it waits for stdout's reader",
                     timeout=seconds(60))
            full_at = len(downs)
            wait_for(proc, lambda pid: len(downs) >= full_at + 2,
                     "two more downs with stdout full", timeout=seconds(60))
            # Still full: nothing read stdout meanwhile.
            self.assertTrue(writing_blocked(proc.pid))
            # The downs that find no room are dropped, not held: said
            # once, after at most 16 over the queue's bound.
            wait_for(proc, lambda pid: any(b"input-down lines are dropped"
                                           in line for line in dropped),
                     "input-down lines dropped", timeout=seconds(120))
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=seconds(30))
            reader.join()
            proc.stdout.close()
            proc.stderr.close()

    def test_long_stall_timeout(self):
        """--stall-timeout of an hour: a live input that connects but says
        nothing (a server that never answers) is not taken down within
        the first seconds, as a timeout that wrapped round would."""
        with socket.socket() as mute:
            mute.bind(("127.0.0.1", 0))
            mute.listen()
            port = mute.getsockname()[1]
            proc = start("--stall-timeout", "3600", *SMALL,
                         f"mute=rtspt://127.0.0.1:{port}/clip")
            lines = Lines(proc)
            # Connected (a state), then a window in which nothing must
            # happen: a load on the machine only lengthens what it covers.
            mute.settimeout(seconds(60))
            connection = mute.accept()[0]
            time.sleep(4)
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=seconds(30))
            lines.thread.join()
            stderr = proc.stderr.read().decode()
            proc.stdout.close()
            proc.stderr.close()
            connection.close()
        self.assertEqual(count(lines.objects, "mute", "input-down"), 0,
                         lines.objects)
        self.assertNotIn("input down", stderr)


class AskingCamera:
    """An RTSP server on localhost that answers the first request with 401
    and a Basic challenge (RFC 7235, RFC 7617) and keeps the Authorization
    header of the request that follows, then hangs up."""

    def __init__(self):
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen()
        self.listener.settimeout(seconds(60))
        self.port = self.listener.getsockname()[1]
        self.authorization = None
        self.thread = threading.Thread(target=self.serve)
        self.thread.start()

    @staticmethod
    def request(stream):
        headers = {}
        line = stream.readline()
        while line not in (b"\r\n", b"\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
            line = stream.readline()
        return headers

    def serve(self):
        try:
            connection = self.listener.accept()[0]
        except OSError:
            return
        with connection, connection.makefile("rb") as stream:
            connection.settimeout(seconds(60))
            first = self.request(stream)
            connection.sendall(
                f"RTSP/1.0 401 Unauthorized\r\nCSeq: {first.get('cseq')}\r\n"
                'WWW-Authenticate: Basic realm="camera"\r\n\r\n'.encode())
            self.authorization = self.request(stream).get("authorization")

    def close(self):
        self.listener.close()
        self.thread.join()


def end_probe(proc, lines, reader):
    """SIGTERM, then the probe's end and its output readers'."""
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=seconds(30))
    lines.thread.join()
    reader.join()
    proc.stdout.close()
    proc.stderr.close()


class GarbageCamera:
    """garbage-camera.py MODE: an RTSP server on localhost that answers
    with garbage without end; the connections it saw closed, counted."""

    def __init__(self, mode):
        self.proc = subprocess.Popen(
            [sys.executable, os.path.join(os.path.dirname(
                os.path.abspath(__file__)), "garbage-camera.py"), mode],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.url = self.proc.stdout.readline().decode().strip()
        assert self.url.startswith("rtsp://"), self.url
        self.closed = 0
        self.reader = threading.Thread(target=self.read)
        self.reader.start()

    def read(self):
        for line in self.proc.stderr:
            if line.startswith(b"closed "):
                self.closed = int(line.split()[1])

    def close(self):
        self.proc.kill()
        self.proc.wait()
        self.reader.join()
        self.proc.stdout.close()
        self.proc.stderr.close()


class Garbage(unittest.TestCase):
    """A camera that talks garbage without end goes down when its stall
    timeout passes, with nothing from it, and is retried like any other:
    a second input-down line can only come once the first run stopped.
    Where rtspsrc cannot stop by itself (it is mid-reply, and GStreamer's
    RTSP connection ignores its cancellable there), the probe says it cut
    the connection; the camera sees each connection closed."""

    def down_twice(self, mode):
        camera = GarbageCamera(mode)
        proc = start("--stall-timeout", "2", "--retry-max", "1", *SMALL,
                     "cam=" + camera.url)
        lines = Lines(proc)
        errors = []
        reader = threading.Thread(target=lambda: errors.extend(
            line.decode() for line in proc.stderr))
        reader.start()
        try:
            lines.wait_for(lambda objects:
                           count(objects, "cam", "input-down") >= 2, 60)
            wait_for(proc, lambda pid: camera.closed >= 2,
                     "the camera saw two connections closed",
                     timeout=seconds(60))
        finally:
            end_probe(proc, lines, reader)
            camera.close()
        self.assertEqual(proc.returncode, 0, "".join(errors))
        self.assertEqual(count(lines.objects, "cam"), 0)
        return "".join(errors)

    def test_endless_headers(self):
        self.assertIn("cam: its source did not stop within 2 s; cut its 1 "
                      "connection to the server", self.down_twice("headers"))

    def test_endless_line(self):
        self.assertIn("cut its 1 connection", self.down_twice("line"))

    def test_trickled_headers(self):
        self.assertIn("cut its 1 connection", self.down_twice("trickle"))

    def test_junk(self):
        self.down_twice("junk")

    def test_endless_body(self):
        self.down_twice("body")


def limited(descriptors):
    """A preexec_fn: soft and hard RLIMIT_NOFILE both @descriptors, so the
    probe cannot raise it."""
    return lambda: resource.setrlimit(resource.RLIMIT_NOFILE,
                                      (descriptors, descriptors))


class Descriptors(unittest.TestCase):
    """Too few file descriptors: an input whose run finds no room does not
    start, and says why, rather than GStreamer's CRITICALs and "missing a
    plug-in" or GLib's abort on its wakeup pipe."""

    def run_probe(self, descriptors, *inputs):
        proc = subprocess.Popen(
            [PROBE, *STOP, "--retry-max", "1", *SMALL, *inputs],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=probe_env(),
            preexec_fn=limited(descriptors))
        return proc, Lines(proc)

    def end(self, proc, lines):
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=seconds(30))
        lines.thread.join()
        stderr = proc.stderr.read().decode()
        proc.stdout.close()
        proc.stderr.close()
        for bad in ("CRITICAL", "GLib-ERROR", "WARNING", "missing"):
            self.assertNotIn(bad, stderr)
        return stderr

    def test_limit_too_low(self):
        """At 40 descriptors no run has room: the camera goes down with the
        reason, again at its retry; the file ends with it (status 1)."""
        proc, lines = self.run_probe(
            40, f"cam=rtspt://127.0.0.1:{free_port()}/clip", "file=" + VIDEO)
        try:
            lines.wait_for(lambda objects:
                           count(objects, "cam", "input-down") >= 2, 60)
        finally:
            stderr = self.end(proc, lines)
        reasons = {o["reason"] for o in lines.objects}
        self.assertEqual(len(reasons), 1, reasons)
        self.assertRegex(reasons.pop(), r"^too many open files: \d+ of the "
                         r"limit of 40 are open, and a start needs 48 free; "
                         r"raise the limit \(ulimit -n; systemd: "
                         r"LimitNOFILE=\)$")
        self.assertIn("clhistogram-probe: file: too many open files", stderr)
        self.assertEqual(count(lines.objects, "file"), 0)
        self.assertEqual(proc.returncode, 1, stderr)

    def test_runs_wait_their_turn(self):
        """At 80, a run or two at a time has room to start: three cameras
        that keep failing at once take turns with a file, which still gets
        its turn and is counted whole; no one says "too many open
        files"."""
        gone = [f"cam{i}=rtspt://127.0.0.1:{free_port()}/clip"
                for i in range(3)]
        proc, lines = self.run_probe(80, *gone, "file=" + VIDEO)
        try:
            lines.wait_for(lambda objects:
                           count(objects, "file") >= VIDEO_FRAMES
                           and count(objects, "cam2", "input-down") >= 2,
                           120)
        finally:
            stderr = self.end(proc, lines)
        self.assertEqual(count(lines.objects, "file"), VIDEO_FRAMES)
        self.assertNotIn("too many open files", stderr)
        self.assertEqual(proc.returncode, 0, stderr)


class Credentials(unittest.TestCase):
    def test_password_never_shown(self):
        """An unnamed rtspt://user:password@... input: its name in the JSON
        lines, stderr and the metrics' labels shows ***@ in place of the
        user and password, which appear nowhere; the camera still gets
        them, percent-decoded, in its Authorization header."""
        camera = AskingCamera()
        uri = f"rtspt://cam:s3c%3Ar%40t@127.0.0.1:{camera.port}/clip"
        proc = subprocess.Popen(
            [PROBE, *STOP, "--retry-max", "1", "--metrics", "127.0.0.1:0",
             *SMALL, uri], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=probe_env())
        lines = Lines(proc)
        errors = []
        reader = threading.Thread(target=lambda: errors.extend(
            line.decode() for line in proc.stderr))
        reader.start()
        try:
            lines.wait_for(lambda objects: objects, 60)
            url = next(re.search(r"metrics on (\S+)", line).group(1)
                       for line in errors if "metrics on" in line)
            with urllib.request.urlopen(url, timeout=seconds(10)) as reply:
                metrics = reply.read().decode()
        finally:
            end_probe(proc, lines, reader)
            camera.close()
        name = f"rtspt://***@127.0.0.1:{camera.port}/clip"
        self.assertEqual({o["input"] for o in lines.objects}, {name})
        self.assertIn(f'input="{name}"', metrics)
        shown = json.dumps(lines.objects) + "".join(errors) + metrics
        for secret in ("s3c", "%3A", "cam:"):
            self.assertNotIn(secret, shown)
        self.assertEqual(camera.authorization, "Basic " + base64.b64encode(
            b"cam:s3c:r@t").decode())

    def test_readable_key_file_with_a_password(self):
        """A key file that gives a camera's password: the probe warns, with
        what to do, when every local user can read it (mode 0644), and
        not when it is its owner's and group's alone (0640); the password
        is in neither."""
        port = free_port()
        for mode, warned in ((0o644, True), (0o640, False)):
            with self.subTest(mode=oct(mode)), \
                    tempfile.TemporaryDirectory() as folder:
                conf = write(folder, "in.conf", f"""\
[door]
uri=rtspt://cam:s3cret@127.0.0.1:{port}/clip
""")
                os.chmod(conf, mode)
                proc = start("--retry-max", "1", *SMALL, "--inputs", conf)
                lines = Lines(proc)
                errors = []
                reader = threading.Thread(target=lambda: errors.extend(
                    line.decode() for line in proc.stderr))
                reader.start()
                try:
                    # Its first run failed: the key file was read long
                    # before.
                    lines.wait_for(lambda objects: count(
                        objects, "door", "input-down") >= 1, 60)
                finally:
                    end_probe(proc, lines, reader)
                stderr = "".join(errors)
                self.assertNotIn("s3cret", stderr)
                warning = (f"warning: {conf} gives the password of input "
                           f'"door" and every local user can read it')
                self.assertEqual(warning in stderr, warned, stderr)
                if warned:
                    self.assertIn(f"chmod 0640 {conf}", stderr)


class Signal(unittest.TestCase):
    def test_sigterm_flushes_every_input(self):
        """Two files counted at their rate, one second a line, and a live
        input that cannot connect, waiting for its retry: SIGTERM ends
        them all, each file's partial interval posted (the frames of its
        lines add up to every frame it counted, as --check says), and the
        probe exits 0."""
        interval = 1000000000
        with tempfile.TemporaryDirectory() as folder:
            conf = write(folder, "in.conf", f"""\
[left]
uri={VIDEO}
check=true
[right]
uri={VIDEO}
check=true
zones=2x2
""")
            proc = start("--sync", "--no-counts", "--interval", str(interval),
                         *SMALL, "--inputs", conf,
                         f"gone=rtspt://127.0.0.1:{free_port()}/clip")
            lines = Lines(proc)
            lines.wait_for(lambda objects: count(objects, "left") >= 2
                           and count(objects, "right") >= 2
                           and count(objects, "gone", "input-down") >= 1, 60)
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=seconds(15))
            except subprocess.TimeoutExpired:
                proc.kill()
                raise
            lines.thread.join()
            stderr = proc.stderr.read().decode()
            proc.stdout.close()
            proc.stderr.close()
        self.assertEqual(proc.returncode, 0, stderr)
        self.assertNotIn("Leaks detected", stderr)
        inputs = by_input(lines.objects)
        self.assertEqual(set(inputs), {"left", "right", "gone"})
        self.assertTrue(all(o["message"] == "input-down"
                            for o in inputs["gone"]))
        for name in ("left", "right"):
            with self.subTest(input=name):
                checked = re.search(rf"^(\d+) frames of {name} as .*: 0 differ",
                                    stderr, re.M)
                self.assertTrue(checked, stderr)
                objects = inputs[name]
                self.assertEqual(sum(o["frames"] for o in objects),
                                 int(checked.group(1)))
                # Contiguous: nothing lost between two lines.
                for before, after in zip(objects, objects[1:]):
                    self.assertEqual(after["pts"],
                                     before["pts"] + before["duration"])
                self.assertTrue(all(o["duration"] == interval
                                    for o in objects[:-1]))
                # 795 frames at 10 a second: far from the end.
                self.assertLess(objects[-1]["pts"], 70 * interval)


if __name__ == "__main__":
    PROBE, VIDEO = sys.argv[1], sys.argv[2]
    unittest.main(argv=sys.argv[:1], verbosity=2)
