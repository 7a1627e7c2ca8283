#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""A camera that talks garbage, on localhost: an RTSP server that
answers every request with one of three misbehaviours, for the probe's
tests and soaks.

    garbage-camera.py MODE [--port PORT]

MODE:
  headers  "RTSP/1.0 200 OK", then header lines without end
  line     "RTSP/1.0 200 OK", then one header line without end
  trickle  "RTSP/1.0 200 OK", then header lines, a byte every 50 ms
  junk     bytes that are no RTSP at all, without end
  body     a reply that announces a 1 GB SDP body, then sends it
           without end

Each connection is served on a thread of its own until the client goes
away; the server writes as fast as the client reads, so what the client
keeps is its own doing (but trickle's). PORT 0 (the default) binds any free port; once
it listens, rtsp://127.0.0.1:PORT/cam goes to stdout as one line. It
runs until killed. On standard error, when each connection ends: a line
"closed N" with the number of connections closed so far."""
import argparse
import socket
import sys
import threading
import time

CHUNK = 16384


def read_request(conn):
    """Reads up to the end of the first request's headers, or nothing."""
    data = b""
    while b"\r\n\r\n" not in data and len(data) < 65536:
        part = conn.recv(4096)
        if not part:
            return None
        data += part
    return data


def cseq(request):
    for line in request.split(b"\r\n"):
        if line.lower().startswith(b"cseq:"):
            return line.split(b":", 1)[1].strip()
    return b"1"


def garbage(mode, request):
    """The reply's head, then the chunk repeated without end."""
    if mode in ("line", "trickle"):
        head = b"RTSP/1.0 200 OK\r\nCSeq: " + cseq(request) + b"\r\nX-Garbage: "
        return head, b"g" * CHUNK if mode == "line" else b"g\r\nX: "
    if mode == "headers":
        head = b"RTSP/1.0 200 OK\r\nCSeq: " + cseq(request) + b"\r\n"
        line = b"X-Garbage: " + b"g" * 100 + b"\r\n"
        return head, line * (CHUNK // len(line))
    if mode == "junk":
        return b"", bytes(range(256)) * (CHUNK // 256)
    head = (b"RTSP/1.0 200 OK\r\nCSeq: " + cseq(request) + b"\r\n"
            b"Content-Type: application/sdp\r\n"
            b"Content-Length: 1000000000\r\n\r\n")
    return head, b"v=0\r\n" + b"a=x-garbage\r\n" * (CHUNK // 13)


class Counter:
    def __init__(self):
        self.lock = threading.Lock()
        self.closed = 0

    def close(self):
        with self.lock:
            self.closed += 1
            print(f"closed {self.closed}", file=sys.stderr, flush=True)


def serve(conn, mode, counter):
    try:
        request = read_request(conn)
        if request is not None:
            head, chunk = garbage(mode, request)
            conn.sendall(head)
            while True:
                if mode == "trickle":
                    for byte in chunk:
                        conn.sendall(bytes([byte]))
                        time.sleep(0.05)
                else:
                    conn.sendall(chunk)
    except OSError:
        pass
    finally:
        conn.close()
        counter.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["headers", "line", "trickle", "junk",
                                         "body"])
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", args.port))
    listener.listen(16)
    print(f"rtsp://127.0.0.1:{listener.getsockname()[1]}/cam", flush=True)
    counter = Counter()
    while True:
        conn, _ = listener.accept()
        threading.Thread(target=serve, args=(conn, args.mode, counter),
                         daemon=True).start()


if __name__ == "__main__":
    main()
