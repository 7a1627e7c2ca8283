#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""A soak of clhistogram-probe, as clhistogram-soak soaks the element: one
probe, many inputs, for SECONDS, with /metrics scraped all along.

    probe-soak.py CLHISTOGRAM_PROBE VIDEO [--seconds S]

The inputs: VIDEO twice as files; a camera on localhost
(tests/rtsp-server.py, over TCP) whose server is killed and started again
every 20 s; two cameras that talk garbage (tests/garbage-camera.py
headers and junk); one whose port refuses connections. Meanwhile a
scraper GETs /metrics (gzip, as Prometheus does) every second, and 8
clients trickle half a request a byte at a time, reconnecting as they are
cut.

Every 10 s: the probe's resident memory, descriptors and threads. At the
end it must still answer a scrape, and SIGTERM must end it with status
0; the figures are printed, and the run fails (exit 1) if after the
first minute the descriptors grew by more than 16, the threads by more
than 16, or resident memory by more than a quarter. Exit 77 where gi
has no GstRtspServer."""
import argparse
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))


def status_of(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    return (int(fields["VmRSS"].split()[0]) / 1024,
            len(os.listdir(f"/proc/{pid}/fd")), int(fields["Threads"]))


def start_server(args, port=0):
    proc = subprocess.Popen(
        ["/usr/bin/python3", os.path.join(HERE, "rtsp-server.py"),
         "--frames", "100000", "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        env=dict(os.environ, GST_DEBUG="0", GST_TRACERS=""))
    line = proc.stdout.readline().decode().strip()
    if proc.poll() == 77 or not line:
        proc.wait()
        print("SKIP: no GstRtspServer (gir1.2-gst-rtsp-server-1.0)")
        sys.exit(77)
    return proc, line.replace("rtsp://", "rtspt://", 1)


def garbage(mode):
    proc = subprocess.Popen(
        [sys.executable, os.path.join(HERE, "garbage-camera.py"), mode],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    return proc, proc.stdout.readline().decode().strip()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("probe")
    parser.add_argument("video")
    parser.add_argument("--seconds", type=int, default=600)
    args = parser.parse_args()

    server, camera = start_server(args)
    port = int(re.search(r":(\d+)/", camera).group(1))
    headers, headers_url = garbage("headers")
    junk, junk_url = garbage("junk")
    probe = subprocess.Popen(
        [args.probe, "--quiet", "--metrics", "127.0.0.1:0",
         "--stall-timeout", "5", "--retry-max", "4", "--zones", "3x3",
         "--sync", "a=" + args.video, "b=" + args.video, "cam=" + camera,
         "headers=" + headers_url, "junk=" + junk_url,
         f"gone=rtspt://127.0.0.1:{free_port()}/clip"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        env=dict(os.environ, GST_DEBUG="0"))
    errors, url = [], []
    got_url = threading.Event()

    def read_errors():
        for line in probe.stderr:
            text = line.decode(errors="replace")
            errors.append(text)
            found = re.search(r"metrics on (\S+)", text)
            if found:
                url.append(found.group(1))
                got_url.set()
    reader = threading.Thread(target=read_errors)
    reader.start()
    stop = threading.Event()
    scrapes = {"ok": 0, "failed": 0}

    def scrape():
        request = urllib.request.Request(url[0], headers={
            "Accept-Encoding": "gzip"})
        while not stop.wait(1):
            try:
                with urllib.request.urlopen(request, timeout=10) as reply:
                    reply.read()
                scrapes["ok"] += 1
            except OSError:
                scrapes["failed"] += 1

    def trickle():
        host, port_s = re.match(r"http://([^:/]+):(\d+)", url[0]).groups()
        while not stop.is_set():
            try:
                with socket.create_connection((host, int(port_s)), 10) as s:
                    for byte in b"GET /metrics HTTP/1.1\r\nHost: x" * 100:
                        if stop.wait(0.2):
                            return
                        s.sendall(bytes([byte]))
            except OSError:
                stop.wait(0.2)

    if not got_url.wait(60):
        probe.kill()
        sys.exit("no metrics URL: " + "".join(errors))
    clients = [threading.Thread(target=scrape)] + [
        threading.Thread(target=trickle) for _ in range(8)]
    for c in clients:
        c.start()
    samples, restarts = [], 0
    start = time.monotonic()
    next_restart = start + 20
    while time.monotonic() - start < args.seconds:
        time.sleep(10)
        if probe.poll() is not None:
            break
        samples.append((time.monotonic() - start, *status_of(probe.pid)))
        if time.monotonic() >= next_restart:
            server.kill()
            server.wait()
            server, _ = start_server(args, port)
            restarts += 1
            next_restart = time.monotonic() + 20
    alive = probe.poll() is None
    answered = False
    if alive:
        with urllib.request.urlopen(url[0], timeout=30) as reply:
            answered = b"clhistogram_input_up" in reply.read()
        probe.send_signal(signal.SIGTERM)
    stop.set()
    for c in clients:
        c.join()
    probe.wait(timeout=60)
    reader.join()
    for proc in (server, headers, junk):
        proc.kill()
        proc.wait()

    print(f"probe soak: {args.seconds} s, 6 inputs, {restarts} camera "
          f"restarts, {scrapes['ok']} scrapes answered, {scrapes['failed']} "
          f"failed; {sum('input down' in e for e in errors)} downs, "
          f"{sum('cut its' in e for e in errors)} cuts")
    print("  (s, resident MiB, descriptors, threads): " + "; ".join(
        f"{t:.0f} {rss:.1f} {fds} {threads}"
        for t, rss, fds, threads in samples))
    late = [s for s in samples if s[0] >= 60] or samples[-1:]
    first, last = late[0], late[-1]
    problems = []
    if not alive:
        problems.append(f"the probe ended early ({probe.returncode}): "
                        + "".join(errors[-5:]))
    if not answered:
        problems.append("the last scrape had no clhistogram_input_up")
    if probe.returncode != 0:
        problems.append(f"SIGTERM gave status {probe.returncode}")
    if max(s[2] for s in late) > first[2] + 16:
        problems.append("descriptors grew")
    if max(s[3] for s in late) > first[3] + 16:
        problems.append("threads grew")
    if last[1] > first[1] * 1.25:
        problems.append("resident memory grew by more than a quarter")
    for p in problems:
        print("probe soak: " + p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
