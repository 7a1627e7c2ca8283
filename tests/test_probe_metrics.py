#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""clhistogram-probe --metrics, scraped over HTTP while it runs: every
scrape is well-formed exposition text (and passes `promtool check
metrics` where Prometheus is installed), and its values are those of one
of the probe's own JSON lines: the frames counted F, then the mean, min,
max, quantiles (with the line's depth as bits) and clipped shares of the
frame, each zone (by id and by its place, row, column and position, as
written out here for 2x2) and each fixed region of the probe's F-th
line, the metering ratio, and the states of the alerts on (alone: the
other is not given) from the exposure lines printed by then, with their
thresholds, each zone's placed.
The inputs' states and losses: a file at its end is ended, a missing one
down, a camera that cannot be reached down with one outage and its
failed retries counted apart; frames a decoder could not decode are
counted dropped and frames that come after their time on the clock late,
exactly or at least as many as the clips hold, a clip that loses nothing
0 of each. An input named with a quote, backslashes and a line feed
comes back whole from its label. --metrics-regions 1 gives the first
zone alone. Bad addresses, a port in use and a bad or lone
--metrics-regions: the exit status and the one line that says what to
do.

    test_probe_metrics.py CLHISTOGRAM_PROBE VIDEO
"""
import json
import os
import socket
import struct
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
from decimal import Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import exposition  # noqa: E402
from exposition import series  # noqa: E402
from probe_server import metrics_url, probe_env  # noqa: E402
from timeouts import seconds  # noqa: E402

PROBE = VIDEO = None
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


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
        self.url = metrics_url(self.process, self.err)

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


def quantile_label(p):
    """A percentile point as the probe labels it: p / 100 in decimal, in
    its shortest form (99.9 -> 0.999, 50 -> 0.5)."""
    return format(Decimal(repr(float(p))).scaleb(-2).normalize(), "f")


# The places of 2x2 zones by id, as clhistogram names them: (row,
# column, position).
PLACES_2X2 = {0: ("0", "0", "top-left"), 1: ("0", "1", "top-right"),
              2: ("1", "0", "bottom-left"), 3: ("1", "1", "bottom-right")}


def place_labels(region):
    """A zone's labels of its place, from its line's region."""
    return dict(row=str(region["row"]), column=str(region["column"]),
                position=region["position"])


def expected_areas(line):
    """(extra labels, the area's object) for the frame, each zone (its
    place too) and each fixed region of a histogram line."""
    yield {}, line
    for region in line.get("regions", []):
        if region["type"] == "zone":
            yield dict(zone=str(region["id"]), **place_labels(region)), region
        elif region["type"] == "region":
            yield {"region": str(region["id"])}, region


def expected_statistics(input_name, line):
    """Every statistic's series and value, from the JSON line alone."""
    table = {}
    points = line.get("percentile-points", [])
    bits = str(line["depth"])
    for extra, area in expected_areas(line):
        for c, channel in enumerate(line["channels"]):
            labels = dict(input=input_name, channel=channel, **extra)
            for field in ("mean", "min", "max"):
                table[series(f"clhistogram_{field}", bits=bits,
                             **labels)] = float(area[field][c])
            table[series("clhistogram_clipped_high_ratio", **labels)] = \
                ratio(area["clipped-high"][c], area["samples"][c])
            table[series("clhistogram_clipped_low_ratio", **labels)] = \
                ratio(area["clipped-low"][c], area["samples"][c])
            for p, value in zip(points, area["percentiles"][c]):
                table[series("clhistogram_quantile", bits=bits,
                             quantile=quantile_label(p), **labels)] = \
                    float(value)
    if "metering-percent" in line:
        table[series("clhistogram_metering_ratio", input=input_name)] = \
            line["metering-percent"] / 100
    return table


STATISTICS = ("clhistogram_mean", "clhistogram_min", "clhistogram_max",
              "clhistogram_quantile", "clhistogram_clipped_high_ratio",
              "clhistogram_clipped_low_ratio", "clhistogram_metering_ratio")
STATES = ("starting", "up", "down", "ended")


def alert_states(lines, alerts):
    """For each F (from 1), the rows of the alerts on (`alerts`) a scrape
    may show after the F-th histogram line: those before its exposure
    lines, or after them (a scrape can fall between the histogram message
    and the exposure message of one frame)."""
    active = {alert: (False, ()) for alert in alerts}
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


def alert_rows(table, input_name, places=None):
    """(alert, zone) -> value of the input's alert rows; each zone's row
    placed as `places` (zone id -> (row, column, position)) says, where
    given."""
    rows = {}
    for (name, labels), value in table.items():
        labels = dict(labels)
        if name == "clhistogram_alert_active" \
                and labels["input"] == input_name:
            zone = labels.get("zone")
            if zone is not None and places is not None:
                assert (labels.get("row"), labels.get("column"),
                        labels.get("position")) == places[int(zone)], labels
            rows[(labels["alert"], zone)] = value
    return rows


def matches_state(rows, state, zones):
    """Whether the rows are exactly those of the alerts' state: the
    input's and each zone's, of the alerts on alone."""
    expected = {}
    for alert, (active, active_zones) in state.items():
        expected[(alert, None)] = float(active)
        for zone in set(zones) | set(active_zones):
            expected[(alert, str(zone))] = float(zone in active_zones)
    return rows == expected


def write_clip(path, elements, frames=30):
    """A clip of videotestsrc's, 64x48 at 10 frames a second, through
    gst-launch-1.0 (no gi: this test runs under the sanitizers too)."""
    subprocess.run(
        ["gst-launch-1.0", "-q", "videotestsrc", f"num-buffers={frames}",
         "!", "video/x-raw,format=I420,width=64,height=48,framerate=10/1",
         "!", *elements, "!", "filesink", f"location={path}"],
        check=True, capture_output=True, env=probe_env(),
        timeout=seconds(60))


def riff_chunks(data, start, end):
    """(fourcc, offset of its data, size) of each RIFF chunk in
    data[start:end], into the LISTs."""
    while start + 8 <= end:
        fourcc = data[start:start + 4]
        size = struct.unpack_from("<I", data, start + 4)[0]
        if fourcc in (b"RIFF", b"LIST"):
            yield from riff_chunks(data, start + 12, start + 8 + size)
        else:
            yield fourcc, start + 8, size
        start += 8 + size + (size & 1)


def garble_frames(path, garbled):
    """The frames of an AVI numbered in `garbled` (from 0) overwritten
    with bytes no JPEG decoder takes, their sizes kept."""
    with open(path, "rb") as f:
        data = bytearray(f.read())
    frames = [(at, size) for fourcc, at, size
              in riff_chunks(data, 0, len(data)) if fourcc == b"00db"]
    for i in garbled:
        at, size = frames[i]
        data[at:at + size] = b"\x55" * size
    with open(path, "wb") as f:
        f.write(data)


def ebml_number(data, at, keep_marker):
    """An EBML variable-size number at `at`: (value, length); an
    element's ID keeps its length marker, a size does not."""
    length = 1
    while not data[at] & (0x80 >> (length - 1)):
        length += 1
    value = int.from_bytes(data[at:at + length], "big")
    if not keep_marker:
        value &= (1 << (7 * length)) - 1
    return value, length


def ebml_elements(data, start, end):
    """(id, offset of its data, size) of each EBML element in
    data[start:end]; an unknown size runs to `end`."""
    while start < end:
        element, id_length = ebml_number(data, start, True)
        size, size_length = ebml_number(data, start + id_length, False)
        at = start + id_length + size_length
        if size == (1 << (7 * size_length)) - 1:
            size = end - at
        yield element, at, size
        start = at + size


def turn_back(path, first, by_ms):
    """The frames of a Matroska clip from `first` on (from 0) made
    `by_ms` earlier than they were: each SimpleBlock's time, relative to
    its cluster's, rewritten."""
    segment, cluster, timecode, simple_block = \
        0x18538067, 0x1F43B675, 0xE7, 0xA3
    with open(path, "rb") as f:
        data = bytearray(f.read())
    n = 0
    for element, at, size in ebml_elements(data, 0, len(data)):
        if element != segment:
            continue
        for child, c_at, c_size in ebml_elements(data, at, at + size):
            if child != cluster:
                continue
            base = 0
            for block, b_at, b_size in ebml_elements(data, c_at,
                                                     c_at + c_size):
                if block == timecode:
                    base = int.from_bytes(data[b_at:b_at + b_size], "big")
                elif block == simple_block:
                    track_length = ebml_number(data, b_at, False)[1]
                    where = b_at + track_length
                    time = struct.unpack_from(">h", data, where)[0]
                    if n >= first:
                        assert base + time - by_ms >= 0
                        struct.pack_into(">h", data, where, time - by_ms)
                    n += 1
    assert n > first, f"{path}: {n} frames"
    with open(path, "wb") as f:
        f.write(data)


def closed_port():
    """A port on 127.0.0.1 no one listens on (bound, then let go)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


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
        states = alert_states(lines, ["clipped"])
        zones = [r["id"] for r in histograms[0]["regions"]
                 if r["type"] == "zone"]
        # The lines' zones where they are, by their own words.
        for line in histograms:
            self.assertEqual(
                {r["id"]: (str(r["row"]), str(r["column"]), r["position"])
                 for r in line["regions"] if r["type"] == "zone"},
                PLACES_2X2)
        for line in lines:
            if line.get("message") == "exposure":
                for stem in ("zone", "active-zone"):
                    ids = line["zones" if stem == "zone" else "active-zones"]
                    self.assertEqual(
                        [PLACES_2X2[i] for i in ids],
                        [(str(r), str(c), p) for r, c, p in zip(
                            line[f"{stem}-row"], line[f"{stem}-column"],
                            line[f"{stem}-position"])])

        self.assertIn(exposition.promtool_lint(scrapes[-1][1]), (None, []))

        seen, up_seen, alert_seen = set(), False, False
        for when, text in scrapes:
            table = exposition.samples(exposition.parse(text))
            f = table[series("clhistogram_frames_total", input=VIDEO)]
            self.assertEqual(table[series("clhistogram_messages_total",
                                          input=VIDEO)], f)
            # (Late frames are not: --sync on a loaded machine may make
            # one late; test_states_and_losses counts them.)
            for counter in ("input_outages", "input_retries",
                            "input_reconnects", "frames_dropped"):
                self.assertEqual(table[series(
                    f"clhistogram_{counter}_total", input=VIDEO)], 0,
                    counter)
            up = table[series("clhistogram_input_up", input=VIDEO)]
            up_seen |= up == 1
            # One state at a time, up alone while it counts.
            state = [name for name in STATES if table[series(
                "clhistogram_input_state", input=VIDEO, state=name)] == 1]
            self.assertEqual(len(state), 1, state)
            self.assertEqual(up, float(state == ["up"]))
            # The alert on (clipped at 2%) has its threshold; crushed,
            # off, has neither threshold nor state.
            self.assertEqual(table[series(
                "clhistogram_alert_threshold_ratio", input=VIDEO,
                alert="clipped")], 0.02)
            self.assertNotIn(series("clhistogram_alert_threshold_ratio",
                                    input=VIDEO, alert="crushed"), table)
            rows = alert_rows(table, VIDEO, PLACES_2X2)
            got = {k: v for k, v in table.items() if k[0] in STATISTICS}
            # None before the first message, nor once the input ended (a
            # scrape between its end and the probe's exit).
            if f == 0 or state == ["ended"]:
                self.assertEqual(got, {}, f"scrape at F={f}")
                self.assertEqual(rows, {("clipped", None): 0.0})
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

    def test_states_and_losses(self):
        """Four files and a camera no one answers for, in one probe:
        garbled.avi, 3 of its 30 JPEG frames garbage, counts 27 and 3
        dropped (jpegdec drops what it cannot decode and says so), none
        late; back.mkv, --sync, its last 10 frames 1.5 s back in time, so
        that each comes after its time on the clock, counts 30 and at
        least those 10 late, none dropped; good.avi loses nothing; a
        missing file is down for good. All of them but the missing one
        end: state ended, no outage. The camera is down from its start:
        one outage, and each retry that fails one retry, apart."""
        tmp = tempfile.mkdtemp(prefix="probe-losses-")
        self.addCleanup(shutil.rmtree, tmp)
        garbled, back, good = (os.path.join(tmp, name) for name in
                               ("garbled.avi", "back.mkv", "good.avi"))
        write_clip(garbled, ["jpegenc", "!", "avimux"])
        garble_frames(garbled, [10, 11, 12])
        write_clip(back, ["matroskamux"])
        turn_back(back, 20, 1500)
        write_clip(good, ["avimux"])
        conf = os.path.join(tmp, "inputs.conf")
        with open(conf, "w") as f:
            f.write(f"[garbled]\nuri={garbled}\n"
                    f"[back]\nuri={back}\nsync=true\n"
                    f"[good]\nuri={good}\n"
                    f"[missing]\nuri={os.path.join(tmp, 'none.avi')}\n"
                    f"[camera]\nuri=http://127.0.0.1:{closed_port()}/cam\n")
        probe = self.run_probe(["--quiet", "--metrics", "127.0.0.1:0",
                                "--inputs", conf])

        def value(name, input_name, **labels):
            return table.get(series(f"clhistogram_{name}", input=input_name,
                                    **labels))

        files = ("garbled", "back", "good")
        deadline = time.monotonic() + seconds(120)
        table = {}
        while time.monotonic() < deadline and not (
                all(value("input_state", i, state="ended") == 1
                    for i in files)
                and (value("input_retries_total", "camera") or 0) >= 1):
            table = exposition.samples(exposition.parse(scrape(probe.url)[2]))
            time.sleep(0.1)
        for input_name in files:
            self.assertEqual(value("input_state", input_name,
                                   state="ended"), 1, input_name)
            self.assertEqual(value("input_up", input_name), 0)
            self.assertEqual(value("input_outages_total", input_name), 0)
            self.assertEqual(value("input_retries_total", input_name), 0)
        self.assertEqual(value("frames_total", "garbled"), 27)
        self.assertEqual(value("frames_dropped_total", "garbled"), 3)
        self.assertEqual(value("frames_late_total", "garbled"), 0)
        self.assertEqual(value("frames_total", "back"), 30)
        self.assertEqual(value("frames_dropped_total", "back"), 0)
        late = value("frames_late_total", "back")
        print(f"back.mkv: {late:.0f} of 30 frames late")
        self.assertGreaterEqual(late, 10)
        self.assertLessEqual(late, 30)
        self.assertEqual(value("frames_total", "good"), 30)
        self.assertEqual(value("frames_dropped_total", "good"), 0)
        self.assertEqual(value("frames_late_total", "good"), 0)
        # Down: the missing file for good, the camera between retries.
        for input_name in ("missing", "camera"):
            self.assertEqual([s for s in STATES if value(
                "input_state", input_name, state=s) == 1], ["down"])
            self.assertEqual(value("input_outages_total", input_name), 1)
        self.assertEqual(value("input_retries_total", "missing"), 0)
        self.assertGreaterEqual(value("input_retries_total", "camera"), 1)
        self.assertEqual(value("input_reconnects_total", "camera"), 0)
        probe.process.send_signal(signal.SIGTERM)
        status, _, err = probe.wait()
        # The missing file is an error of the probe's.
        self.assertEqual(status, 1, err)
        self.assertIn("none.avi", err)

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
        self.assertIn(series("clhistogram_mean", input=name, channel="Y",
                             bits="8"), table)
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
