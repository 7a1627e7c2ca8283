#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""clhistogram-probe's SIGHUP: the --inputs key file read again, each time
rewritten whole (a new file renamed over it). Inputs added start, removed
ones stop (their camera let go, their series gone from /metrics, a file's
partial interval posted), changed ones restart with their new settings,
the others run on untouched: their camera (tests/avi_camera.py, live
cameras on localhost that stream without end and count the connections
they take) sees no second connection and their counters grow on. A bad
file, a probe given its inputs on the command line, a reload while an
input of the last one still ends and SIGHUP while the probe stops, each
said. With --load: 32 cameras and 10 reloads that each change a few,
none of the others restarted.

    test_probe_reload.py CLHISTOGRAM_PROBE VIDEO [--load]

No gi: it runs under the sanitizers too, against the instrumented probe.
It needs a probe built with libsoup 3 (--metrics)."""
import errno
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.request

from avi_camera import Cameras
from timeouts import seconds

PROBE = VIDEO = None
# Small frames, so that a file counted in real time costs little.
SMALL = "format=GRAY8\nwidth=160\nheight=120\n"


def probe_env():
    # The debug log off, so that stderr holds what the probe says; the
    # leaks tracer (GST_TRACERS from the test's environment) still warns.
    return dict(os.environ, GST_DEBUG="0")


def write_atomically(path, text):
    """The file rewritten as an editor or a configuration manager does: a
    new file renamed over the old, never a file half written."""
    with open(path + ".new", "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(path + ".new", path)


def groups(cameras, names, extra=None):
    """A key file of cameras, each with the keys @extra gives it."""
    extra = extra or {}
    return "".join(f"[{name}]\nuri={cameras.url(name)}\n{extra.get(name, '')}"
                   for name in names)


class Probe:
    """A running probe: its JSON objects and stderr, read as they come.
    Live inputs are not taken down for a stall within the hour: a loaded
    machine must not restart an input the test expects to run on. (Not 0,
    never: souphttpsrc then shares its session through a GstContext, and
    GLib's leak at its end, tests/sanitizers/lsan.supp, shows up outside
    libgstsoup.)"""

    def __init__(self, *args, stop_timeout=5):
        self.proc = subprocess.Popen(
            [PROBE, "--stop-timeout", str(max(stop_timeout,
                                              round(seconds(stop_timeout)))),
             "--stall-timeout", "3600", "--no-counts", "--no-statistics",
             "--metrics", "127.0.0.1:0", *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=probe_env())
        self.lock = threading.Lock()
        self.objects = []
        self.errors = []
        self.readers = [threading.Thread(target=self.read_stdout),
                        threading.Thread(target=self.read_stderr)]
        for reader in self.readers:
            reader.start()
        self.url = None
        self.wait_for(lambda p: p.metrics_url(), "the metrics' URL")

    def read_stdout(self):
        for line in self.proc.stdout:
            with self.lock:
                self.objects.append(json.loads(line))

    def read_stderr(self):
        for line in self.proc.stderr:
            with self.lock:
                self.errors.append(line.decode(errors="replace"))

    def stderr(self):
        with self.lock:
            return "".join(self.errors)

    def metrics_url(self):
        found = re.search(r"metrics on (\S+)", self.stderr())
        self.url = found and found.group(1)
        return self.url

    def lines(self, name, message=None):
        """The input's objects: its histogram lines, or its lines of that
        message."""
        with self.lock:
            return [o for o in self.objects if o["input"] == name
                    and o.get("message") == message]

    def reloads(self):
        """The probe's own lines, a reload's, in order."""
        with self.lock:
            return [o for o in self.objects if o["input"] is None]

    def metrics(self):
        with urllib.request.urlopen(self.url, timeout=seconds(30)) as reply:
            return reply.read().decode()

    def frames_total(self, name):
        found = re.search(rf'^clhistogram_frames_total{{input="{name}"}} '
                          r"(\d+)$", self.metrics(), re.M)
        return found and int(found.group(1))

    def wait_for(self, what, description, timeout=60):
        """Waits until what(self) holds: a state, bounded by a timeout
        scaled as meson test's, never a delay as the condition."""
        deadline = time.monotonic() + seconds(timeout)
        while time.monotonic() < deadline:
            if what(self):
                return
            if self.proc.poll() is not None:
                raise AssertionError(f"the probe ended ({self.proc.returncode}"
                                     f") before {description}; stderr:\n"
                                     f"{self.stderr()}")
            time.sleep(0.1)
        raise AssertionError(f"not {description} within {seconds(timeout)} "
                             f"s; stderr:\n{self.stderr()}")

    def reload(self, path, text):
        """@text as the key file, SIGHUP, and the reload's line."""
        count = len(self.reloads())
        write_atomically(path, text)
        self.proc.send_signal(signal.SIGHUP)
        self.wait_for(lambda p: len(p.reloads()) > count, "the reload's line")
        return self.reloads()[count]

    def end(self):
        """SIGTERM; the exit status once the probe and its readers ended."""
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=seconds(60))
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            for reader in self.readers:
                reader.join()
            self.proc.stdout.close()
            self.proc.stderr.close()
        assert "Leaks detected" not in self.stderr(), self.stderr()
        return self.proc.returncode


