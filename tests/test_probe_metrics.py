#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""clhistogram-probe --metrics, scraped over HTTP while it runs: every
scrape is well-formed exposition text (and passes `promtool check
metrics` where Prometheus is installed), and its values are those of one
of the probe's own JSON lines: the frames counted F, then the mean, min,
max, percentiles and clipped shares of the frame, each zone and each
fixed region of the probe's F-th line, and the alert states of the
exposure lines printed by then. An input named with a quote, backslashes
and a line feed comes back whole from its label. --metrics-regions 1
gives the first zone alone. Bad addresses, a port in use and a bad or
lone --metrics-regions: the exit status and the one line that says what
to do.

    test_probe_metrics.py CLHISTOGRAM_PROBE VIDEO
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import exposition  # noqa: E402
from exposition import series  # noqa: E402
from timeouts import seconds  # noqa: E402

PROBE = VIDEO = None
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


def probe_env():
    return dict(os.environ, GST_DEBUG="0")


class RunningProbe:
    """The probe started with --metrics, its stdout and stderr in files;
    the URL it says once it listens."""

    def __init__(self, args, cwd=None):
        self.dir = tempfile.mkdtemp(prefix="probe-metrics-")
        self.stdout = open(os.path.join(self.dir, "stdout"), "w+b")
        self.stderr = open(os.path.join(self.dir, "stderr"), "w+b")
        self.process = subprocess.Popen([PROBE, *args], stdout=self.stdout,
                                        stderr=self.stderr, cwd=cwd,
                                        env=probe_env())
        self.url = None
        deadline = time.monotonic() + seconds(60)
        while not self.url and time.monotonic() < deadline:
            m = re.search(r"^clhistogram-probe: metrics on (\S+)$",
                          self.err(), re.M)
            if m:
                self.url = m.group(1)
            elif self.process.poll() is not None:
                break
            else:
                time.sleep(0.02)

    def err(self):
        with open(self.stderr.name, "rb") as f:
            return f.read().decode(errors="replace")

    def wait(self):
        status = self.process.wait(timeout=seconds(120))
        self.stdout.close()
        self.stderr.close()
        with open(self.stdout.name, "rb") as f:
            lines = [json.loads(line) for line in f.read().splitlines()]
        return status, lines, self.err()

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.stdout.close()
        self.stderr.close()
        shutil.rmtree(self.dir)


def scrape(url):
    with urllib.request.urlopen(url, timeout=seconds(10)) as reply:
        return reply.status, reply.headers["Content-Type"], \
            reply.read().decode("utf-8")


def ratio(clipped, samples):
    return clipped / samples if samples else 0.0


def point_label(p):
    """A percentile point as the probe labels it: the shortest form."""
    return repr(float(p)).removesuffix(".0")


def expected_areas(line):
    """(extra labels, the area's object) for the frame, each zone and each
    fixed region of a histogram line."""
    yield {}, line
    for region in line.get("regions", []):
        if region["type"] in ("zone", "region"):
            yield {region["type"]: str(region["id"])}, region


def expected_statistics(input_name, line):
    """Every statistic's series and value, from the JSON line alone."""
    table = {}
    points = line.get("percentile-points", [])
    for extra, area in expected_areas(line):
        for c, channel in enumerate(line["channels"]):
            labels = dict(input=input_name, channel=channel, **extra)
            for field in ("mean", "min", "max"):
                table[series(f"clhistogram_{field}", **labels)] = \
                    float(area[field][c])
            table[series("clhistogram_clipped_high_ratio", **labels)] = \
                ratio(area["clipped-high"][c], area["samples"][c])
            table[series("clhistogram_clipped_low_ratio", **labels)] = \
                ratio(area["clipped-low"][c], area["samples"][c])
            for p, value in zip(points, area["percentiles"][c]):
                table[series("clhistogram_percentile",
                             percentile=point_label(p), **labels)] = \
                    float(value)
    if "metering-percent" in line:
        table[series("clhistogram_metering_percent", input=input_name)] = \
            line["metering-percent"]
    return table


STATISTICS = ("clhistogram_mean", "clhistogram_min", "clhistogram_max",
              "clhistogram_percentile", "clhistogram_clipped_high_ratio",
              "clhistogram_clipped_low_ratio", "clhistogram_metering_percent")


def alert_states(lines):
    """For each F (from 1), the alert rows a scrape may show after the F-th
    histogram line: those before its exposure lines, or after them (a
    scrape can fall between the histogram message and the exposure
    message of one frame)."""
    active = {"clipped": (False, ()), "crushed": (False, ())}
    states, f = {0: [dict(active)]}, 0
    for line in lines:
        if line.get("message") == "exposure":
            active[line["alert"]] = (line["active"],
                                     tuple(line["active-zones"]))
            states[f].append(dict(active))
        else:
            f += 1
            states[f] = [dict(active)]
    return states


