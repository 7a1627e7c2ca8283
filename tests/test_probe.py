#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""clhistogram-probe: its JSON Lines equal the bus messages of the same
pipeline run here through Gst Python, field by field (regions included);
--no-counts, --check, --interval, a file name in any characters, and the
exit status and one-line message of every kind of bad option and bad input.

    test_probe.py CLHISTOGRAM_PROBE VIDEO
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
import wave

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
                          timeout=300)
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
                 "width=160,height=120", video=None):
    """The histogram messages of the probe's pipeline, run here: the
    first `frames` frames, then EOS, as --max-frames does."""
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
        if s.get_name() == "histogram":
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
            self.assertEqual(list(obj), ["pts"] + fields)
            want = dict(fields_value, pts=fields_value["timestamp"])
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
            self.assertEqual(stdout.splitlines(), self.lines)
            status, stdout, stderr = probe(
                "-n", "2", Gst.filename_to_uri(name))
            self.assertEqual(status, 0, stderr)
            self.assertEqual(len(json_lines(stdout)), 2)


class Check(unittest.TestCase):
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
        self.assertEqual([without_counts(dict(m[2], pts=m[2]["timestamp"]))
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


if __name__ == "__main__":
    PROBE, VIDEO = sys.argv[1], sys.argv[2]
    Gst.init(None)
    unittest.main(argv=sys.argv[:1], verbosity=2)
