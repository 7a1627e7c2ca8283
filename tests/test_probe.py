#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""clhistogram-probe: its JSON Lines equal the bus messages of the same
pipeline run here through Gst Python, field by field (regions included);
--no-counts, --check, --interval, a file name in any characters, the
exit status and one-line message of every kind of bad option and bad input,
and the probe as a Unix tool: stdout closed, full or its reader gone, and
SIGINT or SIGTERM at start-up, mid-run and while stdout takes nothing.

    test_probe.py CLHISTOGRAM_PROBE VIDEO
"""
import array
import fcntl
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import termios
import unittest
import wave

from probe_states import (PROMPT_S, file_open, signal_pending,
                          signals_taken, wait_for, writing_blocked)
from timeouts import seconds

# --no-gi: only the classes that run the probe alone (Errors, Unix), for
# a build without introspection, such as the sanitizers' (the interpreter
# is not instrumented, and must not load the plugin).
NO_GI = "--no-gi" in sys.argv
if not NO_GI:
    import gi
    gi.require_version("Gst", "1.0")
    from gi.repository import Gst  # noqa: E402

PROBE = VIDEO = None
FRAMES = 6
# Converted, scaled, zones, fixed regions (one partly outside, one wholly
# outside) and percentiles: every kind of field the message has.
OPTIONS = ["--format", "GRAY8", "--width", "160", "--height", "120",
           "--bins", "16", "--zones", "2x2",
           "--regions", "10,10,40,30;150,100,40,40;500,500,8,8",
           "--percentiles", "1,10,50,90,99.5"]
ELEMENT = ("clhistogram name=h bins=16 zones=2x2 "
           "regions=\"<<10,10,40,30>,<150,100,40,40>,<500,500,8,8>>\" "
           "percentiles=\"<1.0,10.0,50.0,90.0,99.5>\"")
CLOCK_TIME_NONE = 2**64 - 1


def probe(*args):
    """Runs the probe; its exit status, JSON lines and stderr. The debug
    log is off, so that stderr holds what the probe says; the leaks
    tracer (GST_TRACERS from the test's environment) still warns there."""
    env = dict(os.environ, GST_DEBUG="0")
    done = subprocess.run([PROBE, *args], capture_output=True, env=env,
                          timeout=seconds(300))
    stderr = done.stderr.decode()
    assert "Leaks detected" not in stderr, stderr
    return done.returncode, done.stdout.decode(), stderr


def json_lines(stdout):
    return [json.loads(line) for line in stdout.splitlines()]


def to_python(value):
    """A GValue from a message as json.loads reads the probe's line."""
    if isinstance(value, (Gst.ValueArray, Gst.ValueList)):
        return [to_python(value[i]) for i in range(len(value))]
    if isinstance(value, Gst.Structure):
        return {value.nth_field_name(i):
                to_python(value.get_value(value.nth_field_name(i)))
                for i in range(value.n_fields())}
    if isinstance(value, int) and value == CLOCK_TIME_NONE:
        return None
    return value


def bus_messages(element, frames, caps="video/x-raw,format=GRAY8,"
                 "width=160,height=120", video=None, names=("histogram",)):
    """The messages (histogram, by default) of the probe's pipeline, run
    here: the first `frames` frames, then EOS, as --max-frames does."""
    uri = Gst.filename_to_uri(video or VIDEO)
    pipeline = Gst.parse_launch(
        f'uridecodebin uri="{uri}" ! videoconvert ! videoscale ! {caps} ! '
        f'{element} ! fakesink sync=false')
    seen = [0]

    def limit(pad, info):
        seen[0] += 1
        if seen[0] <= frames:
            return Gst.PadProbeReturn.OK
        if seen[0] == frames + 1:
            pad.send_event(Gst.Event.new_eos())
        return Gst.PadProbeReturn.DROP

    pipeline.get_by_name("h").get_static_pad("sink").add_probe(
        Gst.PadProbeType.BUFFER, limit)
    pipeline.set_state(Gst.State.PLAYING)
    bus = pipeline.get_bus()
    messages = []
    while True:
        msg = bus.timed_pop_filtered(
            60 * Gst.SECOND, Gst.MessageType.ELEMENT | Gst.MessageType.EOS
            | Gst.MessageType.ERROR)
        assert msg and msg.type != Gst.MessageType.ERROR, msg
        if msg.type == Gst.MessageType.EOS:
            break
        s = msg.get_structure()
        if s.get_name() in names:
            messages.append((s.get_name(), [s.nth_field_name(i) for i in
                                            range(s.n_fields())],
                             to_python(s)))
    pipeline.set_state(Gst.State.NULL)
    return messages


def without_counts(obj):
    obj = {k: v for k, v in obj.items() if k != "counts"}
    obj["regions"] = [{k: v for k, v in r.items() if k != "counts"}
                      for r in obj["regions"]]
    return obj


class Output(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        status, stdout, stderr = probe("-n", str(FRAMES), *OPTIONS, VIDEO)
        assert status == 0, stderr
        cls.lines = stdout.splitlines()
        cls.objects = json_lines(stdout)

    def test_equals_bus_messages(self):
        messages = bus_messages(ELEMENT, FRAMES)
        self.assertEqual(len(self.objects), FRAMES)
        self.assertEqual(len(messages), FRAMES)
        for obj, (name, fields, fields_value) in zip(self.objects, messages):
            self.assertEqual(list(obj), ["input", "pts"] + fields)
            want = dict(fields_value, pts=fields_value["timestamp"],
                        input=VIDEO)
            self.assertEqual(obj, want)
            self.assertEqual(len(obj["regions"]), 4 + 3)
            self.assertEqual([(r["type"], r["id"]) for r in obj["regions"]],
                             [("zone", i) for i in range(4)]
                             + [("region", i) for i in range(3)])
            self.assertEqual(obj["regions"][6]["pixels"], 0)

    def test_pts_and_duration(self):
        # vtest.avi: 10 frames a second.
        self.assertEqual([o["pts"] for o in self.objects],
                         [i * 100000000 for i in range(FRAMES)])
        self.assertEqual({o["duration"] for o in self.objects}, {100000000})
        self.assertTrue(all(o["pts"] == o["timestamp"] for o in self.objects))

    def test_one_object_a_line(self):
        self.assertTrue(all(line.startswith("{") and line.endswith("}")
                            for line in self.lines))
        self.assertIsInstance(self.objects[0]["mean"][0], float)

    def test_no_counts(self):
        status, stdout, stderr = probe("-n", str(FRAMES), "--no-counts",
                                       *OPTIONS, VIDEO)
        self.assertEqual(status, 0, stderr)
        objects = json_lines(stdout)
        for obj, full in zip(objects, self.objects):
            self.assertNotIn("counts", obj)
            self.assertTrue(all("counts" not in r for r in obj["regions"]))
            self.assertEqual(obj, without_counts(full))

    def test_quiet(self):
        status, stdout, stderr = probe("-q", "-n", "2", VIDEO)
        self.assertEqual((status, stdout, stderr), (0, "", ""))

    def test_file_name_in_any_characters(self):
        with tempfile.TemporaryDirectory() as folder:
            name = os.path.join(folder, "vidéo ünïcode.avi")
            shutil.copy(VIDEO, name)
            status, stdout, stderr = probe("-n", str(FRAMES), *OPTIONS, name)
            self.assertEqual(status, 0, stderr)
            # The same lines but for the input's name, the argument.
            objects = json_lines(stdout)
            self.assertEqual({o["input"] for o in objects}, {name})
            member = '{"input":' + json.dumps(name, ensure_ascii=False)
            self.assertEqual(
                [line.replace(member, '{"input":' + json.dumps(VIDEO), 1)
                 for line in stdout.splitlines()], self.lines)
            status, stdout, stderr = probe(
                "-n", "2", Gst.filename_to_uri(name))
            self.assertEqual(status, 0, stderr)
            self.assertEqual(len(json_lines(stdout)), 2)


class Exposure(unittest.TestCase):
    def test_alerts_and_metering_equal_bus_messages(self):
        # Alerts at 1% of an area's samples, acting at once: vtest.avi
        # clips and crushes about that much in several of its 3x3 zones.
        status, stdout, stderr = probe(
            "-n", str(FRAMES), "--format", "GRAY8", "--width", "160",
            "--height", "120", "--zones", "3x3", "--metering",
            "centre-weighted", "--alert-clipped", "1", "--alert-crushed",
            "1", "--alert-hold", "0", "--no-counts", VIDEO)
        self.assertEqual(status, 0, stderr)
        objects = json_lines(stdout)
        messages = bus_messages(
            "clhistogram name=h zones=3x3 metering=centre-weighted "
            "alert-clipped=1 alert-crushed=1 alert-hold=0 "
            "message-counts=false", FRAMES,
            names=("histogram", "exposure"))
        self.assertEqual(len(objects), len(messages))
        exposure = 0
        for obj, (name, fields, value) in zip(objects, messages):
            want = dict(value, pts=value["timestamp"], input=VIDEO)
            if name == "exposure":
                exposure += 1
                want["message"] = "exposure"
                want["duration"] = None
                self.assertEqual(list(obj), ["input", "pts", "message"]
                                 + fields + ["duration"])
                self.assertIn(obj["alert"], ("clipped", "crushed"))
                self.assertIn(obj["event"], ("start", "clear"))
            else:
                self.assertEqual(list(obj), ["input", "pts"] + fields)
                self.assertTrue(0 < obj["metering"] < 255)
                self.assertAlmostEqual(obj["metering-percent"],
                                       obj["metering"] * 100 / 255)
            self.assertEqual(obj, want)
        self.assertGreater(exposure, 0)


class Check(unittest.TestCase):
    def test_check_clip_levels(self):
        # Limited-range 10-bit Y, U and V clipped at a zebra level and in
        # the footroom, every zone against the reference.
        status, stdout, stderr = probe(
            "--check", "-n", "3", "--format", "I420_10LE", "--mode",
            "channels", "--zones", "2x2", "--clip-low-level", "-2.5",
            "--clip-high-level", "95", VIDEO)
        self.assertEqual(status, 0, stderr)
        objects = json_lines(stdout)
        self.assertEqual(len(objects), 3)
        # 64 - 0.025 x 876 = 42.1 and 64 + 0.95 x 876 = 896.2 (Y); chroma
        # 64 - 0.025 x 896 = 41.6 and 64 + 0.95 x 896 = 915.2.
        for obj in objects:
            self.assertEqual(obj["clip-low-level"], [42, 42, 42])
            self.assertEqual(obj["clip-high-level"], [896, 915, 915])
            self.assertEqual(obj["regions"][3]["clip-high-level"],
                             [896, 915, 915])


    def test_check_every_histogram(self):
        status, stdout, stderr = probe(
            "--check", "-q", "-n", "10", "--expect-frames", "10",
            "--format", "RGBA", "--mode", "channels", "--bins", "32",
            "--zones", "3x2", "--regions", "<<0,0,100,80>,<700,500,200,200>>",
            VIDEO)
        self.assertEqual(status, 0, stderr)
        self.assertEqual(stdout, "")
        self.assertRegex(stderr.strip(), r"^10 frames of .* as 768x576 RGBA, "
                         r"mode channels, 32 bins, 9 histograms a frame, "
                         r"on .*: 0 differ from the golden reference$")

    def test_check_as_decoded(self):
        status, stdout, stderr = probe("--check", "-n", "3", "--mode", "hue",
                                       VIDEO)
        self.assertEqual(status, 0, stderr)
        self.assertEqual(len(json_lines(stdout)), 3)
        self.assertIn("as 768x576 I420, mode hue, 180 bins", stderr)

    def test_expect_frames(self):
        status, _, stderr = probe("-q", "-n", "2", "--expect-frames", "3",
                                  VIDEO)
        self.assertEqual(status, 1)
        self.assertIn("expected 3 frames, got 2", stderr)


class Interval(unittest.TestCase):
    def test_interval(self):
        if not Gst.ElementFactory.make("clhistogram").find_property(
                "interval"):
            self.skipTest("this clhistogram has no interval property")
        status, stdout, stderr = probe("-n", "12", "--interval", "500000000",
                                       "--no-counts", VIDEO)
        self.assertEqual(status, 0, stderr)
        objects = json_lines(stdout)
        self.assertEqual([o["frames"] for o in objects], [5, 5, 2])
        self.assertEqual([o["pts"] for o in objects],
                         [0, 500000000, 1000000000])
        self.assertEqual([o["duration"] for o in objects],
                         [500000000, 500000000, 200000000])
        messages = bus_messages("clhistogram name=h interval=500000000", 12,
                                caps="video/x-raw")
        self.assertEqual([without_counts(dict(m[2], pts=m[2]["timestamp"],
                                              input=VIDEO))
                          for m in messages], objects)


class Errors(unittest.TestCase):
    def fails(self, status, *args):
        got, stdout, stderr = probe(*args)
        self.assertEqual(got, status, stderr)
        self.assertEqual(stdout, "")
        lines = stderr.splitlines()
        self.assertEqual(len(lines), 1, stderr)
        self.assertTrue(lines[0].startswith("clhistogram-probe: "), stderr)
        return lines[0]

    def test_unknown_mode(self):
        line = self.fails(2, "--mode", "lumen", VIDEO)
        for mode in ("luma", "channels", "max", "hue", "hue-saturation",
                     "rgb"):
            self.assertIn(mode, line)

    def test_bad_bins(self):
        for bins in ("0", "65537", "many", "-3"):
            self.assertIn("1 to 65536", self.fails(2, "--bins", bins, VIDEO))

    def test_bad_percentiles(self):
        for ps in ("1,x", "150", "-1", "1,,2", "nan"):
            self.assertIn("0 to 100", self.fails(2, "--percentiles", ps,
                                                 VIDEO))

    def test_percentile_given_twice(self):
        self.assertIn("given twice", self.fails(2, "--percentiles",
                                                "10,50,50.0", VIDEO))

    def test_size_beyond_the_element(self):
        """A size clhistogram cannot count is an option error that says
        the largest, not a stream error once the pipeline runs."""
        for option in ("--width", "--height"):
            for pixels in ("16385", "100000", "2147483647"):
                line = self.fails(2, option, pixels, VIDEO)
                self.assertIn(f"{option}: {pixels} pixels", line)
                self.assertIn("give 1 to 16384", line)

    def test_video_too_wide(self):
        """A 16,400-pixel-wide video, counted as decoded, is said to be
        larger than clhistogram counts, with the limit and what to do,
        not "Internal data stream error"."""
        with tempfile.TemporaryDirectory() as folder:
            wide = os.path.join(folder, "wide.mkv")
            subprocess.run(["ffmpeg", "-loglevel", "error", "-f", "lavfi",
                            "-i", "color=c=gray:size=16400x16:d=0.1",
                            "-frames:v", "2", "-c:v", "ffv1", wide],
                           check=True, timeout=seconds(120))
            line = self.fails(1, "-n", "1", wide)
        self.assertIn("its 16400x16 frames are larger than clhistogram "
                      "counts (16384x16384 at most): give --width and "
                      "--height", line)

    def test_regions_bounded(self):
        """Regions nested deeper than the property's form, or longer than
        64 KiB, are refused before GStreamer's value parser, which recurses
        once per level (a text 100,000 deep overflowed its stack)."""
        self.assertIn("nested 100000 deep",
                      self.fails(2, "--regions", "<" * 100000, VIDEO))
        self.assertIn("nested 3 deep", self.fails(
            2, "--regions", "<<<1,2,3,4>>>", VIDEO))
        self.assertIn("give at most 65536", self.fails(
            2, "--regions", "1,2,3,4;" * 9000, VIDEO))
        with tempfile.TemporaryDirectory() as folder:
            conf = os.path.join(folder, "in.conf")
            with open(conf, "w", encoding="ascii") as f:
                f.write(f"[cam]\nuri={VIDEO}\nregions={'<' * 100000}\n")
            self.assertIn("nested 100000 deep",
                          self.fails(2, "--inputs", conf))

    def test_bad_clip_levels(self):
        for option in ("--clip-low-level", "--clip-high-level"):
            for level in ("111", "-11", "x", "", "nan", "95%"):
                self.assertIn("-10 to 110",
                              self.fails(2, option, level, VIDEO))

    def test_bad_metering_and_alerts(self):
        line = self.fails(2, "--metering", "matrix", VIDEO)
        for mode in ("none", "average", "centre-weighted", "spot", "zones"):
            self.assertIn(mode, line)
        self.assertIn("0 or more",
                      self.fails(2, "--metering-weights", "1,-1", VIDEO))
        for option in ("--alert-clipped", "--alert-crushed",
                       "--alert-hysteresis"):
            self.assertIn("0 to 100", self.fails(2, option, "101", VIDEO))
        self.assertIn("integer", self.fails(2, "--alert-hold", "1.5", VIDEO))

    def test_bad_zones(self):
        for zones in ("0x3", "3", "3x", "65x2", "axb"):
            self.assertIn("1..64", self.fails(2, "--zones", zones, VIDEO))

    def test_bad_regions(self):
        self.assertIn("x,y,width,height",
                      self.fails(2, "--regions", "1,2,3", VIDEO))
        self.assertIn("width and height >= 0",
                      self.fails(2, "--regions", "1,2,-3,4", VIDEO))
        self.fails(2, "--regions", "<<1,2,3>>", VIDEO)

    def test_unknown_format(self):
        self.assertIn("GRAY8", self.fails(2, "--format", "GREY8", VIDEO))

    def test_unknown_option(self):
        self.assertIn("--frobnicate", self.fails(2, "--frobnicate", VIDEO))

    def test_no_input(self):
        self.fails(2)
        self.fails(2, VIDEO, VIDEO)

    def test_missing_file(self):
        line = self.fails(1, "/nonexistent/vtest.avi")
        self.assertIn("/nonexistent/vtest.avi", line)
        self.fails(1, "file:///nonexistent/vtest.avi")

    def test_not_a_video(self):
        with tempfile.TemporaryDirectory() as folder:
            text = os.path.join(folder, "notes.avi")
            with open(text, "w") as f:
                f.write("not a video\n" * 100)
            self.fails(1, text)
            sound = os.path.join(folder, "sound.wav")
            with wave.open(sound, "wb") as w:
                w.setnchannels(1)
                w.setsampwidth(2)
                w.setframerate(8000)
                w.writeframes(bytes(16000))
            self.assertIn("no video stream", self.fails(1, sound))
            self.fails(1, folder)

    def test_bad_option_before_bad_input(self):
        self.fails(2, "--mode", "lumen", "/nonexistent/vtest.avi")


# Exit statuses of docs/probe.md and the manual page: stdout could not be written; stopped at
# once by SIGINT or SIGTERM (128 + its number).
EXIT_OUTPUT = 3
EXIT_SIGINT = 128 + signal.SIGINT
EXIT_SIGTERM = 128 + signal.SIGTERM
# Lines of about 18 KB, each longer than what a pipe takes at once
# (PIPE_BUF, 4096 bytes): a write of one can be cut short.
LONG_LINES = ["--zones", "4x4"]


# The streams' time to end after a signal (--stop-timeout; the probe's 5 s
# unless the timeouts are scaled, as under the sanitizers). A test of
# that wait itself gives 5 after it.
STOP = ["--stop-timeout", str(max(5, round(seconds(5))))]


def start(*args, stdout=subprocess.PIPE):
    env = dict(os.environ, GST_DEBUG="0")
    return subprocess.Popen([PROBE, *STOP, *args], stdout=stdout,
                            stderr=subprocess.PIPE, env=env)


def wait_signals_taken(proc):
    wait_for(proc, signals_taken, "it took its signals")


def finish(proc, timeout=PROMPT_S):
    """The exit status, stdout and stderr of a started probe; one still
    running after `timeout` s is killed and fails the test."""
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        stdout, stderr = proc.communicate()
        raise AssertionError(f"still running after {timeout} s; stderr: "
                             f"{stderr.decode()!r}") from None
    return proc.returncode, (stdout or b"").decode(), stderr.decode()


def read_playing(proc):
    """Reads a probe's first line: from then on it runs, past its start-up
    (a signal ends the streams instead of stopping the probe)."""
    if not proc.stdout.readline():
        raise AssertionError("the probe ended before its first line")


def fill_pipe(proc):
    """Waits until the probe fills stdout's pipe, which no one reads, and
    waits in a write for the reader; the bytes the pipe holds."""
    wait_for(proc, writing_blocked, "it waits for stdout's reader")
    buf = array.array("i", [0])
    fcntl.ioctl(proc.stdout.fileno(), termios.FIONREAD, buf)
    return buf[0]


def send_taken(proc, sig):
    """Sends @sig and waits until the probe took it, so that a signal
    sent next is a second one."""
    proc.send_signal(sig)
    wait_for(proc, lambda pid: not signal_pending(sig)(pid),
             f"it took signal {sig}")


class Unix(unittest.TestCase):
    """stdout and signals: every line that comes out is whole JSON, and
    each way of ending has its exit status and one line on stderr."""

    def assert_whole_lines(self, stdout, cut_allowed=False):
        lines = stdout.split("\n")
        tail = lines.pop()
        if not cut_allowed:
            self.assertEqual(tail, "", "the last line is cut")
        objects = [json.loads(line) for line in lines]
        self.assertTrue(all(o["pts"] == i * 100000000
                            for i, o in enumerate(objects)), "a line is lost")
        return objects

    def assert_one_line(self, stderr, text):
        lines = stderr.splitlines()
        self.assertEqual(len(lines), 1, stderr)
        self.assertTrue(lines[0].startswith("clhistogram-probe: "), stderr)
        self.assertIn(text, lines[0])

    def test_full_disk(self):
        with open("/dev/full", "wb") as full:
            status, _, stderr = finish(start("-n", "3", VIDEO, stdout=full))
        self.assertEqual(status, EXIT_OUTPUT, stderr)
        self.assert_one_line(stderr, "No space left on device")

    def test_closed_stdout(self):
        env = dict(os.environ, GST_DEBUG="0")
        for quiet, want in (([], EXIT_OUTPUT), (["-q"], 0)):
            proc = subprocess.Popen(
                ["sh", "-c", 'exec "$0" "$@" >&-', PROBE, *quiet, "-n", "3",
                 VIDEO], stderr=subprocess.PIPE, env=env)
            status, _, stderr = finish(proc)
            self.assertEqual(status, want, stderr)
            if want:
                self.assert_one_line(stderr, "stdout is closed")
            else:
                self.assertEqual(stderr, "")

    def test_stdout_read_only(self):
        with open(os.devnull, "rb") as null:
            status, _, stderr = finish(start("-n", "3", VIDEO, stdout=null))
        self.assertEqual(status, EXIT_OUTPUT, stderr)
        self.assert_one_line(stderr, "Bad file descriptor")

    def test_reader_takes_one_line(self):
        """| head -1: the reader goes away; the probe says so and fails."""
        proc = start("-n", "100", *LONG_LINES, VIDEO)
        first = proc.stdout.readline()
        proc.stdout.close()
        proc.stdout = None
        status, _, stderr = finish(proc)
        self.assertEqual(json.loads(first)["pts"], 0)
        self.assertEqual(status, EXIT_OUTPUT, stderr)
        self.assert_one_line(stderr, "Broken pipe")

    def test_signal_at_start_up(self):
        """A FIFO no one writes to: the source waits in open() inside the
        state change; one that is open but stays empty: in read()."""
        with tempfile.TemporaryDirectory() as folder:
            fifo = os.path.join(folder, "stalled.avi")
            os.mkfifo(fifo)
            for sig, want in ((signal.SIGINT, EXIT_SIGINT),
                              (signal.SIGTERM, EXIT_SIGTERM)):
                for writer in (False, True):
                    with self.subTest(sig=sig, writer=writer):
                        # O_RDWR: a writer that never writes, without
                        # waiting for a reader.
                        fd = os.open(fifo, os.O_RDWR) if writer else None
                        proc = start(fifo)
                        wait_signals_taken(proc)
                        proc.send_signal(sig)
                        status, stdout, stderr = finish(proc)
                        if fd is not None:
                            os.close(fd)
                        self.assertEqual((status, stdout), (want, ""), stderr)
                        self.assert_one_line(stderr, "while starting")

    def test_sigint_while_a_file_starts(self):
        """Never the demuxer's error for an EOS during its start: either
        stopped while starting, or the stream ended at once. The signal
        comes at two states of the start: once the probe takes signals,
        and once its source has opened the file (the demuxer starting)."""
        for moment, holds in (("signals taken", signals_taken),
                              ("file opened", file_open(VIDEO))):
            with self.subTest(moment=moment):
                proc = start(*LONG_LINES, VIDEO)
                wait_signals_taken(proc)
                wait_for(proc, holds, moment)
                proc.send_signal(signal.SIGINT)
                status, stdout, stderr = finish(proc)
                self.assertIn(status, (0, EXIT_SIGINT), stderr)
                self.assertNotIn("stream error", stderr)
                self.assertNotIn("demultiplex", stderr)
                self.assert_whole_lines(stdout)
                if status:
                    self.assert_one_line(stderr, "while starting")
                else:
                    self.assertEqual(stderr, "")

    def test_sigint_mid_run(self):
        """A reader slower than the stream: SIGINT while the probe waits
        for it (a write that a signal would interrupt) ends the stream; the
        lines up to its end come out whole."""
        proc = start(*LONG_LINES, VIDEO)
        fill_pipe(proc)
        proc.send_signal(signal.SIGINT)
        status, stdout, stderr = finish(proc)
        self.assertEqual(status, 0, stderr)
        self.assertEqual(stderr, "")
        objects = self.assert_whole_lines(stdout)
        self.assertLess(len(objects), 795)

    def test_hangup_and_usr1_ignored(self):
        """SIGHUP (a service manager's reload) of a probe given its input on
        the command line, not in an --inputs file, reloads nothing and says
        so (stderr, and a reload-failed line once its main loop took it);
        SIGUSR1 mid-run is said and ignored: the probe goes on, and a
        SIGINT then ends it as usual (test_probe_reload.py has the
        reloads). SIGQUIT stops it at once (131)."""
        small = ["--format", "GRAY8", "--width", "160", "--height", "120",
                 "--no-counts", "--sync", VIDEO]
        proc = start(*small)
        read_playing(proc)
        send_taken(proc, signal.SIGHUP)
        for line in iter(proc.stdout.readline, b""):
            if b'"reload-failed"' in line:
                break
        else:
            raise AssertionError("the probe ended before its reload line")
        send_taken(proc, signal.SIGUSR1)
        proc.send_signal(signal.SIGINT)
        status, _, stderr = finish(proc)
        self.assertEqual(status, 0, stderr)
        self.assertEqual(stderr.splitlines(), [
            "clhistogram-probe: inputs not reloaded (those running go on as "
            "they were): SIGHUP reloads the inputs of an --inputs file, and "
            "these were given on the command line: restart the probe to "
            "change them",
            "clhistogram-probe: SIGUSR1 ignored"])

        proc = start(*small)
        read_playing(proc)
        proc.send_signal(signal.SIGQUIT)
        status, _, stderr = finish(proc)
        self.assertEqual(status, 128 + signal.SIGQUIT, stderr)
        self.assert_one_line(stderr, "stopped by SIGQUIT (at once)")

    def test_descriptor_limit_raised(self):
        """Started with a soft RLIMIT_NOFILE below the hard one, the probe
        raises the soft one to the hard: a fleet of cameras needs more
        than the usual 1024 descriptors."""
        _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard != resource.RLIM_INFINITY and hard <= 64:
            self.skipTest(f"the hard limit, {hard}, leaves nothing to raise")
        env = dict(os.environ, GST_DEBUG="0")
        proc = subprocess.Popen(
            [PROBE, *STOP, "--no-counts", "--sync", *OPTIONS[:6], VIDEO],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE,
                                                  (64, hard)))
        read_playing(proc)
        with open(f"/proc/{proc.pid}/limits", encoding="ascii") as f:
            line = next(line for line in f if line.startswith("Max open files"))
        proc.send_signal(signal.SIGINT)
        status, _, stderr = finish(proc)
        self.assertEqual(status, 0, stderr)
        soft = line.split()[3]
        self.assertEqual(soft, "unlimited" if hard == resource.RLIM_INFINITY
                         else str(hard), line)

    def test_two_signals_stdout_blocked(self):
        """Stdout taking nothing: a second SIGINT stops at once; a reader
        that comes back after it gets every line whole."""
        proc = start(*LONG_LINES, VIDEO)
        fill_pipe(proc)
        send_taken(proc, signal.SIGINT)
        proc.send_signal(signal.SIGINT)
        status, stdout, stderr = finish(proc)
        self.assertEqual(status, EXIT_SIGINT, stderr)
        self.assert_one_line(stderr, "stopped by SIGINT (a second signal)")
        self.assert_whole_lines(stdout)

    def test_sigterm_stdout_never_read(self):
        """A reader that never reads: SIGTERM ends the probe after its
        5 s wait for the stream's end, and a second signal at once (stderr
        says which); a line the reader never took is the only one cut, and
        stderr says so."""
        for second in (False, True):
            with self.subTest(second=second):
                proc = start(*LONG_LINES, "--stop-timeout", "5", VIDEO)
                fill_pipe(proc)
                if second:
                    send_taken(proc, signal.SIGTERM)
                    proc.send_signal(signal.SIGINT)
                else:
                    proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(timeout=PROMPT_S)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
                    self.fail("still running while stdout is not read")
                status, stdout, stderr = finish(proc)
                if second:
                    self.assertEqual(status, EXIT_SIGINT, stderr)
                    self.assertIn("(a second signal)", stderr)
                else:
                    self.assertEqual(status, EXIT_SIGTERM, stderr)
                    self.assertIn("did not end within 5 s", stderr)
                cut = not stdout.endswith("\n")
                self.assertEqual(cut, "its last line is cut" in stderr,
                                 stderr)
                self.assert_one_line(stderr, "stopped by SIG")
                self.assert_whole_lines(stdout, cut_allowed=True)


if __name__ == "__main__":
    PROBE, VIDEO = [a for a in sys.argv[1:] if a != "--no-gi"][:2]
    if NO_GI:
        suite = unittest.TestSuite(
            unittest.defaultTestLoader.loadTestsFromTestCase(case)
            for case in (Errors, Unix))
        result = unittest.TextTestRunner(verbosity=2).run(suite)
        sys.exit(0 if result.wasSuccessful() else 1)
    Gst.init(None)
    unittest.main(argv=sys.argv[:1], verbosity=2)