def changes(line):
    return {key: line[key] for key in ("added", "removed", "changed",
                                       "unchanged")}


class ReloadCase(unittest.TestCase):
    # The cameras' frames a second.
    FPS = 10

    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="probe-reload-")
        self.addCleanup(shutil.rmtree, self.folder)
        self.conf = os.path.join(self.folder, "probe.conf")
        self.cameras = Cameras(self.FPS)
        self.addCleanup(self.cameras.close)

    def start(self, text, *args, **kwargs):
        write_atomically(self.conf, text)
        probe = Probe("--inputs", self.conf, *args, **kwargs)
        self.addCleanup(lambda: probe.proc.poll() is None and probe.end())
        return probe

    def counting(self, probe, names, frames=3):
        probe.wait_for(lambda p: all(len(p.lines(name)) >= frames
                                     for name in names),
                       f"{frames} frames of each of {names}")

    def counting_on(self, probe, names, more=3):
        """Each of @names counts @more frames beyond those it has."""
        counted = {name: len(probe.lines(name)) for name in names}
        probe.wait_for(lambda p: all(len(p.lines(name)) >= counted[name] + more
                                     for name in names),
                       f"{more} more frames of each of {names}")

    def assert_ran_once(self, probe, name):
        """The camera connected once, one input-up: never restarted."""
        self.assertEqual(self.cameras.connections(name), 1, name)
        self.assertEqual(len(probe.lines(name, "input-up")), 1, name)


