#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""clhistogram-probe's index page in a real browser: Debian's chromium,
headless, loads http://127.0.0.1:PORT/ of a probe with two inputs and
--monitor-pictures (one named with characters HTML escapes); the DOM it
dumps once the page has loaded lists both names and, on each picture,
the size the browser decoded it at (the page's onload writes it as
data-decoded), the monitor's 320x346 for a 320x240 input; no "no picture"
note shows. Its screenshot of the page is a PNG of the window's size.
Exit 77 (skipped) where chromium is not installed.

    test_probe_index_browser.py CLHISTOGRAM_PROBE
"""
import html.parser
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probe_pictures import (  # noqa: E402
    RunningProbe, fetch, wait_until, write_clip)
from timeouts import seconds  # noqa: E402

WEIRD = 'gate <2> & "north".avi'
WINDOW = (1000, 800)


class Dom(html.parser.HTMLParser):
    """The dumped DOM's headings, images and visible notes."""

    def __init__(self):
        super().__init__()
        self.h2, self.images, self.notes = [], [], []
        self.in_h2 = self.in_note = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "h2":
            self.in_h2 = True
            self.h2.append("")
        elif tag == "img":
            self.images.append(attrs)
        elif (tag == "p" and attrs.get("class") == "no-picture"
              and "hidden" not in attrs):
            self.in_note = True
            self.notes.append("")

    def handle_endtag(self, tag):
        if tag == "h2":
            self.in_h2 = False
        elif tag == "p":
            self.in_note = False

    def handle_data(self, data):
        if self.in_h2:
            self.h2[-1] += data
        if self.in_note:
            self.notes[-1] += data


def chromium(tmp, *args):
    """chromium, headless, with a profile of its own; its stdout."""
    done = subprocess.run(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu",
         "--no-first-run", "--hide-scrollbars",
         f"--user-data-dir={os.path.join(tmp, 'profile')}", *args],
        capture_output=True, text=True, timeout=seconds(120),
        env=dict(os.environ, HOME=tmp))
    if done.returncode != 0:
        raise AssertionError(f"chromium exited with {done.returncode}: "
                             f"{done.stderr[-2000:]}")
    return done.stdout


def main():
    probe_path = os.path.abspath(sys.argv[1])
    if not shutil.which("chromium"):
        print("SKIP: no chromium (Debian's chromium package; "
              "scripts/setup.sh installs it)")
        return 77
    tmp = tempfile.mkdtemp(prefix="probe-browser-")
    probe = None
    try:
        clip = os.path.join(tmp, "clip.avi")
        write_clip(clip, 300, pattern="ball")
        os.symlink(clip, os.path.join(tmp, WEIRD))
        probe = RunningProbe(probe_path,
                             ["--sync", "--quiet", "--metrics",
                              "127.0.0.1:0", "--monitor-pictures", "1",
                              f"door={clip}", WEIRD], cwd=tmp)
        assert probe.base, probe.err()
        for name in ("door", WEIRD):
            url = probe.url("inputs/" + urllib.parse.quote(name, safe="")
                            + "/monitor.png")
            wait_until(lambda: fetch(url).status == 200,
                       f"{name}'s first picture")

        dom = Dom()
        dom.feed(chromium(tmp, "--dump-dom", probe.base))
        print("names:", dom.h2)
        print("decoded:", [image.get("data-decoded")
                           for image in dom.images])
        assert dom.h2 == ["door", WEIRD], dom.h2
        assert [image.get("data-decoded") for image in dom.images] \
            == ["320x346", "320x346"], dom.images
        assert dom.notes == [], dom.notes

        shot = os.path.join(tmp, "index.png")
        chromium(tmp, f"--screenshot={shot}",
                 "--window-size={},{}".format(*WINDOW), probe.base)
        with open(shot, "rb") as f:
            size = png_size_any(f.read())
        print(f"screenshot: {size[0]}x{size[1]}")
        assert size == WINDOW, size
        status = probe.stop()
        assert status == 0, probe.err()
        print("ok")
        return 0
    finally:
        if probe:
            probe.close()
        shutil.rmtree(tmp)


def png_size_any(data):
    """A screenshot's size: its IHDR (chromium's are RGBA, not the
    probe's RGB, which png_size() checks)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    return (int.from_bytes(data[16:20], "big"),
            int.from_bytes(data[20:24], "big"))


if __name__ == "__main__":
    sys.exit(main())
