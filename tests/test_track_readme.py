#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The tracking examples as a reader runs them, from the sections of the
README and of the guide (docs/tracking.md) that show them: every ```python
block there that is a whole program (it calls Gst.init), as written, in a
Python of its own, its output held against the output block that follows
it in the document (each line shown there, "..." for lines left out, must
come out, in that order). For the one-pipeline example with the action
signals, also what it must show whatever the document says: track 0 on
the ball every frame, never lost; track 1 (on black) reported on frames 0
to 4, lost on the fifth (clcamshift's lost-frames default), and ended
from the next frame by stop-track.

Usage: test_track_readme.py DOCUMENT.md SECTION [DOCUMENT.md SECTION...]
(SECTION: the start of a heading's text; the section runs to the next
heading of its level; GST_PLUGIN_PATH names the build's plugin). Exits 77
(skipped) without GStreamer's Python bindings."""
import re
import subprocess
import sys

from doc_section import doc_section
from timeouts import seconds

try:
    import gi

    gi.require_version("Gst", "1.0")
    gi.require_version("GstVideo", "1.0")
    from gi.repository import Gst, GstVideo  # noqa: F401, E402
except (ImportError, ValueError) as e:
    print(f"SKIP: GStreamer's Python bindings are missing ({e})")
    sys.exit(77)


def tracking_blocks(document, title):
    """(code, expected output lines) of each python block of the section
    and the plain block right after it."""
    section = doc_section(document, title)
    blocks = re.findall(r"^```(\w*)\n(.*?)^```\n", section, re.S | re.M)
    pairs = []
    for i, (lang, body) in enumerate(blocks):
        # A fragment (no Gst.init: lines to paste into a program, such as
        # reading the analytics metadata of a buffer) is not a program.
        if lang != "python" or "Gst.init(" not in body:
            continue
        assert i + 1 < len(blocks) and blocks[i + 1][0] == "", \
            f"python block {len(pairs)} has no output block after it"
        pairs.append((body, blocks[i + 1][1].splitlines()))
    return pairs


def shown_in_order(shown, got):
    """The document's lines (but "...") in @got, in order: the first one
    missing, or None."""
    rest = iter(got)
    for line in shown:
        if line == "...":
            continue
        if not any(line == g for g in rest):
            return line
    return None


def check_signals_example(lines):
    """What the start-track / stop-track example must print."""
    rows = []
    for line in lines:
        m = re.fullmatch(r"(\d+) (\d+) \[(.*)\] (\d+) ([\d.]+) (True|False)",
                         line)
        assert m, f"not a track line: {line!r}"
        rows.append((int(m.group(1)), int(m.group(2)),
                     float(m.group(5)), m.group(6) == "True"))
    ball = [r for r in rows if r[1] == 0]
    black = [r for r in rows if r[1] == 1]
    problems = []
    if len(ball) != 30 or any(r[3] or r[2] < 0.5 for r in ball):
        problems.append(f"track 0: {len(ball)} frames (30 expected), lost "
                        f"on {sum(r[3] for r in ball)}, confidence down to "
                        f"{min((r[2] for r in ball), default=None)}")
    if [r[3] for r in black] != [False] * 4 + [True] or \
            any(r[2] != 0 for r in black):
        problems.append(f"track 1: lost {[r[3] for r in black]}, "
                        f"confidence {[r[2] for r in black]}; expected "
                        f"four frames of confidence 0, lost on the fifth, "
                        f"then no more")
    return problems


def main():
    args = sys.argv[1:]
    if not args or len(args) % 2:
        print(__doc__)
        return 2
    pairs = []
    for document, title in zip(args[::2], args[1::2]):
        found = tracking_blocks(document, title)
        print(f"{document}, '{title}': {len(found)} programs")
        if not found:
            print(f"FAILED: no program in {document}, '{title}'")
            return 1
        pairs += found
    ok = True
    signals = 0
    for n, (code, shown) in enumerate(pairs):
        run = subprocess.run([sys.executable, "-c", code],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, timeout=seconds(300))
        got = run.stdout.splitlines()
        print(f"block {n}: exit {run.returncode}, {len(got)} lines, "
              f"{len([s for s in shown if s != '...'])} shown in the document")
        if run.returncode != 0:
            print(f"  FAILED: {run.stderr.strip()[-2000:]}")
            ok = False
            continue
        missing = shown_in_order(shown, got)
        if missing is not None:
            print(f"  FAILED: the document shows {missing!r}; it printed:")
            print("\n".join(f"    {g}" for g in got))
            ok = False
        if 'emit("start-track"' in code:
            signals += 1
            for p in check_signals_example(got):
                print(f"  FAILED: {p}")
                ok = False
    if signals != 1:
        print(f"FAILED: {signals} examples with start-track, expected 1")
        ok = False
    print("ok" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