class Reload(ReloadCase):
    def test_add_remove_change_keep(self):
        """One reload adds "new", removes "gone", changes "alter" (zones)
        and keeps "keep": "keep" runs on, its counter growing from where
        it was; "alter" restarts with 2x2 zones (a second connection, a
        second input-up: the checks that show "keep" did not restart can
        fail); "gone"'s camera is let go and its series leave /metrics."""
        names = ["keep", "gone", "alter"]
        probe = self.start(groups(self.cameras, names))
        self.counting(probe, names)
        kept = probe.frames_total("keep")
        self.assertGreaterEqual(kept, 3)
        line = probe.reload(self.conf, groups(
            self.cameras, ["keep", "alter", "new"],
            {"alter": "zones=2x2\n"}))
        self.assertEqual(changes(line), {
            "added": ["new"], "removed": ["gone"], "changed": ["alter"],
            "unchanged": ["keep"]})
        self.assertEqual(line["message"], "inputs-reloaded")
        self.assertEqual(line["file"], self.conf)
        probe.wait_for(lambda p: len(p.lines("new")) >= 3
                       and len([o for o in p.lines("alter")
                                if len(o["regions"]) == 4]) >= 3
                       and self.cameras.streaming("gone") == 0
                       and p.frames_total("keep") > kept + 3,
                       "the new set counting, gone let go")
        metrics = probe.metrics()
        self.assertNotIn('input="gone"', metrics)
        self.assertIn('clhistogram_input_up{input="new"} 1', metrics)
        self.assert_ran_once(probe, "keep")
        self.assert_ran_once(probe, "new")
        self.assertEqual(self.cameras.connections("alter"), 2)
        self.assertEqual(len(probe.lines("alter", "input-up")), 2)
        # Before the reload, no zones; after its restart, 2x2 only.
        regions = [len(o["regions"]) for o in probe.lines("alter")]
        first = regions.index(4)
        self.assertEqual(set(regions[:first]), {0})
        self.assertEqual(set(regions[first:]), {4})
        self.assertIn(f"reloaded {self.conf}; added new; removed gone; "
                      "changed alter; 1 unchanged", probe.stderr())
        self.assertNotIn("stopped at once", probe.stderr())
        self.assertEqual(probe.end(), 0, probe.stderr())

    def test_bad_file_keeps_the_inputs(self):
        """Each bad file, then none: a reload-failed line saying why, and
        the inputs run on as they were; a good file after them finds
        them unchanged."""
        names = ["a", "b"]
        good = groups(self.cameras, names)
        probe = self.start(good, "cli=" + self.cameras.url("cli"))
        self.counting(probe, names + ["cli"])
        bad = {
            "[a\nuri=x\n": "not a key-value pair",
            good + "zones=0x2\n": "[b] --zones:",
            good + "zone=2x2\n": "[b] zone: unknown key",
            "# nothing\n": "no inputs",
            good + "[a]\nuri=x\n": "[a] is given twice",
            good + f"[cli]\nuri={VIDEO}\n": 'two inputs are named "cli"',
            good + "quiet=true\n": "[b] quiet: an option of the whole probe",
        }
        said = "clhistogram-probe: inputs not reloaded (those running go " \
            "on as they were): "
        for i, (text, reason) in enumerate(bad.items()):
            with self.subTest(reason=reason):
                line = probe.reload(self.conf, text)
                self.assertEqual(line["message"], "reload-failed")
                self.assertIn(reason, line["reason"])
                probe.wait_for(lambda p: p.stderr().count(said) == i + 1,
                               "the failure said on stderr")
                # In the locale's charset: the reason's quotes may be '?'.
                self.assertIn(reason, probe.stderr().split(said)[-1])
        os.remove(self.conf)
        probe.proc.send_signal(signal.SIGHUP)
        probe.wait_for(lambda p: len(p.reloads()) == len(bad) + 1,
                       "the reload of a missing file said")
        self.assertIn("No such file", probe.reloads()[-1]["reason"])
        self.counting_on(probe, names)
        line = probe.reload(self.conf, good)
        self.assertEqual(changes(line), {"added": [], "removed": [],
                                         "changed": [], "unchanged": names})
        for name in names + ["cli"]:
            self.assert_ran_once(probe, name)
        self.assertEqual(probe.end(), 0, probe.stderr())

    def test_without_inputs_file(self):
        """Inputs on the command line: nothing to read again, said."""
        probe = Probe("cam=" + self.cameras.url("cam"))
        self.addCleanup(lambda: probe.proc.poll() is None and probe.end())
        self.counting(probe, ["cam"])
        probe.proc.send_signal(signal.SIGHUP)
        probe.wait_for(lambda p: p.reloads(), "the reload said")
        line, = probe.reloads()
        self.assertEqual((line["message"], line["file"]),
                         ("reload-failed", None))
        self.assertIn("given on the command line", line["reason"])
        self.counting_on(probe, ["cam"])
        self.assert_ran_once(probe, "cam")
        self.assertEqual(probe.end(), 0, probe.stderr())

    def test_ended_file(self):
        """A file that was counted to its end stays ended while unchanged,
        and is counted again, as a new input, once changed."""
        clip = f"[clip]\nuri={VIDEO}\n{SMALL}"
        probe = self.start(clip + "max-frames=5\n"
                           + groups(self.cameras, ["cam"]))
        self.counting(probe, ["clip", "cam"], 5)
        probe.wait_for(lambda p: p.frames_total("clip") == 5
                       and 'clhistogram_input_up{input="clip"} 0'
                       in p.metrics(), "the clip ended")
        line = probe.reload(self.conf, clip + "max-frames=5\n"
                            + groups(self.cameras, ["cam"]))
        self.assertEqual(changes(line), {"added": [], "removed": [],
                                         "changed": [],
                                         "unchanged": ["clip", "cam"]})
        self.counting_on(probe, ["cam"], 5)
        self.assertEqual(len(probe.lines("clip")), 5)
        line = probe.reload(self.conf, clip + "max-frames=3\n"
                            + groups(self.cameras, ["cam"]))
        self.assertEqual(line["changed"], ["clip"])
        self.counting(probe, ["clip"], 8)
        # A changed input's series start again: a new input.
        probe.wait_for(lambda p: p.frames_total("clip") == 3,
                       "the clip's counter started again")
        self.assert_ran_once(probe, "cam")
        self.assertEqual(probe.end(), 0, probe.stderr())

    def test_removed_file_posts_its_partial_interval(self):
        """A file counted at its rate, one line a second, removed: its
        stream ends as SIGTERM ends it, its partial interval posted (its
        lines' frames add up to every frame --check counted)."""
        interval = 1000000000
        clip = (f"[clip]\nuri={VIDEO}\n{SMALL}sync=true\ncheck=true\n"
                f"interval={interval}\n")
        probe = self.start(clip + groups(self.cameras, ["cam"]))
        self.counting(probe, ["clip"], 2)
        line = probe.reload(self.conf, groups(self.cameras, ["cam"]))
        self.assertEqual(changes(line), {"added": [], "removed": ["clip"],
                                         "changed": [], "unchanged": ["cam"]})
        pattern = r"^(\d+) frames of clip as .*: 0 differ"
        probe.wait_for(lambda p: re.search(pattern, p.stderr(), re.M)
                       and 'input="clip"' not in p.metrics(),
                       "the clip's check summary, its series gone")
        checked = int(re.search(pattern, probe.stderr(), re.M).group(1))
        lines = probe.lines("clip")
        self.assertEqual(sum(o["frames"] for o in lines), checked)
        for before, after in zip(lines, lines[1:]):
            self.assertEqual(after["pts"], before["pts"] + before["duration"])
        # 795 frames at 10 a second: far from its end.
        self.assertLess(lines[-1]["pts"], 70 * interval)
        self.assertEqual(probe.end(), 0, probe.stderr())


