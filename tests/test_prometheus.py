#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""clhistogram-probe --metrics under a real Prometheus (Debian's
`prometheus`), started here on 127.0.0.1 with a storage folder of its own,
scraping every second three probes on three ports (three "hosts", a, b
and c), a and b each counting a clip written here at its own pace
(--sync), c a camera (an HTTP server here that serves a clip once, then
is gone), with the alerting rules tools/clhistogram-alerts.yml as they
are installed, evaluated every second.

Through Prometheus' HTTP API:
  - every scrape stored holds one message's values: for each scrape of
    a and b, its frames_total F and its frame's mean luma and clipped
    share are those of that probe's F-th JSON line;
  - ClhistogramClipping fires for probe a, whose clip clips (25% of its
    samples at 235) for 18 s: not before 10 s of clipping, with its
    labels and annotations, and resolves once the clip stops clipping,
    the probe still running; it never fires for probe b, whose clip
    clips for 6 s;
  - the camera of c clips from its first frame to its last, then its
    stream ends and its server is gone: ClhistogramClipping fires while
    it is up and stays firing, with the last share seen, while it is
    down, past the time ClhistogramInputDown fires for it (1 min down);
    ClhistogramInputDown never fires for a's and b's clips, which end;
  - probe b serves its metrics over TLS with basic authentication
    (--web-config: a self-signed certificate for 127.0.0.1 that openssl
    makes here, one user whose bcrypt hash libxcrypt makes), scraped in a
    job of its own (scheme https, tls_config, basic_auth) relabelled
    job="clhistogram", the job the rules read: every check above on b
    holds of its scrapes over TLS; a third job, scraping b with a wrong
    password, is seen down with 401 once b's own job is up, and never up.
Skipped (exit 77) only where prometheus is not installed.

    test_prometheus.py CLHISTOGRAM_PROBE ALERT_RULES
