#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""clhistogram-probe --web-config under a flood of wrong passwords, as
figures: what docs/reliability.md quotes for basic authentication.

    bench/probe-auth-flood.py [--build DIR] [--video FILE] [--clients N]
                              [--seconds S] [--tls] [--scraper-from ADDRESS]

The probe counts VIDEO (default data/vtest.avi) at its own rate (--sync)
with --metrics and a web configuration of bcrypt cost 10 hashes (as
`htpasswd -nBC 10` makes them), over TLS with --tls (a certificate made
with openssl). A scraper whose password was checked before GETs /metrics
five times a second for S seconds (default 20) alone, from ADDRESS
(default 127.0.0.1: the flood's own), then as long again
while N clients (default 16) send wrong passwords as fast as they are
answered, each request on a connection of its own (one process, apart
from the scraper's). Prints the scrapes'
latency (median, longest) in both runs, what the flood was answered (401
after a bcrypt check, 429 turned away), and the first scrapes of five
users whose passwords are not checked yet, from another address
(127.0.0.2), during the flood."""
import argparse
import asyncio
import base64
import ctypes
import multiprocessing
import os
import re
import shutil
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def bcrypt(password):
    crypt = ctypes.CDLL("libcrypt.so.1")
    crypt.crypt_gensalt.restype = ctypes.c_char_p
    crypt.crypt.restype = ctypes.c_char_p
    return crypt.crypt(password.encode(),
                       crypt.crypt_gensalt(b"$2y$", 10, None, 0)).decode()


def write_config(folder, tls):
    lines = ["basic_auth_users:",
             f"  scraper: {bcrypt('right')}"]
    lines += [f"  fresh{i}: {bcrypt('right')}" for i in range(5)]
    if tls:
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
             "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
             "-subj", "/CN=bench", "-addext", "subjectAltName=IP:127.0.0.1",
             "-keyout", os.path.join(folder, "probe.key"),
             "-out", os.path.join(folder, "probe.pem")],
            check=True, capture_output=True)
        lines = ["tls_server_config:", "  cert_file: probe.pem",
                 "  key_file: probe.key"] + lines
    path = os.path.join(folder, "web.yml")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


class Client:
    """One request a connection, over TLS where asked."""

    def __init__(self, port, cafile):
        self.port = port
        self.cafile = cafile

    @property
    def context(self):
        # Made where used: an SSLContext does not pass to another process.
        if self.cafile and not hasattr(self, "_context"):
            self._context = ssl.create_default_context(cafile=self.cafile)
        return getattr(self, "_context", None)

    def get(self, user, password, source="127.0.0.1"):
        """The answer's status (0: none) to GET /metrics."""
        token = base64.b64encode(f"{user}:{password}".encode()).decode()
        request = (f"GET /metrics HTTP/1.1\r\nHost: probe\r\n"
                   f"Authorization: Basic {token}\r\n\r\n").encode()
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=30,
                                        source_address=(source, 0))
        try:
            if self.context:
                sock = self.context.wrap_socket(sock,
                                                server_hostname="127.0.0.1")
            sock.sendall(request)
            answer = b""
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                answer += chunk
        except OSError:
            return 0
        finally:
            sock.close()
        m = re.match(rb"HTTP/1\.1 (\d+)", answer)
        return int(m.group(1)) if m else 0


def timed_scrapes(client, seconds, source):
    took, statuses = [], []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        start = time.monotonic()
        statuses.append(client.get("scraper", "right", source))
        took.append(time.monotonic() - start)
        time.sleep(max(0.0, 0.2 - took[-1]))
    return took, statuses


async def flood_client(client, stop, answers, n):
    i = 0
    while not stop.is_set():
        token = base64.b64encode(f"scraper:guess{n}-{i}".encode()).decode()
        status = 0
        try:
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", client.port, ssl=client.context,
                server_hostname="127.0.0.1" if client.context else None)
            writer.write(f"GET /metrics HTTP/1.1\r\nHost: probe\r\n"
                         f"Authorization: Basic {token}\r\n\r\n".encode())
            answer = await reader.read()
            writer.close()
            m = re.match(rb"HTTP/1\.1 (\d+)", answer)
            status = int(m.group(1)) if m else 0
        except OSError:
            pass
        answers[status] = answers.get(status, 0) + 1
        i += 1


def flood(client, clients, stop, results):
    """The flood's clients, each a connection after another, as fast as
    they are answered: one process apart from the scraper's, which it
    takes at most a core from, as a remote attacker would take none."""
    answers = {}

    async def run():
        await asyncio.gather(*(flood_client(client, stop, answers, n)
                               for n in range(clients)))
    asyncio.run(run())
    results.put(answers)


def summary(took):
    return (f"median {statistics.median(took) * 1000:.1f} ms, longest "
            f"{max(took) * 1000:.1f} ms")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--video", default=os.path.join(ROOT, "data",
                                                        "vtest.avi"))
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--tls", action="store_true")
    parser.add_argument("--scraper-from", default="127.0.0.1",
                        help="the scraper's address (the flood's is "
                        "127.0.0.1)")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="probe-auth-flood-")
    config = write_config(folder, args.tls)
    env = dict(os.environ, GST_PLUGIN_PATH=os.path.join(args.build, "gst"),
               GST_DEBUG="0")
    probe = subprocess.Popen(
        [os.path.join(args.build, "tools", "clhistogram-probe"), "--quiet",
         "--sync", "--metrics", "127.0.0.1:0", "--web-config", config,
         args.video], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        env=env)
    try:
        line = probe.stderr.readline().decode()
        found = re.search(r"metrics on https?://[^:]+:(\d+)/", line)
        if not found:
            sys.exit(f"the probe gave no metrics URL: {line}")
        client = Client(int(found.group(1)),
                        os.path.join(folder, "probe.pem") if args.tls
                        else None)
        start = time.monotonic()
        status = client.get("scraper", "right")
        print(f"first scrape (its bcrypt check): "
              f"{(time.monotonic() - start) * 1000:.1f} ms, {status}")
        alone, statuses = timed_scrapes(client, args.seconds,
                                        args.scraper_from)
        print(f"scraper from {args.scraper_from}, flood from 127.0.0.1, "
              f"{'TLS' if args.tls else 'plain HTTP'}")
        print(f"{len(alone)} scrapes alone: {summary(alone)}; statuses "
              f"{sorted(set(statuses))}")
        stop, results = multiprocessing.Event(), multiprocessing.Queue()
        worker = multiprocessing.Process(target=flood, args=(
            client, args.clients, stop, results))
        worker.start()
        during, statuses = timed_scrapes(client, args.seconds,
                                         args.scraper_from)
        fresh = []
        for i in range(5):
            start = time.monotonic()
            fresh_status = client.get(f"fresh{i}", "right", "127.0.0.2")
            fresh.append(time.monotonic() - start)
            statuses.append(fresh_status)
        stop.set()
        answers = results.get()
        worker.join()
        print(f"{len(during)} scrapes during a flood of {args.clients} "
              f"clients: {summary(during)}; statuses "
              f"{sorted(set(statuses))}")
        print(f"5 first scrapes from 127.0.0.2 during the flood (a bcrypt "
              f"check each): {summary(fresh)}")
        print(f"the flood was answered: {answers} (status: count)")
    finally:
        probe.terminate()
        probe.wait()
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
