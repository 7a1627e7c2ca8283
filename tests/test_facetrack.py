#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""examples/facetrack.py, GStreamer's facedetect finding faces every N
frames and clcamshift following them in one pipeline, run as the guide's
"Detector to tracker" (docs/tracking.md) runs it on Megamind.avi (its options, its output
lines shown there, in order), headless:

(a) facedetect's min-stddev turns its detector off and on frame by frame
    (255: no face message and no "face" ROI meta on frames full of faces;
    0: both), the switch the example's schedule stands on;
(b) --every 12 over the whole clip (its cuts found here from the frames):
    the detector looks exactly on the frames the schedule names (every
    12th, and every frame while no track is live), and finds faces in
    every shot; each face it finds starts a track or restarts the one
    whose window holds its centre, nothing else starts one; on the frame
    it starts, the track's rotated box has its centre in the face;
    following: on every later detection the window the tracker had found
    on its own holds at least half of the detected face, and no window
    grows past 8 times the face it started from; the first shot's two
    faces keep tracks 1 and 2 from the first detection to the cut; at each
    cut every track ends (lost, or no face found in it twice) or a
    detection puts it on a face of the new shot, within two detections
    and lost-frames; a lost track had four frames of confidence under
    min-mass before it, and no track is reported after its end;
(c) --every 48 on the first shot: the faces move away from where they
    were found (the last detection's box holds less than half of a face
    48 frames later), the tracks still hold at least half of it;
(d) --output: a picture of two frames (two half-size frames, the tracks'
    green boxes drawn on each, facedetect's white faces on the one it
    looked at) and a video (VP8 in Matroska, every frame);
(e) a cascade that is not one and a missing video are refused with a
    message.

