#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""clhistogram-probe against hostile peers, as figures: what
docs/reliability.md quotes for the /metrics server and a garbage camera.

    bench/probe-hostile.py [--build DIR] [--video FILE] [--garbage-s S]

1. Slow clients: 96 clients send a request's headers a byte every 100 ms,
   each reconnecting as soon as it is cut (the server holds 32
   connections), while a scraper GETs /metrics once a second for 30 s.
   Prints the scrapes answered and their latency (median, max): the
   target is every scrape within 2 s.
2. Unread scrapes: with 32x32 zones a scrape reaches the series cap
   (about 1 MB; 11 MB without the cap); 32 clients request it and never
   read. Prints the probe's resident memory before and 5 s after (the
   target: at most 32 MiB more).
3. A garbage camera (tests/garbage-camera.py headers: header lines
   without end) for S seconds (default 600), --stall-timeout 10: the
   probe's resident memory every 10 s. Prints it at the first retry and
   the most after it (the target: flat after the first retry).

The probe counts VIDEO (default data/vtest.avi) at its own rate
(--sync) for 1 and 2, so that its metrics keep changing."""
import argparse
import os
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


class Probe:
    def __init__(self, build, *args):
        env = dict(os.environ, GST_PLUGIN_PATH=os.path.join(build, "gst"),
                   GST_DEBUG="0")
        self.proc = subprocess.Popen(
            [os.path.join(build, "tools", "clhistogram-probe"), "--quiet",
             "--metrics", "127.0.0.1:0", *args],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        self.url = None
        self.errors = []
        ready = threading.Event()

        def read():
            for line in self.proc.stderr:
                text = line.decode(errors="replace")
                self.errors.append(text)
                found = re.search(r"metrics on (\S+)", text)
                if found:
                    self.url = found.group(1)
                    ready.set()
        self.reader = threading.Thread(target=read, daemon=True)
        self.reader.start()
        if not ready.wait(60):
            self.stop()
            sys.exit("the probe gave no metrics URL: " + "".join(self.errors))
        host, port = re.match(r"http://([^:/]+):(\d+)", self.url).groups()
        self.address = (host, int(port))

    def stop(self):
        self.proc.terminate()
        self.proc.wait()


def scrape_seconds(url):
    start = time.monotonic()
    with urllib.request.urlopen(url, timeout=30) as reply:
        reply.read()
    return time.monotonic() - start


def slow_clients(build, video):
    probe = Probe(build, "--sync", "--zones", "4x4", video)
    stop = threading.Event()

    def trickle():
        request = b"GET /metrics HTTP/1.1\r\nHost: probe\r\nX-Slow: "
        while not stop.is_set():
            try:
                with socket.create_connection(probe.address, 10) as s:
                    for byte in request + b"a" * 10000:
                        if stop.is_set():
                            return
                        s.sendall(bytes([byte]))
                        time.sleep(0.1)
            except OSError:
                pass
    clients = [threading.Thread(target=trickle, daemon=True)
               for _ in range(96)]
    for c in clients:
        c.start()
    time.sleep(6)
    took, failed = [], 0
    for _ in range(30):
        try:
            took.append(scrape_seconds(probe.url))
        except OSError:
            failed += 1
        time.sleep(1)
    stop.set()
    probe.stop()
    print(f"slow clients: 96 trickling, {len(took)} of 30 scrapes answered, "
          f"{failed} failed; latency median {statistics.median(took):.3f} s, "
          f"max {max(took):.3f} s")


def unread_scrapes(build, video):
    probe = Probe(build, "--sync", "--zones", "32x32", video)
    size = 0
    # Until the first frames' statistics are there.
    for _ in range(600):
        size = len(urllib.request.urlopen(probe.url, timeout=60).read())
        if size > 1e6:
            break
        time.sleep(0.1)
    time.sleep(2)
    before = rss_mib(probe.proc.pid)
    held = []
    for _ in range(32):
        s = socket.create_connection(probe.address, 10)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: probe\r\n\r\n")
        held.append(s)
    time.sleep(5)
    after = rss_mib(probe.proc.pid)
    for s in held:
        s.close()
    probe.stop()
    print(f"unread scrapes: 32 of {size / 1e6:.1f} MB; resident "
          f"{before:.1f} MiB before, {after:.1f} MiB after: "
          f"{after - before:+.1f} MiB")


def garbage_camera(build, seconds):
    camera = subprocess.Popen(
        [sys.executable, os.path.join(ROOT, "tests", "garbage-camera.py"),
         "headers"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    url = camera.stdout.readline().decode().strip()
    probe = Probe(build, "--stall-timeout", "10", "--retry-max", "2",
                  "cam=" + url)
    samples = []
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        time.sleep(10)
        samples.append((time.monotonic() - start, rss_mib(probe.proc.pid)))
    downs = sum("input down" in line for line in probe.errors)
    cuts = sum("cut its" in line for line in probe.errors)
    probe.stop()
    camera.kill()
    camera.wait()
    # The first retry comes after 10 s of stall, 2 s to the cut and 1 s.
    after = [rss for t, rss in samples if t > 20]
    print(f"garbage camera: {seconds} s, {downs} downs, {cuts} cuts; "
          f"resident at 20 s {after[0]:.1f} MiB, most after "
          f"{max(after):.1f} MiB, last {after[-1]:.1f} MiB")
    print("  samples (s, MiB): " + ", ".join(
        f"{t:.0f} {rss:.1f}" for t, rss in samples))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--video", default=os.path.join(ROOT, "data",
                                                        "vtest.avi"))
    parser.add_argument("--garbage-s", type=int, default=600)
    args = parser.parse_args()
    print(f"host: {os.cpu_count()} CPUs")
    slow_clients(args.build, args.video)
    unread_scrapes(args.build, args.video)
    garbage_camera(args.build, args.garbage_s)


if __name__ == "__main__":
    main()