def alert_rows(table, input_name):
    rows = {}
    for (name, labels), value in table.items():
        labels = dict(labels)
        if name == "clhistogram_alert_active" \
                and labels["input"] == input_name:
            rows[(labels["alert"], labels.get("zone"))] = value
    return rows


def matches_state(rows, state, zones):
    for alert, (active, active_zones) in state.items():
        if rows.get((alert, None)) != float(active):
            return False
        for zone in zones:
            if rows.get((alert, str(zone))) != float(zone in active_zones):
                return False
    return True


class ProbeMetrics(unittest.TestCase):
    def run_probe(self, args, cwd=None):
        probe = RunningProbe(args, cwd)
        self.addCleanup(probe.close)
        self.assertIsNotNone(probe.url, probe.err())
        return probe

    def test_scrapes_are_json_lines(self):
        frames = 40
        started = time.time()
        probe = self.run_probe([
            "--sync", "--metrics", "127.0.0.1:0", "--no-counts",
            "--format", "GRAY8", "--width", "160", "--height", "120",
            "--zones", "2x2", "--regions", "10,10,40,30;150,100,40,40",
            "--percentiles", "1,50,99.5", "--clip-high-level", "90",
            "--alert-clipped", "2",
            "--max-frames", str(frames), VIDEO])
        self.assertRegex(probe.url, r"^http://127\.0\.0\.1:[1-9][0-9]*/metrics$")
        scrapes = []
        while probe.process.poll() is None:
            try:
                status, content_type, text = scrape(probe.url)
            except (urllib.error.URLError, ConnectionError):
                break  # the probe ended between poll() and the request
            self.assertEqual(status, 200)
            self.assertEqual(content_type, CONTENT_TYPE)
            scrapes.append((time.time(), text))
            time.sleep(0.03)
        status, lines, err = probe.wait()
        self.assertEqual(status, 0, err)
        histograms = [line for line in lines if "message" not in line]
        self.assertEqual(len(histograms), frames)
        self.assertTrue(any(line.get("message") == "exposure"
                            for line in lines),
                        "no exposure line: the alerts are not exercised")
        states = alert_states(lines)
        zones = [r["id"] for r in histograms[0]["regions"]
                 if r["type"] == "zone"]

        if shutil.which("promtool"):
            lint = subprocess.run(["promtool", "check", "metrics"],
                                  input=scrapes[-1][1], text=True,
                                  capture_output=True)
            self.assertEqual(lint.returncode, 0, lint.stdout + lint.stderr)

        seen, up_seen, alert_seen = set(), False, False
        for when, text in scrapes:
            table = exposition.samples(exposition.parse(text))
            f = table[series("clhistogram_frames_total", input=VIDEO)]
            self.assertEqual(table[series("clhistogram_messages_total",
                                          input=VIDEO)], f)
            self.assertEqual(table[series("clhistogram_input_downs_total",
                                          input=VIDEO)], 0)
            self.assertEqual(table[series(
                "clhistogram_input_reconnects_total", input=VIDEO)], 0)
            up = table[series("clhistogram_input_up", input=VIDEO)]
            up_seen |= up == 1
            rows = alert_rows(table, VIDEO)
            got = {k: v for k, v in table.items() if k[0] in STATISTICS}
            # Before the first frame, and once the file ended (it is not
            # up any more after it was), an input shows no statistics.
            if f == 0 or (up == 0 and f == frames):
                self.assertEqual(got, {}, f"scrape at F={f}, up={up}")
                continue
            seen.add(f)
            # The F-th line, whole: every statistic, nothing else.
            self.assertEqual(got, expected_statistics(VIDEO,
                                                      histograms[int(f) - 1]),
                             f"scrape at F={f}")
            self.assertTrue(any(matches_state(rows, state, zones)
                                for state in states[int(f)]),
                            f"alerts at F={f}: {rows}")
            alert_seen |= rows[("clipped", None)] == 1
            last = table[series("clhistogram_last_timestamp_seconds",
                                input=VIDEO)]
            self.assertGreaterEqual(last, started)
            self.assertLessEqual(last, when)
        print(f"{len(scrapes)} scrapes, {len(seen)} different F")
        self.assertGreaterEqual(len(seen), 10)
        self.assertTrue(up_seen, "clhistogram_input_up was never 1")
        self.assertTrue(alert_seen, "no scrape saw the clipped alert on")

    def test_metrics_regions(self):
        """--metrics-regions 1 of 2x2 zones: the first zone's series
        alone, once a frame was counted; nothing dropped by the cap."""
        probe = self.run_probe(["--sync", "--quiet", "--metrics",
                                "127.0.0.1:0", "--zones", "2x2",
                                "--metrics-regions", "1", VIDEO])
        deadline = time.monotonic() + seconds(60)
        text = ""
        while (time.monotonic() < deadline
               and not re.search(r"^clhistogram_mean\{", text, re.M)):
            text = scrape(probe.url)[2]
            time.sleep(0.1)
        zones = set(re.findall(r'zone="([0-9]+)"', text))
        self.assertEqual(zones, {"0"}, text[:2000])
        self.assertIn("\nclhistogram_metrics_series_dropped 0\n", text)

    def test_input_name_escaped(self):
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        name = 'cam "north"\\door\nline 2.avi'
        os.symlink(os.path.abspath(VIDEO), os.path.join(tmp, name))
        # No --max-frames: at the clip's pace it runs for many seconds, so
        # that the scrape finds it up, not ended (an ended input has no
        # statistics), however loaded the machine; SIGTERM then ends it.
        probe = self.run_probe(["--sync", "--quiet", "--metrics",
                                "127.0.0.1:0", name], cwd=tmp)
        table = {}
        deadline = time.monotonic() + seconds(60)
        while (probe.process.poll() is None and time.monotonic() < deadline
               and not table.get(series("clhistogram_frames_total",
                                        input=name))):
            table = exposition.samples(exposition.parse(
                scrape(probe.url)[2]))
        self.assertGreater(table.get(series("clhistogram_frames_total",
                                            input=name), 0), 0)
        self.assertIn(series("clhistogram_mean", input=name, channel="Y"),
                      table)
        probe.process.terminate()
        status, _, err = probe.wait()
        self.assertEqual(status, 0, err)

    def test_errors(self):
        bad = {
            "9610": "has no port: give HOST:PORT",
            "::1:9610": "an IPv6 address goes in brackets",
            "127.0.0.1:70000": "not a number from 0 to 65535",
            "[1.2.3.4]:9610": "in brackets is not an IPv6 address",
        }
        for address, words in bad.items():
            done = subprocess.run([PROBE, "--quiet", "--metrics", address,
                                   VIDEO], capture_output=True, text=True,
                                  env=probe_env(), timeout=seconds(60))
            self.assertEqual(done.returncode, 2, done.stderr)
            self.assertEqual(done.stderr.count("\n"), 1, done.stderr)
            self.assertTrue(done.stderr.startswith(
                f'clhistogram-probe: --metrics: "{address}"'), done.stderr)
            self.assertIn(words, done.stderr)
        regions = {
            ("--metrics", "127.0.0.1:0", "--metrics-regions", "2x"):
                '--metrics-regions: "2x" is not all, none or a number',
            ("--metrics-regions", "none"):
                "--metrics-regions: only with --metrics ADDRESS:PORT",
        }
        for args, words in regions.items():
            done = subprocess.run([PROBE, "--quiet", *args, VIDEO],
                                  capture_output=True, text=True,
                                  env=probe_env(), timeout=seconds(60))
            self.assertEqual(done.returncode, 2, done.stderr)
            self.assertEqual(done.stderr.count("\n"), 1, done.stderr)
            self.assertIn(words, done.stderr)
        # Counting at its own pace until told to stop, so that it holds
        # the port however slowly the second probe starts.
        first = self.run_probe(["--sync", "--quiet", "--metrics",
                                "127.0.0.1:0", VIDEO])
        port = first.url.rsplit(":", 1)[1].split("/")[0]
        done = subprocess.run([PROBE, "--quiet", "--metrics",
                               f"127.0.0.1:{port}", VIDEO],
                              capture_output=True, text=True,
                              env=probe_env(), timeout=seconds(60))
        self.assertEqual(done.returncode, 1, done.stderr)
        self.assertEqual(done.stderr,
                         f'clhistogram-probe: --metrics: "127.0.0.1:{port}": '
                         f"port {port} is in use (another probe or "
                         "exporter?): give another port, or 0 for any free "
                         "one\n")
        # Past its start-up, where a signal would stop it at once: a
        # second frame counted means the pipeline plays (--sync holds the
        # first in the sink until it does).
        deadline = time.monotonic() + seconds(60)
        while (time.monotonic() < deadline
               and not re.search(r"^clhistogram_frames_total\S* "
                                 r"([2-9]|[1-9][0-9])",
                                 scrape(first.url)[2], re.M)):
            time.sleep(0.1)
        first.process.send_signal(signal.SIGTERM)
        status, _, err = first.wait()
        self.assertEqual(status, 0, err)


if __name__ == "__main__":
    PROBE, VIDEO = os.path.abspath(sys.argv[1]), sys.argv[2]
    unittest.main(argv=sys.argv[:1], verbosity=2)