class Fifo:
    """A FIFO no one writes to: an input on it stays in its start (its
    source blocks in open()), so that stopping it takes as long as the
    test wants, until let_through()."""

    def __init__(self, folder):
        self.path = os.path.join(folder, "stuck.avi")
        os.mkfifo(self.path)

    def let_through(self):
        """A reader waiting in open() gets through, and reads the end of
        the file; called as a wait polls, since filesrc opens it twice.
        Never blocks: no reader, nothing done. Returns False."""
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as e:
            if e.errno != errno.ENXIO:
                raise
            return False
        os.close(fd)
        return False


class Progress(ReloadCase):
    def test_reloads_while_an_input_ends(self):
        """"slow" is stuck in its start: changed, it cannot end, and what
        replaces it waits. Two more reloads meanwhile replace, then drop,
        that successor, and add "more", which starts at once; once "slow"
        ends, nothing takes its place."""
        fifo = Fifo(self.folder)
        slow = f"[slow]\nuri={fifo.path}\n"
        probe = self.start(groups(self.cameras, ["cam"]) + slow)
        self.counting(probe, ["cam"])
        line = probe.reload(self.conf, groups(self.cameras, ["cam"]) + slow
                            + "zones=2x2\n")
        self.assertEqual(changes(line), {"added": [], "removed": [],
                                         "changed": ["slow"],
                                         "unchanged": ["cam"]})
        line = probe.reload(self.conf, groups(self.cameras, ["cam", "more"])
                            + slow + "zones=3x3\n")
        self.assertEqual(changes(line), {"added": ["more"], "removed": [],
                                         "changed": ["slow"],
                                         "unchanged": ["cam"]})
        self.counting(probe, ["more"])
        line = probe.reload(self.conf, groups(self.cameras, ["cam", "more"]))
        self.assertEqual(changes(line), {"added": [], "removed": ["slow"],
                                         "changed": [],
                                         "unchanged": ["cam", "more"]})
        # Still stuck: the first "slow" has not ended.
        self.assertIn('input="slow"', probe.metrics())
        probe.wait_for(lambda p: fifo.let_through()
                       or 'input="slow"' not in p.metrics(),
                       "slow ended and gone")
        self.assertEqual(probe.lines("slow"), [])
        self.assert_ran_once(probe, "cam")
        self.assert_ran_once(probe, "more")
        self.assertEqual(probe.end(), 0, probe.stderr())

    def test_sighup_while_stopping(self):
        """After SIGTERM, while an input still ends, SIGHUP is said and
        ignored."""
        fifo = Fifo(self.folder)
        probe = self.start(groups(self.cameras, ["cam"])
                           + f"[slow]\nuri={fifo.path}\n", stop_timeout=60)
        self.counting(probe, ["cam"])
        probe.proc.send_signal(signal.SIGTERM)
        # The camera let go: SIGTERM was taken; "slow" holds the probe.
        probe.wait_for(lambda p: self.cameras.streaming("cam") == 0,
                       "the camera let go")
        probe.proc.send_signal(signal.SIGHUP)
        probe.wait_for(lambda p: "SIGHUP ignored: the probe is stopping"
                       in p.stderr(), "SIGHUP said")
        probe.wait_for(lambda p: fifo.let_through()
                       or p.proc.poll() is not None, "the probe's end")
        self.assertEqual(probe.end(), 0, probe.stderr())
        self.assertEqual(probe.reloads(), [])


