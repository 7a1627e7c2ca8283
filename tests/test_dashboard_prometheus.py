#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Every PromQL query of the Grafana dashboard against a real Prometheus
(Debian's `prometheus`, started here on 127.0.0.1, scraping every second)
scraping a real probe: clhistogram-probe with the service's options
(--no-counts, --interval 1 s), 2x2 zones and both exposure alerts on,
counting at its own pace (--sync) a clip written here whose top quarter
is clipped high and bottom quarter crushed, with the alerting rules
installed beside the dashboard loaded, so that an alert is pending or
firing.

Each panel's query, its variables given this probe's values ($instance,
$input; $__rate_interval 10s, $__range 10m), goes to Prometheus' HTTP
API as Grafana sends it (a range query, or an instant one for an instant
target), and must return data without error; so must the variables'
label_values() queries, holding this probe and its input. The queries
are waited on (a state: all of them answering, polled every second)
until a bound; one that never answers fails the test, naming the metrics
it asks for that the probe does not serve. The same check must fail on
a query of a metric the probe does not serve and on one Prometheus
cannot parse. Skipped (exit 77) where prometheus is not installed.

    test_dashboard_prometheus.py CLHISTOGRAM_PROBE DASHBOARD ALERT_RULES
"""
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

import dashboard as dash  # noqa: E402
from timeouts import seconds  # noqa: E402

FPS = 10
WIDTH, HEIGHT = 64, 48
# A quarter of the rows at 235 (clipped high: I420 is limited range) and
# a quarter at 16 (clipped low), for 90 s: longer than the test needs.
BAND = HEIGHT // 4
FRAMES = 90 * FPS
INPUT = "cam"
# What Grafana puts for its own variables, as it would with a scrape every
# second and the last 10 minutes shown.
GRAFANA_VALUES = {"__rate_interval": "10s", "__interval": "1s",
                  "__range": "10m", "__range_s": "600", "__interval_ms": "1000"}
LABEL_VALUES = re.compile(r"^label_values\((.*),\s*(\w+)\)$", re.S)
METRIC_NAME = re.compile(r"\b(clhistogram_\w+|ALERTS)\b")


def write_clip(path):
    pipeline = Gst.parse_launch(
        f"appsrc name=src format=time caps=video/x-raw,format=I420,"
        f"width={WIDTH},height={HEIGHT},framerate={FPS}/1 ! mux.video_0 "
        f"avimux name=mux ! filesink location={path}")
    src = pipeline.get_by_name("src")
    pipeline.set_state(Gst.State.PLAYING)
    chroma = bytes([128]) * (WIDTH // 2 * HEIGHT // 2)
    for i in range(FRAMES):
        middle = 40 + (i * 7) % 150
        rows = [bytes([235 if r < BAND else 16 if r >= HEIGHT - BAND
                       else middle]) * WIDTH for r in range(HEIGHT)]
        buffer = Gst.Buffer.new_wrapped(b"".join(rows) + chroma + chroma)
        buffer.pts = i * Gst.SECOND // FPS
        buffer.duration = Gst.SECOND // FPS
        src.emit("push-buffer", buffer)
    src.emit("end-of-stream")
    msg = pipeline.get_bus().timed_pop_filtered(
        seconds(30) * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR)
    pipeline.set_state(Gst.State.NULL)
    if not msg or msg.type != Gst.MessageType.EOS:
        sys.exit(f"test_dashboard_prometheus: could not write {path}")


def free_ports(n):
    sockets = [socket.socket() for _ in range(n)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


def api(base, path, params):
    """(data, None) of a successful call, else (None, the error)."""
    url = f"{base}{path}?{urllib.parse.urlencode(params, doseq=True)}"
    try:
        with urllib.request.urlopen(url, timeout=seconds(10)) as reply:
            body = json.load(reply)
    except urllib.error.HTTPError as e:
        # Prometheus' errors come as JSON (a bad query: 400); a server
        # still starting answers with text.
        text = e.read().decode(errors="replace")
        try:
            body = json.loads(text)
        except ValueError:
            return None, f"HTTP {e.code}: {text.strip()}"
    except (OSError, ValueError) as e:
        return None, str(e)
    if body.get("status") != "success":
        return None, f"{body.get('errorType')}: {body.get('error')}"
    return body["data"], None


def start_prometheus(tmp, port, target, rules):
    config = os.path.join(tmp, "prometheus.yml")
    with open(config, "w") as f:
        f.write(f"""global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
rule_files: ["{rules}"]
scrape_configs:
  - job_name: clhistogram
    static_configs:
      - targets: ["{target}"]
""")
    log = open(os.path.join(tmp, "prometheus.log"), "w")
    process = subprocess.Popen(
        ["prometheus", f"--config.file={config}",
         f"--storage.tsdb.path={os.path.join(tmp, 'data')}",
         f"--web.listen-address=127.0.0.1:{port}", "--log.level=warn"],
        stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + seconds(60)
    while time.monotonic() < deadline and process.poll() is None:
        data, _ = api(f"http://127.0.0.1:{port}", "/api/v1/status/buildinfo", {})
        if data:
            return process
        time.sleep(0.2)
    process.kill()
    with open(log.name) as f:
        sys.exit(f"test_dashboard_prometheus: prometheus did not start:\n{f.read()}")


def run_query(base, expr, instant, start):
    """(number of series with samples, error or None) of a query as
    Grafana sends it."""
    now = time.time()
    if instant:
        data, error = api(base, "/api/v1/query", {"query": expr, "time": now})
    else:
        data, error = api(base, "/api/v1/query_range",
                          {"query": expr, "start": start, "end": now, "step": 1})
    if error:
        return 0, error
    return len([r for r in data["result"] if r.get("values") or r.get("value")]), None


def run_variable(base, query, values):
    """The values of a label_values(SELECTOR, LABEL) variable."""
    match = LABEL_VALUES.match(dash.substitute(query, values))
    if not match:
        return set(), f"not label_values(SELECTOR, LABEL): {query}"
    data, error = api(base, "/api/v1/series", {"match[]": match.group(1)})
    if error:
        return set(), error
    return {s.get(match.group(2)) for s in data} - {None}, None


def unserved(base, expr):
    """The metric names expr asks for that Prometheus holds no series of."""
    names, _ = api(base, "/api/v1/label/__name__/values", {})
    return sorted(set(METRIC_NAME.findall(expr)) - set(names or []))


def main():
    probe, board_path, rules = (os.path.abspath(a) for a in sys.argv[1:4])
    if not shutil.which("prometheus"):
        print("test_dashboard_prometheus: no prometheus (Debian's prometheus "
              "package): skipped")
        return 77
    Gst.init(None)
    board = dash.load(board_path)
    tmp = tempfile.mkdtemp(prefix="clh-dashboard-")
    processes = []
    try:
        prom_port, probe_port = free_ports(2)
        instance = f"127.0.0.1:{probe_port}"
        base = f"http://127.0.0.1:{prom_port}"
        write_clip(os.path.join(tmp, "clip.avi"))
        processes.append(start_prometheus(tmp, prom_port, instance, rules))
        start = time.time()
        log = open(os.path.join(tmp, "probe.log"), "w")
        probe_process = subprocess.Popen(
            [probe, "--quiet", "--sync", "--no-counts", "--interval", "1000000000",
             "--zones", "2x2", "--alert-clipped", "5", "--alert-crushed", "5",
             "--metrics", instance, f"{INPUT}=clip.avi"],
            cwd=tmp, stdout=subprocess.DEVNULL, stderr=log,
            env=dict(os.environ, GST_DEBUG="0"))
        processes.append(probe_process)

        values = dict(GRAFANA_VALUES, instance=instance, input=INPUT,
                      datasource="prometheus")
        queries = [(f"{title} {ref}", dash.substitute(expr, values), instant)
                   for title, ref, expr, instant in dash.queries(board)]
        # Polled until every query answers with data (or the probe ends,
        # or the bound passes): the last round's results are the test's.
        deadline = time.monotonic() + seconds(120)
        while True:
            results = {name: run_query(base, expr, instant, start)
                       for name, expr, instant in queries}
            done = all(n and not error for n, error in results.values())
            if done or time.monotonic() > deadline or probe_process.poll() is not None:
                break
            time.sleep(1)
        print(f"after {time.time() - start:.0f} s:")

        failures = 0
        for name, expr, _ in queries:
            n, error = results[name]
            if n and not error:
                print(f"ok: {name}: {n} series")
                continue
            failures += 1
            why = error or "no data"
            missing = unserved(base, expr)
            if missing:
                why += f"; not served by the probe: {', '.join(missing)}"
            print(f"FAIL: {name}: {why}\n  {expr}")
        for name, variable in dash.variables(board).items():
            query = dash.variable_query(variable)
            if variable.get("type") != "query":
                continue
            got, error = run_variable(base, query, values)
            expect = {"instance": instance, "input": INPUT}.get(name)
            if error or expect not in got:
                failures += 1
                print(f"FAIL: ${name}: {query} gave {sorted(got)} {error or ''}")
            else:
                print(f"ok: ${name}: {sorted(got)}")

        # The check fails where it should: a metric no probe serves, and a
        # query Prometheus cannot parse.
        for expr in (f'clhistogram_no_such_metric{{input="{INPUT}"}}',
                     f'rate(clhistogram_frames_total{{input="{INPUT}"}}[10s]'):
            n, error = run_query(base, expr, False, start)
            if n and not error:
                failures += 1
                print(f"FAIL: {expr} answered with data")
            else:
                print(f"ok: {expr} is refused: {error or 'no data'}")
    finally:
        for process in processes:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=seconds(10))
                except subprocess.TimeoutExpired:
                    process.kill()
        if os.path.exists(os.path.join(tmp, "probe.log")):
            with open(os.path.join(tmp, "probe.log")) as f:
                print(f.read(), end="")
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