"""
import datetime
import functools
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402
from timeouts import seconds  # noqa: E402
from web_credentials import bcrypt, self_signed  # noqa: E402

FPS = 10
WIDTH, HEIGHT = 64, 48
# Rows of the frame at 235 (nominal white, I420 being limited range)
# while the clip clips: a quarter of the luma samples.
CLIP_ROWS = 12
# (frames, clipping) pieces of each host's clip: 36 s each.
CLIPS = {
    "a": [(40, False), (180, True), (140, False)],
    "b": [(40, False), (60, True), (260, False)],
}
FRAMES = 360
# The camera's clip: clipping all along, 20 s.
CAMERA_CLIP = [(200, True)]
RULE = "ClhistogramClipping"
DOWN_RULE = "ClhistogramInputDown"
# Probe b's user and password, Prometheus' basic_auth.
USER, PASSWORD = "prometheus", "scrape me"
# The rules' job (ClhistogramProbeDown reads up{job="clhistogram"}); probe
# b's TLS job is relabelled to it. The wrong password's job is not: its
# target is down all along, and is no probe of the fleet.
JOB = "clhistogram"
TLS_POOL, WRONG_POOL = "clhistogram-tls", "clhistogram-wrong-password"

failures = []


def check(ok, why):
    if not ok:
        failures.append(why)
        print("FAIL:", why, flush=True)
    return ok


def frame(i, clipping):
    """An I420 frame whose mean luma changes from frame to frame (so that
    a scrape's mean names its frame) and never reaches 235 but in the
    clipping rows."""
    base = 40 + (i * 7) % 150
    rows = [bytes([235 if clipping and r < CLIP_ROWS else base]) * WIDTH
            for r in range(HEIGHT)]
    chroma = bytes([128]) * (WIDTH // 2 * HEIGHT // 2)
    return b"".join(rows) + chroma + chroma


def write_clip(path, pieces):
    pipeline = Gst.parse_launch(
        f"appsrc name=src format=time caps=video/x-raw,format=I420,"
        f"width={WIDTH},height={HEIGHT},framerate={FPS}/1 ! mux.video_0 "
        f"avimux name=mux ! filesink location={path}")
    src = pipeline.get_by_name("src")
    pipeline.set_state(Gst.State.PLAYING)
    i = 0
    for count, clipping in pieces:
        for _ in range(count):
            buffer = Gst.Buffer.new_wrapped(frame(i, clipping))
            buffer.pts = i * Gst.SECOND // FPS
            buffer.duration = Gst.SECOND // FPS
            src.emit("push-buffer", buffer)
            i += 1
    src.emit("end-of-stream")
    msg = pipeline.get_bus().timed_pop_filtered(
        30 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR)
    pipeline.set_state(Gst.State.NULL)
    if not msg or msg.type != Gst.MessageType.EOS:
        sys.exit(f"test_prometheus: could not write {path}")


def free_ports(n):
    """n ports free now on 127.0.0.1 (bound at once, then let go)."""
    sockets = [socket.socket() for _ in range(n)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


def api(base, path, **params):
    url = f"{base}{path}?{urllib.parse.urlencode(params)}"
    with urllib.request.urlopen(url, timeout=seconds(10)) as reply:
        body = json.load(reply)
    if body.get("status") != "success":
        raise RuntimeError(f"{url}: {body}")
    return body["data"]


def write_web_config(folder):
    """Probe b's --web-config: a self-signed certificate for 127.0.0.1,
    made with openssl, and one user."""
    self_signed(folder, "probe")
    with open(os.path.join(folder, "web.yml"), "w") as f:
        f.write(f"""tls_server_config:
  cert_file: probe.pem
  key_file: probe.key
basic_auth_users:
  {USER}: {bcrypt(PASSWORD)}
""")


def start_prometheus(tmp, port, targets, tls_target, rules, ca_file):
    """Prometheus scraping `targets` over plain HTTP and `tls_target` over
    TLS, with the right password and with a wrong one."""
    config = os.path.join(tmp, "prometheus.yml")
    tls = f"""    scheme: https
    tls_config:
      ca_file: {ca_file}
    static_configs:
      - targets: ["{tls_target}"]
"""
    with open(config, "w") as f:
        f.write(f"""global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
rule_files: ["{rules}"]
scrape_configs:
  - job_name: {JOB}
    static_configs:
      - targets: {json.dumps(targets)}
  - job_name: {TLS_POOL}
    basic_auth:
      username: {USER}
      password: {PASSWORD}
    relabel_configs:
      - target_label: job
        replacement: {JOB}
{tls}  - job_name: {WRONG_POOL}
    basic_auth:
      username: {USER}
      password: not {PASSWORD}
{tls}""")
    log = open(os.path.join(tmp, "prometheus.log"), "w")
    process = subprocess.Popen(
        ["prometheus", f"--config.file={config}",
         f"--storage.tsdb.path={os.path.join(tmp, 'data')}",
         f"--web.listen-address=127.0.0.1:{port}", "--log.level=warn"],
        stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + seconds(60)
    while time.monotonic() < deadline:
        if process.poll() is not None:
            break
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/-/ready",
                                        timeout=seconds(2)) as reply:
                if reply.status == 200:
                    return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    with open(log.name) as f:
        sys.exit(f"test_prometheus: prometheus did not start:\n{f.read()}")


def start_probe(probe, folder, port, log, inputs=None, options=()):
    """A probe of clip.avi in `folder`, or of `inputs`, on `port`."""
    inputs = inputs or ["--expect-frames", str(FRAMES), "clip.avi"]
    process = subprocess.Popen(
        [probe, "--sync", "--no-counts", "--metrics", f"127.0.0.1:{port}",
         *options, *inputs], cwd=folder,
        stdout=open(os.path.join(folder, "lines.json"), "w"),
        stderr=log, env=dict(os.environ, GST_DEBUG="0"))
    return process


class OneShotCamera:
    """An HTTP server on 127.0.0.1 that serves `path` to its first client,
    then is gone (its port refuses connections): a camera whose stream
    ends and that does not come back."""

    def __init__(self, path):
        self.served = threading.Event()
        handler = functools.partial(self.Handler, self)
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                                      handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/cam.avi"
        self.path = path
        self.thread = threading.Thread(target=self.server.serve_forever)
        self.thread.start()

    class Handler(http.server.BaseHTTPRequestHandler):
        def __init__(self, camera, *args, **kwargs):
            self.camera = camera
            super().__init__(*args, **kwargs)

        def do_GET(self):
            if self.camera.served.is_set():
                self.send_error(503)
                return
            self.camera.served.set()
            with open(self.camera.path, "rb") as f:
                data = f.read()
            self.send_response(200)
            self.send_header("Content-Type", "video/x-msvideo")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    def close(self):
        """Gone: its port refuses connections from now on."""
        if self.server:
            self.server.shutdown()
            self.server.server_close()
            self.thread.join()
            self.server = None


def raw_samples(base, query, at, input_name="clip.avi"):
    """{instance: {timestamp: value}} of the samples of `input_name`
    stored in the last 10 minutes."""
    data = api(base, "/api/v1/query", query=f"{query}[10m]", time=at)
    table = {}
    for result in data["result"]:
        instance = result["metric"]["instance"]
        # The wrong password's job has probe b's instance too.
        if result["metric"].get("input") != input_name \
                or result["metric"].get("job") != JOB:
            continue
        check(instance not in table, f"{query}: two series of {instance}")
        table[instance] = {float(t): float(v) for t, v in result["values"]}
    return table


def check_values(base, instance, lines, at):
    """Each scrape: F and the frame's mean and clipped share of one of the
    probe's lines, the F-th."""
    selector = '{channel="Y", zone="", region=""}'
    frames = raw_samples(base, "clhistogram_frames_total", at)[instance]
    means = raw_samples(base, "clhistogram_mean" + selector, at)[instance]
    ratios = raw_samples(base, "clhistogram_clipped_high_ratio" + selector,
                         at)[instance]
    up = raw_samples(base, "clhistogram_input_up", at)[instance]
    matched = 0
    for t, f in sorted(frames.items()):
        if f == 0:
            continue
        f = int(f)
        line = lines[f - 1]
        check(means.get(t) == line["mean"][0],
              f"{instance} at {t}: F={f}, mean {means.get(t)}, the line's "
              f"{line['mean'][0]}")
        check(ratios.get(t) == line["clipped-high"][0] / line["samples"][0],
              f"{instance} at {t}: F={f}, clipped {ratios.get(t)}")
        matched += 1
    print(f"{instance}: {matched} scrapes matched their JSON line, last "
          f"F={int(max(frames.values()))}", flush=True)
    check(matched >= 20, f"{instance}: only {matched} scrapes with frames")
    check(1.0 in up.values(), f"{instance}: clhistogram_input_up never 1")
    return ratios


def clipping_span(ratios):
    """The first and last scrape time with more than 5% clipped."""
    over = [t for t, v in ratios.items() if v > 0.05]
    return (min(over), max(over)) if over else (None, None)


def stamp(text):
    """Seconds since the epoch of Prometheus' RFC 3339 time, its
    nanoseconds cut to microseconds."""
    day, clock = text.rstrip("Z").split("T")
    whole, _, fraction = clock.partition(".")
    when = datetime.datetime.fromisoformat(
        f"{day}T{whole}.{(fraction + '000000')[:6]}+00:00")
    return when.timestamp()


def wait_settled(base, since):
    """Waits (a state, not a delay) until Prometheus scraped every target
    and evaluated every rule group after `since`."""
    deadline = time.monotonic() + seconds(60)
    while time.monotonic() < deadline:
        targets = api(base, "/api/v1/targets")["activeTargets"]
        groups = api(base, "/api/v1/rules")["groups"]
        stamps = ([t["lastScrape"] for t in targets]
                  + [g["lastEvaluation"] for g in groups])
        if stamps and all(stamp(t) > since for t in stamps):
            return
        time.sleep(0.1)
    raise AssertionError(f"Prometheus did not scrape and evaluate within "
                         f"{seconds(60)} s")


def firing(base, start, end, rule=RULE, input_name="clip.avi"):
    """{instance: [times]} of the rule's ALERTS series of `input_name` in
    the firing state, a point a second."""
    data = api(base, "/api/v1/query_range",
               query=f'ALERTS{{alertname="{rule}", alertstate="firing", '
                     f'input="{input_name}"}}',
               start=start, end=end, step=1)
    table = {}
    for result in data["result"]:
        metric = result["metric"]
        check(metric.get("job") == JOB, f"ALERTS labels {metric}")
        table.setdefault(metric["instance"], []).extend(
            float(t) for t, _ in result["values"])
    return table


def states(base, instance, input_name, state, start, end):
    """The times, a point a second, at which the input was in `state`."""
    data = api(base, "/api/v1/query_range",
               query=f'clhistogram_input_state{{instance="{instance}", '
                     f'input="{input_name}", state="{state}"}} == 1',
               start=start, end=end, step=1)
    return [float(t) for result in data["result"]
            for t, _ in result["values"]]


def wait_firing(base, rule, instance, deadline):
    """Waits (a state, not a delay) until Prometheus says `rule` fires for
    `instance`; whether it did before `deadline`."""
    while time.monotonic() < deadline:
        if any(a["labels"].get("alertname") == rule
               and a["labels"].get("instance") == instance
               and a["state"] == "firing"
               for a in api(base, "/api/v1/alerts")["alerts"]):
            return True
        time.sleep(0.5)
    return False


class TargetWatch:
    """Probe b's two TLS jobs as /api/v1/targets shows them, watched until
    the wrong password's has been seen down with 401 after the right
    one's was seen up (states, not a delay)."""

    def __init__(self, base, tls_target):
        self.base, self.tls_target = base, tls_target
        self.tls_up_at = None
        self.done = False
        self.errors = set()

    def poll(self):
        if self.done:
            return
        pools = {t["scrapePool"]: t for t in
                 api(self.base, "/api/v1/targets")["activeTargets"]}
        tls, wrong = pools.get(TLS_POOL), pools.get(WRONG_POOL)
        if not tls or not wrong:
            return
        if self.tls_up_at is None:
            if tls["health"] == "up":
                self.tls_up_at = time.time()
                check(tls["scrapeUrl"] == f"https://{self.tls_target}"
                      f"/metrics" and tls["labels"].get("job") == JOB,
                      f"TLS target: {tls}")
            return
        if stamp(wrong["lastScrape"]) <= self.tls_up_at:
            return
        # A scrape's check may outlast the 1 s timeout under load, and
        # the next one from the same address get 429 meanwhile: waited
        # through; only an answer other than 401 to a checked password
        # would be wrong.
        if not check(wrong["health"] != "up",
                     f"the wrong password's target is up: {wrong}"):
            self.done = True
        elif "401" in wrong["lastError"]:
            print(f"{TLS_POOL}: up at {tls['scrapeUrl']}; {WRONG_POOL}: "
                  f"{wrong['health']}, {wrong['lastError']!r}, after "
                  f"{sorted(self.errors)}", flush=True)
            self.done = True
        else:
            self.errors.add(wrong["lastError"])


def check_camera(base, instance, started, end):
    """The camera clipped, then went down: its clipping alert fired while
    it was up and stayed firing, every second, while it was down, past
    ClhistogramInputDown's firing."""
    down = states(base, instance, "cam", "down", started, end)
    up = states(base, instance, "cam", "up", started, end)
    clipping = firing(base, started, end, input_name="cam").get(instance, [])
    went_down = [t for t in down if t > max(up, default=0)]
    down_fired = firing(base, started, end, DOWN_RULE,
                        "cam").get(instance, [])
    print(f"camera: up {min(up, default=None)}..{max(up, default=None)}, "
          f"down from {min(went_down, default=None)}, clipping alert "
          f"{min(clipping, default=None)}..{max(clipping, default=None)}, "
          f"{DOWN_RULE} from {min(down_fired, default=None)}", flush=True)
    if not (check(up, "the camera was never up")
            and check(went_down, "the camera never went down")
            and check(clipping, f"{RULE} never fired for the camera")
            and check(down_fired, f"{DOWN_RULE} never fired for the camera")):
        return
    check(min(clipping) < min(went_down),
          f"{RULE} first fired at {min(clipping)}, not before the camera "
          f"went down at {min(went_down)}")
    check(min(down_fired) >= min(went_down) + 60,
          f"{DOWN_RULE} fired at {min(down_fired)}, less than 1 min after "
          f"the camera went down at {min(went_down)}")
    held = set(clipping)
    gaps = [t for t in went_down if t not in held]
    check(not gaps, f"{RULE} did not fire while the camera was down at "
          f"{gaps[:5]}...")
    check(max(clipping) >= max(down_fired),
          f"{RULE} resolved at {max(clipping)}, before {DOWN_RULE}'s last "
          f"firing at {max(down_fired)}")


def main():
    probe, rules = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    if not shutil.which("prometheus"):
        print("test_prometheus: no prometheus (Debian's prometheus package): "
              "skipped")
        return 77
    Gst.init(None)
    tmp = tempfile.mkdtemp(prefix="clh-prometheus-")
    processes = []
    camera = None
    try:
        prom_port, *probe_ports = free_ports(4)
        hosts = {host: f"127.0.0.1:{port}"
                 for host, port in zip(CLIPS, probe_ports)}
        camera_host = f"127.0.0.1:{probe_ports[-1]}"
        folders = {}
        for host, pieces in CLIPS.items():
            folders[host] = os.path.join(tmp, host)
            os.mkdir(folders[host])
            write_clip(os.path.join(folders[host], "clip.avi"), pieces)
        camera_folder = os.path.join(tmp, "c")
        os.mkdir(camera_folder)
        write_clip(os.path.join(camera_folder, "cam.avi"), CAMERA_CLIP)
        camera = OneShotCamera(os.path.join(camera_folder, "cam.avi"))
        write_web_config(folders["b"])
        prometheus = start_prometheus(
            tmp, prom_port, [hosts["a"], camera_host], hosts["b"], rules,
            os.path.join(folders["b"], "probe.pem"))
        processes.append(prometheus)
        base = f"http://127.0.0.1:{prom_port}"
        started = time.time()
        log = open(os.path.join(tmp, "probes.log"), "w")
        options = {"a": [], "b": ["--web-config", "web.yml"]}
        probes = {host: start_probe(probe, folders[host],
                                    hosts[host].split(":")[1], log,
                                    options=options[host])
                  for host in CLIPS}
        targets = TargetWatch(base, hosts["b"])
        processes.extend(probes.values())
        camera_probe = start_probe(probe, camera_folder,
                                   camera_host.split(":")[1], log,
                                   [f"cam={camera.url}"])
        processes.append(camera_probe)

        # The alerts as Prometheus reports them, twice a second, each
        # observation with whether probe a still ran.
        observed = []
        deadline = time.monotonic() + seconds(90)
        while any(p.poll() is None for p in probes.values()) \
                and time.monotonic() < deadline:
            if camera.served.is_set():
                camera.close()
            targets.poll()
            running = probes["a"].poll() is None
            alerts = api(base, "/api/v1/alerts")["alerts"]
            observed.append((time.time(), running,
                             [a for a in alerts
                              if a["labels"].get("alertname") == RULE]))
            time.sleep(0.5)
        for host, process in probes.items():
            try:
                status = process.wait(timeout=seconds(10))
            except subprocess.TimeoutExpired:
                process.kill()
                status = "killed after 100 s"
            check(status == 0, f"probe {host} exited with {status}")
        # The camera down for good: its alert after 1 min of it.
        camera.close()
        check(wait_firing(base, DOWN_RULE, camera_host,
                          time.monotonic() + seconds(150)),
              f"{DOWN_RULE} did not fire for the camera")
        # Prometheus' last scrape and evaluation of the probes' values:
        # each target scraped and each rule group evaluated since.
        wait_settled(base, time.time())
        end = time.time()
        check(targets.done, f"probe b's TLS job was never seen up, or the "
              f"wrong password's never down with 401 after: "
              f"{sorted(targets.errors)}")
        camera_probe.terminate()
        check(camera_probe.wait(timeout=seconds(30)) == 0,
              "probe c did not end with status 0 on SIGTERM")
        log.close()
        with open(log.name) as f:
            print(f.read(), end="")
        check_camera(base, camera_host, started - 5, end)
        check(not firing(base, started - 5, end, DOWN_RULE),
              f"{DOWN_RULE} fired for a file that ended")

        spans, lines = {}, {}
        for host, instance in hosts.items():
            with open(os.path.join(folders[host], "lines.json")) as f:
                lines[host] = [json.loads(line) for line in f]
            check(len(lines[host]) == FRAMES,
                  f"probe {host} printed {len(lines[host])} lines")
            ratios = check_values(base, instance, lines[host], end)
            spans[host] = clipping_span(ratios)
            print(f"{host}: over 5% clipped in scrapes from "
                  f"{spans[host][0]} to {spans[host][1]}", flush=True)
            check(spans[host][0] is not None, f"{host}: never over 5%")

        fired = firing(base, started - 5, end)
        print("firing:", {i: (min(t), max(t)) for i, t in fired.items()},
              flush=True)
        on, off = spans["a"]
        a_fired = fired.get(hosts["a"], [])
        if check(a_fired, "the rule never fired for a's clip") and on:
            check(min(a_fired) >= on + 10,
                  f"fired at {min(a_fired)}, less than 10 s after a's "
                  f"clipping started at {on}")
            check(max(a_fired) <= off + 4,
                  f"still firing at {max(a_fired)}, a's clipping ended at "
                  f"{off}")
        b_on, b_off = spans["b"]
        check(b_on is not None and b_off - b_on >= 3,
              f"b's flash spans {b_on}..{b_off}: too short to test")
        check(hosts["b"] not in fired, "the rule fired for b's 6 s flash")

        # As /api/v1/alerts showed it: pending, then firing with its
        # annotations, then gone while probe a still ran.
        states = [(t, running, a["state"], a) for t, running, alerts
                  in observed for a in alerts
                  if a["labels"].get("instance") == hosts["a"]]
        firing_at = [t for t, _, state, _ in states if state == "firing"]
        check(any(state == "pending" for _, _, state, _ in states),
              "the alert was never seen pending")
        if check(firing_at, "/api/v1/alerts never showed a firing"):
            alert = next(a for _, _, state, a in states if state == "firing")
            check(alert["annotations"].get("summary")
                  == f"clip.avi on {hosts['a']} clips",
                  f"summary: {alert['annotations']}")
            check("clipped high" in alert["annotations"].get(
                "description", ""), f"description: {alert['annotations']}")
            resolved = [t for t, running, alerts in observed
                        if t > max(firing_at) and running
                        and not any(a["labels"].get("instance") == hosts["a"]
                                    for a in alerts)]
            check(resolved, "the alert did not resolve while probe a ran")
        check(not any(a["labels"].get("instance") == hosts["b"]
                      and a["state"] == "firing"
                      for _, _, alerts in observed for a in alerts),
              "/api/v1/alerts showed b firing")
    finally:
        if camera:
            camera.close()
        for process in processes:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=seconds(10))
                except subprocess.TimeoutExpired:
                    process.kill()
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{len(failures)} failures", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