# The load: cameras, reloads, the inputs each reload changes (among the
# first CHANGING), and those removed (from CHANGING on), one every other
# reload: the cameras after them never change.
CAMERAS = 32
RELOADS = 10
CHANGED = 3
CHANGING = 12


class Load(ReloadCase):
    # 160 frames a second in all: an instrumented probe on two busy cores
    # keeps up, so that its streams end (EOS behind their frames) within
    # the stop timeout.
    FPS = 5

    def test_many_reloads(self):
        """32 cameras, 10 reloads: each changes 3 (their zones), every
        other one also removes one and adds one. Every camera connected
        exactly once per run the reloads asked for, with one input-up
        each: none restarted that did not change."""
        first = [f"cam{i:02}" for i in range(CAMERAS)]
        names = list(first)
        zones = {}
        # The runs each camera should have had: 1 at start, +1 a change.
        runs = {name: 1 for name in names}
        probe = self.start(self.key_file(names, zones), stop_timeout=15)
        self.counting(probe, names, 2)
        untouched = set(names)
        before = {name: probe.frames_total(name) for name in names}
        for r in range(RELOADS):
            changed = [first[(r * CHANGED + k) % CHANGING]
                       for k in range(CHANGED)]
            removed, added = [], []
            if r % 2:
                removed = [first[CHANGING + r // 2]]
                added = [f"extra{r:02}"]
            for name in changed:
                runs[name] += 1
                zones[name] = f"{runs[name]}x1"
            names = [n for n in names if n not in removed] + added
            runs.update({name: 1 for name in added})
            untouched -= set(changed) | set(removed)
            line = probe.reload(self.conf, self.key_file(names, zones))
            self.assertEqual(sorted(line["changed"]), sorted(changed))
            self.assertEqual((line["added"], line["removed"]),
                             (added, removed))
            self.assertEqual(sorted(line["unchanged"]),
                             sorted(set(names) - set(changed) - set(added)))
            probe.wait_for(lambda p: all(
                len(p.lines(name, "input-up")) == runs[name]
                for name in changed + added), f"reload {r + 1}'s restarts")
        self.counting_on(probe, names, 2)
        for name in runs:
            self.assertEqual(self.cameras.connections(name), runs[name], name)
            self.assertEqual(len(probe.lines(name, "input-up")), runs[name],
                             name)
        metrics = probe.metrics()
        for name in set(runs) - set(names):
            self.assertEqual(self.cameras.streaming(name), 0, name)
            self.assertNotIn(f'input="{name}"', metrics)
        self.assertEqual(len(untouched), CAMERAS - CHANGING - RELOADS // 2)
        for name in untouched:
            self.assertGreater(probe.frames_total(name), before[name], name)
        self.assertEqual(probe.end(), 0, probe.stderr())

    def key_file(self, names, zones):
        return groups(self.cameras, names,
                      {name: f"zones={zones[name]}\n" for name in zones})


if __name__ == "__main__":
    PROBE, VIDEO = sys.argv[1], sys.argv[2]
    load = sys.argv[3:] == ["--load"]
    suite = unittest.TestSuite()
    loader = unittest.TestLoader()
    for case in ([Load] if load else [Reload, Progress]):
        suite.addTests(loader.loadTestsFromTestCase(case))
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    sys.exit(0 if result.wasSuccessful() else 1)