Why coverage (the share of the detected face inside the tracker's window)
and not the two rectangles' IoU: CamShift's window holds the face's hues,
the neck (and, in a low neckline, the skin below) with the face, so while
it follows the woman's face its IoU with facedetect's square is 0.24 to
0.59 for a window up to 4.3 times the face (0.07 where the detector found
a square of her face's middle only); coverage says whether the face is
inside. At least half: a window of the face's size shifted by half
the face's side covers half of it, the tracker more than half a face off
does not. The window area bound (8 times the starting face) keeps a window
spread over the whole background from covering faces by size alone; on
this clip face, neck and chest reach 6.3 times.

Usage: test_facetrack.py FACETRACK.py VIDEO CASCADE docs/tracking.md
(GST_PLUGIN_PATH names the build's plugin). Fails, not skips, without
facedetect (Debian's gstreamer1.0-opencv, which scripts/setup.sh
installs) or without the samples (scripts/fetch-samples.sh, which
setup.sh runs)."""
import os
import re
import subprocess
import sys
import tempfile

from doc_section import doc_section
from timeouts import seconds

# facedetect, when made, loads cascades from opencv-data's folder (absent
# here) before it is given the one to use: not the test's business.
os.environ.setdefault("OPENCV_LOG_LEVEL", "SILENT")
try:
    import cv2
    import numpy as np
    import gi

    gi.require_version("Gst", "1.0")
    gi.require_version("GstVideo", "1.0")
    from gi.repository import GLib, Gst, GstVideo  # noqa: E402
except (ImportError, ValueError) as e:
    print(f"FAILED: needs python3-opencv, python3-numpy and GStreamer's "
          f"Python bindings, which scripts/setup.sh installs ({e})")
    sys.exit(1)

# The guide's options (read from it, held to these): --every 12; 45 hue
# bins, saturation from 120 and value from 60 keep the models on skin
# (examples/camshift.py's section of the guide); a track whose probability per
# pixel stays under a quarter of its start's for five frames is lost (a
# face holds 0.63 or more of it between detections here, a cut drops it to
# about 0.15).
OPTIONS = ["--bins", "45", "--min-saturation", "120", "--min-value", "60",
           "--min-mass", "0.25"]
MIN_MASS = 0.25
LOST_FRAMES = 5          # clcamshift's default lost-frames
MISSES = 2               # facetrack.py's default --misses
COVERAGE = 0.5
GROWTH = 8.0
PROBLEMS = []


def check(ok, what):
    if not ok:
        PROBLEMS.append(what)
        print(f"  FAILED: {what}")
    return ok


def rect(text):
    return tuple(int(v) for v in text.split(","))


def centre_inside(r, window):
    x, y, w, h = r
    wx, wy, ww, wh = window
    return wx <= x + w / 2 < wx + ww and wy <= y + h / 2 < wy + wh


def intersection(a, b):
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return max(w, 0) * max(h, 0)


def coverage(face, window):
    """The share of `face` inside `window`."""
    return intersection(face, window) / (face[2] * face[3])


def iou(a, b):
    i = intersection(a, b)
    return i / (a[2] * a[3] + b[2] * b[3] - i)


class Run:
    """The example's output, parsed: per frame, the faces of a detection
    (None where it did not look), the starts and restarts, the ends, and
    each track's line."""

    LINE = re.compile(r"frame (\d+) time \S+ (.*)")

    def __init__(self, lines):
        self.detect = {}         # frame -> [faces]
        self.starts = {}         # frame -> {id: (kind, face, old window)}
        self.ends = {}           # frame -> {id: "lost" or "stop"}
        self.tracks = {}         # frame -> {id: (window, centre, conf)}
        self.frames = 0
        for line in lines:
            m = self.LINE.fullmatch(line)
            if not m:
                raise ValueError(f"not a line of facetrack.py: {line!r}")
            f, rest = int(m.group(1)), m.group(2).split()
            self.frames = max(self.frames, f + 1)
            if rest[0] == "detect":
                self.detect[f] = ([] if rest[1:] == ["none"]
                                  else [rect(r) for r in rest[1:]])
                continue
            i, what = int(rest[1]), rest[2]
            if what in ("start", "redetect"):
                old = rect(rest[5]) if what == "redetect" else None
                self.starts.setdefault(f, {})[i] = (what, rect(rest[3]), old)
            elif what in ("lost", "stop"):
                self.ends.setdefault(f, {})[i] = what
            elif what == "window":
                cx, cy = (float(v) for v in rest[5].split(","))
                self.tracks.setdefault(f, {})[i] = (rect(rest[3]), (cx, cy),
                                                    float(rest[9]))
            else:
                raise ValueError(f"unknown event: {line!r}")


def run_example(example, args, timeout=seconds(600)):
    run = subprocess.run([sys.executable, example] + args,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, timeout=timeout)
    return run


def parsed(example, args, shown=None):
    """The example's output for `args`, parsed (None when it failed);
    `shown`: lines it must print, in order."""
    run = run_example(example, args)
    print(f"facetrack.py {' '.join(args[1:])}: exit {run.returncode}, "
          f"{len(run.stdout.splitlines())} lines")
    if not check(run.returncode == 0, f"exit {run.returncode}: "
                 f"{run.stderr.strip()[-2000:]}"):
        return None
    check("warning" not in run.stderr, f"it warned: {run.stderr.strip()}")
    if shown is not None:
        missing = shown_in_order(shown, run.stdout.splitlines())
        check(missing is None, f"the guide shows {missing!r}, not printed "
              "(in that order)")
    return Run(run.stdout.splitlines())


def guide_example(guide):
    """The guide's facetrack.py arguments (after the video, --output
    left out) and the output lines it shows, from its "Detector to
    tracker" section."""
    part = doc_section(guide, "Detector to tracker")
    blocks = re.findall(r"^```(\w*)\n(.*?)^```\n", part, re.S | re.M)
    command = next(b for lang, b in blocks if lang == "sh"
                   and "examples/facetrack.py" in b)
    words = command.replace("\\\n", " ").split("examples/facetrack.py")[1]
    words = words.split()[1:]
    if "--output" in words:
        at = words.index("--output")
        del words[at:at + 2]
    shown = next(b for lang, b in blocks if lang == ""
                 and b.startswith("frame "))
    return words, shown.splitlines()


def shown_in_order(shown, got):
    """The guide's lines (but "...") in `got`, in order, but for their
    times: the first one missing, or None. (The times are the decoder's
    timestamps; the guide's come through gst-plugins-bad's
    mpeg4videoparse, which this test's plugin list leaves out, and which
    gives a few frames of the clip the timestamp of the frame before.)"""
    def untimed(line):
        return re.sub(r" time \S+", "", line)
    rest = iter([untimed(g) for g in got])
    for line in shown:
        if line != "..." and not any(untimed(line) == g for g in rest):
            return line
    return None


def cuts(video):
    """The frames that start a new shot: a mean absolute difference from
    the frame before over 20 (Megamind.avi: about 40 at its three cuts and
    from its black frame 0, at most 5.3 elsewhere)."""
    cap = cv2.VideoCapture(video)
    found, prev, index = [], None, 0
    while True:
        ok, frame = cap.read()
        if not ok:
            break
        frame = frame.astype(np.int16)
        if prev is not None and np.abs(frame - prev).mean() > 20:
            found.append(index)
        prev, index = frame, index + 1
    return [c for c in found if c > 1], index


def check_switch(video, cascade):
    """(a) facedetect's min-stddev as the example's on/off switch, on
    frames 1 to 20 (two faces each): looked at on odd frames only."""
    print("(a) facedetect min-stddev=0 looks, 255 does not")
    pipeline = Gst.parse_launch(
        "filesrc name=file ! decodebin ! videoconvert ! "
        "video/x-raw,format=RGB ! "
        "facedetect name=detector display=false updates=on_face ! "
        "fakesink name=sink sync=false")
    pipeline.get_by_name("file").set_property("location", video)
    detector = pipeline.get_by_name("detector")
    detector.set_property("profile", cascade)
    seen = {"in": 0, "out": 0}
    metas = []

    def switch(pad, info):
        if seen["in"] >= 21:
            if seen["in"] == 21:
                pad.send_event(Gst.Event.new_eos())
            seen["in"] += 1
            return Gst.PadProbeReturn.DROP
        detector.set_property("min-stddev", 0 if seen["in"] % 2 else 255)
        seen["in"] += 1
        return Gst.PadProbeReturn.OK

    def marked(pad, info):
        roi = GstVideo.buffer_get_video_region_of_interest_meta_id(
            info.get_buffer(), 0)
        if roi and GLib.quark_to_string(roi.roi_type) == "face":
            metas.append(seen["out"])
        seen["out"] += 1
        return Gst.PadProbeReturn.OK

    detector.get_static_pad("sink").add_probe(Gst.PadProbeType.BUFFER,
                                              switch)
    pipeline.get_by_name("sink").get_static_pad("sink").add_probe(
        Gst.PadProbeType.BUFFER, marked)
    posted = []
    pipeline.set_state(Gst.State.PLAYING)
    bus = pipeline.get_bus()
    while True:
        msg = bus.timed_pop_filtered(
            Gst.CLOCK_TIME_NONE, Gst.MessageType.ELEMENT
            | Gst.MessageType.EOS | Gst.MessageType.ERROR)
        if msg.type == Gst.MessageType.ERROR:
            check(False, "facedetect pipeline: "
                  f"{msg.parse_error()[0].message}")
            break
        if msg.type == Gst.MessageType.EOS:
            break
        if msg.get_structure().get_name() == "facedetect":
            posted.append(len(msg.get_structure().get_value("faces")))
    pipeline.set_state(Gst.State.NULL)
    odd = list(range(1, 21, 2))
    print(f"  metas on frames {metas}, {len(posted)} messages")
    check(metas == odd, f"face metas on frames {metas}, expected {odd}")
    check(len(posted) == len(odd) and all(n >= 1 for n in posted),
          f"facedetect posted faces {posted}, expected a message with faces "
          f"on each of the {len(odd)} frames it looked at")


def schedule(run, every):
    """The frames the detector should look at, from the tracks the run
    shows live before each frame."""
    live, looks, since = set(), [], None
    for f in range(run.frames):
        if not live or since is None or since + 1 >= every:
            looks.append(f)
            since = 0
        else:
            since += 1
        for i, (kind, face, old) in run.starts.get(f, {}).items():
            live.add(i)
        for i in run.ends.get(f, {}):
            live.discard(i)
    return looks


def check_starts(run):
    """Each face of a detection starts or restarts one track; nothing else
    starts one; the started track's box has its centre in the face."""
    for f, faces in sorted(run.detect.items()):
        started = run.starts.get(f, {})
        check(sorted(s[1] for s in started.values()) == sorted(faces),
              f"frame {f}: faces {faces}, tracks started from "
              f"{sorted(s[1] for s in started.values())}")
        for i, (kind, face, old) in started.items():
            got = run.tracks.get(f, {}).get(i)
            if not check(got is not None, f"frame {f}: track {i} started, "
                         "no result on that frame"):
                continue
            (x, y, w, h), (cx, cy) = face, got[1]
            check(x <= cx < x + w and y <= cy < y + h,
                  f"frame {f}: track {i} started at {face}, its box's "
                  f"centre {cx, cy} is outside")
    for f in run.starts:
        check(f in run.detect, f"frame {f}: a track started without a "
              "detection")


def check_following(run, label):
    """Every restart: the tracker's own window held at least half of the
    face; no window past GROWTH times its starting face. The worst
    coverage."""
    worst = 1.0
    for f, started in sorted(run.starts.items()):
        for i, (kind, face, old) in sorted(started.items()):
            if kind != "redetect":
                continue
            c = coverage(face, old)
            worst = min(worst, c)
            print(f"  {label} frame {f} track {i}: face {face} window {old} "
                  f"coverage {c:.2f} IoU {iou(face, old):.2f}")
            check(centre_inside(face, old), f"frame {f}: track {i} "
                  "restarted from a face whose centre is not in its window")
            check(c >= COVERAGE, f"frame {f}: track {i}'s window {old} "
                  f"holds {c:.2f} of the face {face}, under {COVERAGE}")
    origin = {}
    for f in range(run.frames):
        for i, (kind, face, old) in run.starts.get(f, {}).items():
            origin[i] = face
        for i, (window, centre, conf) in run.tracks.get(f, {}).items():
            face = origin[i]
            check(window[2] * window[3] <= GROWTH * face[2] * face[3],
                  f"frame {f}: track {i}'s window {window} is more than "
                  f"{GROWTH} times its face {face}")
    return worst


def check_ends(run):
    """Lost after LOST_FRAMES - 1 frames under min-mass; nothing of a
    track after its end."""
    ended = {}
    for f in range(run.frames):
        for i in run.starts.get(f, {}):
            check(i not in ended, f"frame {f}: track {i} started again "
                  f"after its end on frame {ended.get(i)} (ids are new)")
        for i in run.tracks.get(f, {}):
            check(i not in ended, f"frame {f}: track {i} reported after "
                  f"its end on frame {ended.get(i)}")
        for i, how in run.ends.get(f, {}).items():
            ended[i] = f
            if how != "lost":
                continue
            before = [run.tracks.get(g, {}).get(i) for g in
                      range(f - LOST_FRAMES + 1, f)]
            check(all(b is not None and b[2] < MIN_MASS for b in before),
                  f"frame {f}: track {i} lost; confidence on the frames "
                  f"before: {[b and b[2] for b in before]}, expected "
                  f"{LOST_FRAMES - 1} under {MIN_MASS}")


def check_shots(run, shots, every):
    """The first shot keeps tracks 1 and 2; at each cut, every live track
    ends or is put on a face of the new shot soon after."""
    first_end = shots[0] if shots else run.frames
    ids = set()
    for f in range(1, first_end):
        ids |= set(run.tracks.get(f, {}))
        check(set(run.tracks.get(f, {})) == {1, 2},
              f"frame {f} (first shot): tracks {sorted(run.tracks.get(f, {}))}"
              ", expected 1 and 2")
    deadline = MISSES * every + LOST_FRAMES
    for cut in shots:
        live = set(run.tracks.get(cut - 1, {}))
        settled = set()
        for f in range(cut, min(cut + deadline + 1, run.frames)):
            settled |= set(run.ends.get(f, {}))
            for i, (kind, face, old) in run.starts.get(f, {}).items():
                if kind == "redetect":
                    settled.add(i)
        print(f"  cut at frame {cut}: tracks {sorted(live)}, ended or on "
              f"a new face by frame {cut + deadline}: {sorted(settled)}")
        check(live <= settled, f"cut at frame {cut}: tracks "
              f"{sorted(live - settled)} neither ended nor found on a "
              f"face within {deadline} frames")
        after = [f for f in run.detect if cut <= f <= cut + every
                 and run.detect[f]]
        check(after, f"cut at frame {cut}: no face found within {every} "
              "frames")


def check_outputs(example, video, cascade, tmp):
    print("(d) --output: a picture and a video")
    png = os.path.join(tmp, "faces.png")
    run = run_example(example, [video, "--cascade", cascade, "--every", "12",
                                "--frames", "50", "--output", png,
                                "--at", "12,49"] + OPTIONS)
    if check(run.returncode == 0, f"--output PNG: exit {run.returncode}: "
             f"{run.stderr.strip()[-2000:]}"):
        picture = cv2.imread(png)
        check(picture is not None and picture.shape == (264, 720, 3),
              f"picture of {None if picture is None else picture.shape}, "
              "expected two half frames side by side, 720x264")
        if picture is not None:
            for n, tile in enumerate((picture[:, :360], picture[:, 360:])):
                green = np.all(tile == (0, 255, 0), axis=2).sum()
                white = np.all(tile == (255, 255, 255), axis=2).sum()
                print(f"  frame {(12, 49)[n]}: {green} green pixels, "
                      f"{white} white")
                check(green > 100, f"frame {(12, 49)[n]}: no track drawn")
            check(np.all(picture[:, 360:] == 255, axis=2).sum() > 100,
                  "frame 49 (a detection): no face drawn")
    mkv = os.path.join(tmp, "faces.mkv")
    run = run_example(example, [video, "--cascade", cascade, "--frames", "24",
                                "--output", mkv] + OPTIONS)
    if check(run.returncode == 0, f"--output MKV: exit {run.returncode}: "
             f"{run.stderr.strip()[-2000:]}"):
        pipeline = Gst.parse_launch(
            "filesrc name=file ! matroskademux ! vp8dec ! "
            "fakesink name=sink sync=false")
        pipeline.get_by_name("file").set_property("location", mkv)
        frames = [0]

        def count(pad, info):
            frames[0] += 1
            return Gst.PadProbeReturn.OK
        pipeline.get_by_name("sink").get_static_pad("sink").add_probe(
            Gst.PadProbeType.BUFFER, count)
        pipeline.set_state(Gst.State.PLAYING)
        msg = pipeline.get_bus().timed_pop_filtered(
            Gst.CLOCK_TIME_NONE, Gst.MessageType.EOS | Gst.MessageType.ERROR)
        pipeline.set_state(Gst.State.NULL)
        print(f"  video: {frames[0]} frames")
        check(msg.type == Gst.MessageType.EOS and frames[0] == 24,
              f"the video decodes to {frames[0]} frames, expected 24")


def check_refusals(example, video, tmp):
    print("(e) refusals")
    bad = os.path.join(tmp, "not-a-cascade.xml")
    with open(bad, "w") as f:
        f.write("<opencv_storage></opencv_storage>\n")
    for args, words in (([video, "--cascade", bad], "not an OpenCV cascade"),
                        ([os.path.join(tmp, "none.avi")], "no such file")):
        run = run_example(example, args, timeout=seconds(120))
        print(f"  {' '.join(os.path.basename(a) for a in args)}: exit "
              f"{run.returncode}: {run.stderr.strip().splitlines()[-1:]}")
        check(run.returncode != 0 and words in run.stderr,
              f"{args}: exit {run.returncode}, {run.stderr.strip()!r}; "
              f"expected a refusal saying {words!r}")


def main():
    if len(sys.argv) != 5:
        print(__doc__)
        return 2
    example, video, cascade, guide = sys.argv[1:]
    Gst.init(None)
    if Gst.ElementFactory.find("facedetect") is None:
        print("FAILED: no facedetect element: install GStreamer's OpenCV "
              "plugin (Debian: apt-get install gstreamer1.0-opencv; "
              "scripts/setup.sh installs it)")
        return 1
    for path in (video, cascade):
        if not os.path.isfile(path):
            print(f"FAILED: {path} is missing: scripts/fetch-samples.sh "
                  "fetches it (scripts/setup.sh runs it)")
            return 1
    shots, length = cuts(video)
    print(f"{video}: {length} frames, cuts at {shots}")
    check(len(shots) == 3, f"cuts at {shots}: Megamind.avi has three")

    check_switch(video, cascade)

    print("(b) --every 12, the whole clip, as the guide runs it")
    words, shown = guide_example(guide)
    check(words == ["--every", "12"] + OPTIONS, f"the guide runs "
          f"facetrack.py with {words}, this test with --every 12 {OPTIONS}")
    run = parsed(example, [video, "--cascade", cascade] + words, shown)
    if run:
        check(run.frames == length, f"{run.frames} frames, expected {length}")
        looks = schedule(run, 12)
        print(f"  looked at {len(run.detect)} frames: {sorted(run.detect)}")
        check(sorted(run.detect) == looks, f"looked at {sorted(run.detect)}"
              f", the schedule says {looks}")
        bounds = [1] + shots + [length]
        for a, b in zip(bounds, bounds[1:]):
            check(any(run.detect[f] for f in run.detect if a <= f < b),
                  f"frames {a} to {b - 1}: no face found")
        check_starts(run)
        worst = check_following(run, "every 12")
        print(f"  worst coverage {worst:.2f}")
        check_ends(run)
        lost = [f for f in run.ends for i in run.ends[f]
                if run.ends[f][i] == "lost"]
        print(f"  lost on frames {lost}, ended (no face) on "
              f"{[f for f in run.ends if 'stop' in run.ends[f].values()]}")
        check(lost, "no track was ever lost")
        check_shots(run, shots, 12)

    print("(c) --every 48, the first shot")
    run = parsed(example, [video, "--cascade", cascade, "--every", "48",
                           "--frames", str(shots[0] if shots else 98)]
                 + OPTIONS)
    if run:
        check_following(run, "every 48")
        last, moved = {}, []
        for f in sorted(run.starts):
            for i, (kind, face, old) in sorted(run.starts[f].items()):
                if kind == "redetect":
                    moved.append(coverage(face, last[i]))
                last[i] = face
        print("  the last detection's box holds "
              f"{[round(m, 2) for m in moved]} of the face found again")
        check(len(moved) >= 2 and min(moved) < COVERAGE,
              f"the faces did not move away from where they were found "
              f"({moved}): the run shows nothing of the tracking")

    with tempfile.TemporaryDirectory() as tmp:
        check_outputs(example, video, cascade, tmp)
        check_refusals(example, video, tmp)

    print("ok" if not PROBLEMS else f"FAILED: {len(PROBLEMS)} problems")
    return 0 if not PROBLEMS else 1


if __name__ == "__main__":
    sys.exit(main())
