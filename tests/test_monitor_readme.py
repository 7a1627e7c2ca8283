#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The README's one-line monitor as a reader runs it: the gst-launch-1.0
line of its "An operator's monitor" section, as written but for the
window (autovideosink: fakesink here, no display) and a bound on the
frames (identity eos-after after decodebin, so that the run is short),
from the source root (the line reads data/vtest.avi). It must end at EOS
with status 0, print the histogram messages of the monitor's clhistogram
(`count`, inside the bin) and the exposure alert the README promises
(vtest.avi's clipping zones, held for clhistogram's default alert-hold),
and negotiate the picture the layout says: 768x576 under 768x256 scopes.

Usage: test_monitor_readme.py README.md FRAMES"""
import re
import subprocess
import sys

from doc_section import doc_section
from timeouts import seconds


def monitor_line(readme):
    section = doc_section(readme, "An operator's monitor")
    lines = [line for line in re.findall(r"^```sh\n(.*?)^```\n", section,
                                         re.S | re.M)]
    assert len(lines) == 1, f"{len(lines)} sh blocks in the section, not 1"
    line = lines[0].strip()
    assert "\n" not in line, "the monitor is not one line"
    return line


def main():
    readme, frames = sys.argv[1], int(sys.argv[2])
    line = monitor_line(readme)
    assert "clexposuremonitor" in line and "autovideosink" in line, line
    line = line.replace("autovideosink", "fakesink")
    line = line.replace("decodebin !", f"decodebin ! identity eos-after={frames} !", 1)
    # -v prints the caps each pad takes: the monitor's picture among them.
    args = line.split()
    assert args[0] == "gst-launch-1.0"
    args.insert(1, "-v")
    root = readme.rsplit("/", 1)[0] if "/" in readme else "."
    run = subprocess.run(args, cwd=root, capture_output=True, text=True,
                         timeout=seconds(240))
    out = run.stdout + run.stderr
    assert run.returncode == 0, f"status {run.returncode}:\n{out[-3000:]}"
    assert "Got EOS from element" in out, out[-3000:]
    histograms = re.findall(r'from element "count" \(element\): histogram,', out)
    assert len(histograms) == frames, \
        f"{len(histograms)} histogram messages from count, not {frames}"
    assert re.search(r'from element "count" \(element\): exposure, .*'
                     r"alert=\(string\)clipped, "
                     r"event=\(string\)start", out), "no clipping alert"
    picture = re.findall(r"clexposuremonitor0\.GstGhostPad:src: caps = "
                         r"video/x-raw, .*?width=\(int\)(\d+), height=\(int\)(\d+)",
                         out)
    assert picture and picture[-1] == ("768", "832"), picture
    print(f"{len(histograms)} histogram messages, a clipping alert, "
          f"picture {picture[-1][0]}x{picture[-1][1]}")


if __name__ == "__main__":
    main()
