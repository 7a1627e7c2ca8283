#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The trackers' golden reference (reference/clh-reference-track.c, through
tests/clh-track-oracle.c) against python3-opencv, bit for bit:

(a) back-projection: cv2.calcBackProject() of cv2.cvtColor(COLOR_RGB2HSV)
    channels, of RGB or of COLOR_RGB2GRAY, then `prob &= mask` with the
    CamShift sample's cv2.inRange() mask; I420 and NV12 frames through
    COLOR_YUV2RGB_I420 / _NV12 first (luma: the Y plane), GRAY8 frames
    through COLOR_GRAY2RGB (luma: the frame). Random, one-colour,
    gradient, odd-sized and vtest.avi frames; random, tie, negative, large
    and non-finite float32 models; several scales.
(b) the model of OpenCV's CamShift sample (samples/python/camshift.py):
    calcHist() of the window under the mask, then cv2.normalize(NORM_MINMAX)
    in place, compared as float32 bits.
(c) moments(), meanShift() and CamShift(): the sample's tracking loop on
    people of vtest.avi for 220 frames per track, the reference fed the same
    probability images; random images, windows leaving the image, a lost
    target, several tracks at once. With each CamShift() step, its mass:
    the m00 of cv2.moments() of the probability image in the window
    CamShift() fits the box in (cv2.meanShift()'s window widened by 10
    pixels each side within the image), exactly, and that window.

Usage: test_track_opencv.py CLH_TRACK_ORACLE. CLH_TEST_VIDEO names
vtest.avi (else data/vtest.avi). Exits 77 (skipped) without cv2."""
import os
import subprocess
import sys
import tempfile

try:
    import cv2
    import numpy as np
except ImportError as e:
    print(f"SKIP: python3-opencv is not installed ({e}); "
          "'apt-get install python3-opencv' runs this comparison")
    sys.exit(77)

ORACLE = None
SAMPLE_MASK = (60, 32, 255)      # camshift.py's inRange bounds
NO_MASK = (0, 0, 255)
# (mode, bins): at 26 and 132 hue bins cvFloor (h * (bins / 180.)) differs
# from the integer h * bins / 180 for some h.
CONFIGS = (("hue", 16), ("hue", 26), ("hue", 30), ("hue", 180),
           ("hue", 132), ("hue-saturation", 30), ("hue-saturation", 8),
           ("rgb", 8), ("rgb", 16), ("luma", 256), ("luma", 26), ("luma", 7))
AXES = {"hue": 1, "hue-saturation": 2, "rgb": 3, "luma": 1}
# Whether OpenCV's dispatcher runs its AVX2 build here (CV_CPU_AVX2 = 11),
# whose normalize() fuses the multiply-add as the reference does.
OPENCV_FUSES = cv2.checkHardwareSupport(11)


def oracle(args, data=b""):
    out = subprocess.run([ORACLE] + [str(a) for a in args], input=data,
                         stdout=subprocess.PIPE, check=True)
    return out.stdout


def frame_bytes(frame):
    """The packed planes the oracle reads, as OpenCV holds them: RGB or
    GRAY8 rows; I420's Y rows, then U and V, each W/2 x H/2; NV12's Y rows,
    then W/2 x H/2 UV pairs."""
    return np.ascontiguousarray(frame).tobytes()


def in_range_mask(hsv, bounds):
    smin, vmin, vmax = bounds
    return cv2.inRange(hsv, np.array((0., smin, vmin)),
                       np.array((180., 255., vmax)))


# (a) Back-projection


def opencv_backproject(rgb, mode, bins, model, scale, bounds, y_plane=None):
    hsv = cv2.cvtColor(rgb, cv2.COLOR_RGB2HSV)
    scale = float(np.float32(scale))
    if mode == "hue":
        prob = cv2.calcBackProject([hsv], [0], model, [0, 180], scale)
    elif mode == "hue-saturation":
        prob = cv2.calcBackProject([hsv], [0, 1], model.reshape(bins, bins),
                                   [0, 180, 0, 256], scale)
    elif mode == "rgb":
        # cv2 4.6 makes a 3-D array a 2-D Mat of bins channels, whose
        # back-projection ignores B; a 4th axis of 1 bin over the R channel
        # gives calcBackProject() a real bins x bins x bins (x 1) histogram.
        prob = cv2.calcBackProject([rgb], [0, 1, 2, 0],
                                   model.reshape(bins, bins, bins, 1),
                                   [0, 256] * 4, scale)
    else:
        gray = y_plane if y_plane is not None else \
            cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
        prob = cv2.calcBackProject([gray], [0], model, [0, 256], scale)
    prob &= in_range_mask(hsv, bounds)
    return prob


def model_of(kind, n, rng):
    """A float32 model and the scale it is used with."""
    if kind == "random":        # negative and > 255 entries, scale != 1
        return rng.uniform(-40, 400, n).astype(np.float32), 0.7
    if kind == "ties":          # k + 0.5 at scale 1: half to even
        return (rng.integers(-3, 258, n) + 0.5).astype(np.float32), 1.0
    if kind == "odd":           # odd integers at scale 0.5: ties again
        return (2 * rng.integers(-2, 300, n) + 1).astype(np.float32), 0.5
    # Non-finite, at and beyond the int32 conversion's range, near 255.5.
    special = np.array([np.nan, np.inf, -np.inf, 1e10, -1e10, 2.0 ** 31,
                        2147483520.0, 255.49998, 255.5, 256.5, -0.5, 0.5,
                        1.5, 3e9, -3e9, 254.5], np.float32)
    m = rng.uniform(0, 300, n).astype(np.float32)
    m[rng.integers(0, n, n // 2 + 1)] = special[rng.integers(0, len(special),
                                                             n // 2 + 1)]
    k = min(n, len(special))
    m[:k] = special[:k]
    return m, 3.0


class Tally:
    """Cases and values compared; the first differences, told at the end
    of the part, after its summary line."""

    def __init__(self):
        self.cases = self.values = self.differing = 0
        self.failures = []

    def add(self, label, got, want):
        self.cases += 1
        self.values += got.size
        bad = np.count_nonzero(got != want)
        if bad:
            self.differing += bad
            idx = np.argwhere(got != want)[:5]
            self.failures.append(f"{label}: {bad} of {got.size} differ, "
                                 f"first at {idx.tolist()}: "
                                 f"{got[tuple(idx.T)]} vs OpenCV "
                                 f"{want[tuple(idx.T)]}")

    def finish(self):
        if self.failures:
            raise AssertionError("\n".join(self.failures[:10]))


def check_backproject(tally, label, fmt, frame, rgb, mode, bins, kind, bounds,
                      rng):
    h, w = rgb.shape[:2]
    model, scale = model_of(kind, bins ** AXES[mode], rng)
    y_plane = frame[:h] if fmt != "RGB" else None
    want = opencv_backproject(rgb, mode, bins, model, scale, bounds, y_plane)
    out = oracle(["backproject", fmt, w, h, mode, bins, repr(scale)]
                 + list(bounds), frame_bytes(frame) + model.tobytes())
    got = np.frombuffer(out, np.uint8).reshape(h, w)
    tally.add(f"{label} {mode} {bins} bins, {kind} model, mask {bounds}",
              got, want)


def test_frames(rng):
    """(label, RGB frame) pairs: random, odd sizes, one colour, gradient."""
    frames = [("random 37x23", rng.integers(0, 256, (23, 37, 3), np.uint8)),
              ("random 64x48", rng.integers(0, 256, (48, 64, 3), np.uint8))]
    for colour in ((200, 30, 30), (0, 0, 0), (255, 255, 255), (10, 200, 190),
                   (0, 255, 255)):
        frames.append((f"one colour {colour} 17x9",
                       np.full((9, 17, 3), colour, np.uint8)))
    y, x = np.mgrid[0:64, 0:256]
    gradient = np.stack([x, (y * 4) % 256, (x + 3 * y) % 256], -1)
    frames.append(("gradient 256x64", gradient.astype(np.uint8)))
    return frames


def vtest_path():
    video = os.environ.get("CLH_TEST_VIDEO", "")
    if not os.path.exists(video):
        here = os.path.dirname(os.path.abspath(__file__))
        video = os.path.join(here, "..", "data", "vtest.avi")
    return video if os.path.exists(video) else None


def vtest_frames(video, indices):
    cap = cv2.VideoCapture(video)
    frames = []
    for n in range(max(indices) + 1):
        ok, bgr = cap.read()
        if not ok:
            break
        if n in indices:
            frames.append(bgr)
    return frames


def part_backproject(rng, vtest):
    tally = Tally()
    kinds = ("random", "ties", "odd", "special")
    for label, rgb in test_frames(rng):
        for mode, bins in CONFIGS:
            for kind in kinds:
                for bounds in (NO_MASK, SAMPLE_MASK, (30, 10, 200)):
                    check_backproject(tally, label, "RGB", rgb, rgb, mode,
                                      bins, kind, bounds, rng)
    # Grey frames: R = G = B = Y, OpenCV's GRAY2RGB, for the mask and hue.
    grey = [("random GRAY8 37x23", rng.integers(0, 256, (23, 37), np.uint8))]
    grey += [(f"vtest {n} GRAY8", cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY))
             for n, bgr in enumerate(vtest[:1])]
    for label, y in grey:
        rgb = cv2.cvtColor(y, cv2.COLOR_GRAY2RGB)
        for c, (mode, bins) in enumerate(CONFIGS):
            for bounds in (NO_MASK, (0, 32, 200)):
                check_backproject(tally, label, "GRAY8", y, rgb, mode, bins,
                                  kinds[c % 4], bounds, rng)
    w, h = 64, 48
    nv12 = rng.integers(0, 256, (h * 3 // 2, w), np.uint8)
    rgb = cv2.cvtColor(nv12, cv2.COLOR_YUV2RGB_NV12)
    for c, (mode, bins) in enumerate(CONFIGS):
        check_backproject(tally, "random NV12 64x48", "NV12", nv12, rgb,
                          mode, bins, kinds[c % 4], SAMPLE_MASK, rng)
    i420 = rng.integers(0, 256, (h * 3 // 2, w), np.uint8)
    i420_frames = [("random I420 64x48", i420)]
    for n, bgr in enumerate(vtest):
        rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
        for c, (mode, bins) in enumerate(CONFIGS):
            check_backproject(tally, f"vtest {n} RGB", "RGB", rgb,
                              rgb, mode, bins, kinds[(c + n) % 4],
                              SAMPLE_MASK if c % 2 else NO_MASK, rng)
        i420_frames.append((f"vtest {n} I420",
                            cv2.cvtColor(bgr, cv2.COLOR_BGR2YUV_I420)))
    for label, yuv in i420_frames:
        rgb = cv2.cvtColor(yuv, cv2.COLOR_YUV2RGB_I420)
        for c, (mode, bins) in enumerate(CONFIGS):
            for bounds in (NO_MASK, SAMPLE_MASK):
                check_backproject(tally, label, "I420", yuv, rgb, mode, bins,
                                  kinds[c % 4], bounds, rng)
    print(f"backproject: {tally.cases} cases, {tally.values} pixels "
          f"compared, {tally.differing} differing")
    tally.finish()


# (b) The CamShift sample's model


def clip(window, w, h):
    x, y, ww, hh = window
    x0, y0 = max(x, 0), max(y, 0)
    return x0, y0, max(min(x + ww, w) - x0, 0), max(min(y + hh, h) - y0, 0)


def opencv_model(rgb, mode, bins, window, bounds, y_plane=None):
    """camshift.py: calcHist of the window under the mask, normalised."""
    h, w = rgb.shape[:2]
    x0, y0, ww, hh = clip(window, w, h)
    hsv = cv2.cvtColor(rgb, cv2.COLOR_RGB2HSV)
    mask = in_range_mask(hsv, bounds)
    mask_roi = mask[y0:y0 + hh, x0:x0 + ww]
    if mode == "hue":
        hist = cv2.calcHist([hsv[y0:y0 + hh, x0:x0 + ww]], [0], mask_roi,
                            [bins], [0, 180])
    elif mode == "hue-saturation":
        hist = cv2.calcHist([hsv[y0:y0 + hh, x0:x0 + ww]], [0, 1], mask_roi,
                            [bins, bins], [0, 180, 0, 256])
    elif mode == "rgb":
        hist = cv2.calcHist([rgb[y0:y0 + hh, x0:x0 + ww]], [0, 1, 2],
                            mask_roi, [bins] * 3, [0, 256] * 3)
    else:
        gray = y_plane if y_plane is not None else \
            cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
        hist = cv2.calcHist([gray[y0:y0 + hh, x0:x0 + ww]], [0], mask_roi,
                            [bins], [0, 256])
    counts = hist.copy()
    cv2.normalize(hist, hist, 0, 255, cv2.NORM_MINMAX)
    return hist.reshape(-1), counts.reshape(-1)


def unfused(counts):
    """normalize()'s arithmetic with the product rounded before the add,
    as OpenCV's SSE2 build (a CPU without AVX2) computes it."""
    smin, smax = float(counts.min()), float(counts.max())
    scale = 255.0 * (1.0 / (smax - smin) if smax - smin > 2.2e-16 else 0.0)
    a = np.float32(scale)
    b = np.float32(0.0) - np.float32(smin * float(a))
    return (counts * a).astype(np.float32) + b


def check_model(tally, label, fmt, frame, rgb, mode, bins, window, bounds,
                stats):
    """The model as float32 bits. Where OpenCV runs without its AVX2 build
    (see normalize_minmax() in reference/clh-reference-track.c), models of
    min > 0 are only counted: OpenCV rounds the product there, the
    reference does not."""
    h, w = rgb.shape[:2]
    y_plane = frame[:h] if fmt != "RGB" else None
    want, counts = opencv_model(rgb, mode, bins, window, bounds, y_plane)
    out = oracle(["model", fmt, w, h, mode, bins] + list(bounds)
                 + list(window), frame_bytes(frame))
    got = np.frombuffer(out, np.float32)
    if counts.min() > 0 and not OPENCV_FUSES:
        stats["skipped"] += 1
    else:
        tally.add(f"{label} model {mode} {bins} bins, window {window}",
                  got.view(np.uint32), want.view(np.uint32))
    stats["unfused"] += np.count_nonzero(unfused(counts).view(np.uint32)
                                         != want.view(np.uint32))
    stats["shifted"] += counts.min() > 0


def part_model(rng, vtest):
    tally, stats = Tally(), {"unfused": 0, "shifted": 0, "skipped": 0}
    frames = test_frames(rng)
    for label, rgb in frames[:2] + frames[-1:]:
        h, w = rgb.shape[:2]
        windows = ((0, 0, w, h), (3, 2, w // 2, h // 2), (-5, -3, 20, 11),
                   (w - 7, h - 4, 30, 30))
        for mode, bins in CONFIGS:
            for window in windows:
                for bounds in (NO_MASK, SAMPLE_MASK):
                    check_model(tally, label, "RGB", rgb, rgb, mode, bins,
                                window, bounds, stats)
    y = rng.integers(0, 256, (23, 37), np.uint8)
    for window in ((0, 0, 37, 23), (5, 5, 10, 10)):
        check_model(tally, "random GRAY8 37x23", "GRAY8", y,
                    cv2.cvtColor(y, cv2.COLOR_GRAY2RGB), "luma", 16, window,
                    (0, 20, 230), stats)
    # A window of no pixels: calcHist has nothing to count, the model is 0.
    rgb = frames[0][1]
    got = np.frombuffer(oracle(["model", "RGB", 37, 23, "hue", 16]
                               + list(NO_MASK) + [40, 0, 5, 5],
                               rgb.tobytes()), np.float32)
    tally.add("window outside the frame", got, np.zeros(16, np.float32))
    people = ((250, 218, 36, 92), (498, 155, 34, 80), (638, 238, 48, 84),
              (600, 200, 200, 400))
    for n, bgr in enumerate(vtest):
        rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
        yuv = cv2.cvtColor(bgr, cv2.COLOR_BGR2YUV_I420)
        rgb_of_yuv = cv2.cvtColor(yuv, cv2.COLOR_YUV2RGB_I420)
        for mode, bins in CONFIGS:
            for window in people:
                check_model(tally, f"vtest {n}", "RGB", rgb, rgb, mode, bins,
                            window, SAMPLE_MASK, stats)
                check_model(tally, f"vtest {n} I420", "I420", yuv,
                            rgb_of_yuv, mode, bins, window, NO_MASK, stats)
    print(f"model: {tally.cases} cases, {tally.values} float32 values "
          f"compared, {tally.differing} differing ({stats['shifted']} "
          f"models with min > 0; an unfused multiply-add would differ in "
          f"{stats['unfused']} values)")
    if stats["skipped"]:
        print(f"model: OpenCV runs without AVX2 here: {stats['skipped']} "
              f"models of min > 0 not compared")
    tally.finish()


# (c) moments, meanShift, CamShift


def run_tracks(cmd, width, height, criteria, windows, probs_per_frame):
    """Runs the oracle's meanshift or camshift over frames of one image
    per track; returns its lines split into fields."""
    with tempfile.TemporaryFile() as out:
        frames = 0
        proc = subprocess.Popen(
            [ORACLE, cmd, str(width), str(height), str(criteria[1]),
             repr(float(criteria[2])), str(len(probs_per_frame))]
            + [",".join(map(str, w)) for w in windows],
            stdin=subprocess.PIPE, stdout=out)
        for probs in probs_per_frame:
            for p in probs:
                proc.stdin.write(np.ascontiguousarray(p, np.uint8).tobytes())
            frames += 1
        proc.stdin.close()
        assert proc.wait() == 0
        out.seek(0)
        return [line.split() for line in out.read().decode().splitlines()]


def iou(a, b):
    ax0, ay0, aw, ah = a
    bx0, by0, bw, bh = b
    iw = max(0, min(ax0 + aw, bx0 + bw) - max(ax0, bx0))
    ih = max(0, min(ay0 + ah, by0 + bh) - max(ay0, by0))
    inter = iw * ih
    return inter / float(aw * ah + bw * bh - inter)


class TrackTally(Tally):
    """Frames of tracks compared: windows, boxes, masses, IoU of the
    windows."""

    def __init__(self):
        super().__init__()
        self.frames = self.equal = self.boxes = self.lost = 0
        self.masses = 0
        self.ious = []

    def add(self, label, ref, cv_window, cv_box, cv_mass):
        window = tuple(int(v) for v in ref[2:6])
        found = ref[6] == "1"
        # Exact doubles: the box must hold float values, as RotatedRect.
        box = tuple(float(v) for v in ref[7:12])
        # m00 of 8-bit values is an integer sum, exact in OpenCV's double.
        mass = (float(int(ref[12])), tuple(int(v) for v in ref[13:17]))
        (cx, cy), (bw, bh), angle = cv_box
        want = tuple(float(v) for v in (cx, cy, bw, bh, angle))
        self.frames += 1
        self.ious.append(iou(window, cv_window))
        if window == tuple(cv_window):
            self.equal += 1
        if box == want:
            self.boxes += 1
        if mass == cv_mass:
            self.masses += 1
        if not found:
            self.lost += 1
        if window != tuple(cv_window) or box != want or \
                (not found and want != (0,) * 5) or mass != cv_mass or \
                found != (cv_mass[0] != 0):
            self.failures.append(f"{label}: window {window} box {box} mass "
                                 f"{mass}, OpenCV {tuple(cv_window)} {want} "
                                 f"{cv_mass}")

    def summary(self, what):
        ious = np.array(self.ious)
        return (f"{what}: {self.frames} frames, windows equal in "
                f"{self.equal}, boxes (5 float32 fields) equal in "
                f"{self.boxes}, masses (m00 and window) equal in "
                f"{self.masses}, {len(self.failures)} differing; IoU "
                f"min {ious.min():.3f} mean {ious.mean():.3f}; "
                f"{self.lost} frames with nothing in the window")


def opencv_mass(prob, window, crit):
    """cv::CamShift()'s m00 and the window it takes it in, with OpenCV's
    own functions: cv2.meanShift() from @window, that window widened by
    TOLERANCE (10) each side as camshift.cpp widens it (the corner kept in
    the image, the far sides cut at its edges), cv2.moments() there."""
    h, w = prob.shape
    _, (x, y, ww, hh) = cv2.meanShift(prob, tuple(window), crit)
    x, y = max(x - 10, 0), max(y - 10, 0)
    ww, hh = min(ww + 20, w - x), min(hh + 20, h - y)
    return cv2.moments(prob[y:y + hh, x:x + ww])["m00"], (x, y, ww, hh)


EPS_COUNT = cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT
CRITERIA = (EPS_COUNT, 10, 1)     # camshift.py's term_crit


def sample_model(bgr, window, bins=16):
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
    mask = in_range_mask(hsv, SAMPLE_MASK)
    x, y, w, h = window
    hist = cv2.calcHist([hsv[y:y + h, x:x + w]], [0], mask[y:y + h, x:x + w],
                        [bins], [0, 180])
    cv2.normalize(hist, hist, 0, 255, cv2.NORM_MINMAX)
    return hist.reshape(-1)


class VtestGroup:
    """Tracks started on one frame of vtest.avi: OpenCV's loop here, the
    reference's in an oracle process fed the same prob images."""

    def __init__(self, bgr, windows, length):
        self.hists = [sample_model(bgr, w) for w in windows]
        for w, hist in zip(windows, self.hists):
            assert hist.max() > 0, f"degenerate model at {w}"
        self.windows, self.cv_windows = windows, list(windows)
        self.length, self.results = length, []
        self.out = tempfile.TemporaryFile()
        h, w = bgr.shape[:2]
        self.proc = subprocess.Popen(
            [ORACLE, "camshift", str(w), str(h), str(CRITERIA[1]),
             repr(float(CRITERIA[2])), str(length)]
            + [",".join(map(str, w)) for w in windows],
            stdin=subprocess.PIPE, stdout=self.out)

    def step(self, bgr):
        hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
        mask = in_range_mask(hsv, SAMPLE_MASK)
        row = []
        for t, hist in enumerate(self.hists):
            prob = cv2.calcBackProject([hsv], [0], hist, [0, 180], 1)
            prob &= mask
            mass = opencv_mass(prob, self.cv_windows[t], CRITERIA)
            box, self.cv_windows[t] = cv2.CamShift(prob, self.cv_windows[t],
                                                   CRITERIA)
            self.proc.stdin.write(prob.tobytes())
            row.append((tuple(self.cv_windows[t]), box, mass))
        self.results.append(row)
        return len(self.results) == self.length

    def check(self, tally, start):
        self.proc.stdin.close()
        assert self.proc.wait() == 0
        self.out.seek(0)
        lines = iter(line.split() for line in
                     self.out.read().decode().splitlines())
        for f, row in enumerate(self.results):
            for t, (cv_window, box, mass) in enumerate(row):
                tally.add(f"vtest frame {start + 1 + f} track {t}",
                          next(lines), cv_window, box, mass)
        self.out.close()
        return [len({r[t][0] for r in self.results})
                for t in range(len(self.windows))]


def part_vtest(video):
    """camshift.py's loop from windows on people, 220 frames each."""
    starts = {0: ((250, 218, 36, 92), (498, 155, 34, 80),
                  (638, 238, 48, 84)),
              200: ((615, 265, 36, 104), (676, 96, 26, 60))}
    length = 220
    tally, groups, moved = TrackTally(), {}, []
    cap = cv2.VideoCapture(video)
    n = 0
    while starts or groups:
        ok, bgr = cap.read()
        assert ok, f"{video} ended at frame {n}"
        for start in list(groups):
            if groups[start].step(bgr):
                moved += groups.pop(start).check(tally, start)
        if n in starts:
            groups[n] = VtestGroup(bgr, starts.pop(n), length)
        n += 1
    print(tally.summary(f"camshift vtest {len(moved)} tracks x {length} "
                        f"frames ({min(moved)}..{max(moved)} distinct "
                        f"windows per track)"))
    tally.finish()


def blob(w, h, cx, cy, sx, sy, peak, rng, noise=0):
    y, x = np.mgrid[0:h, 0:w]
    img = peak * np.exp(-((x - cx) ** 2 / (2 * sx * sx)
                          + (y - cy) ** 2 / (2 * sy * sy)))
    if noise:
        img += rng.uniform(0, noise, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def check_moments(tally, img, window):
    """moments() of a window: raw and OpenCV's central moments, exactly."""
    h, w = img.shape
    x, y, ww, hh = window
    m = cv2.moments(img[y:y + hh, x:x + ww])
    ref = oracle(["moments", w, h, x, y, ww, hh], img.tobytes()).split()
    want = [m[k] for k in ("m00", "m10", "m01", "m20", "m11", "m02", "mu20",
                           "mu11", "mu02")]
    tally.add(f"moments of {window}", np.array([float(v) for v in ref]),
              np.array(want))


def sparse_cases(w, h, n, rng):
    """Windows, each with 1 to 4 equal pixels in its part of the image: the
    centroid's small denominators make the steps and centres ties, which
    cvRound rounds half to even."""
    windows, probs = [], []
    for _ in range(n):
        x, y = int(rng.integers(-15, w - 1)), int(rng.integers(-15, h - 1))
        ww, hh = int(rng.integers(1, 40)), int(rng.integers(1, 40))
        x0, y0, cw, ch = clip((x, y, ww, hh), w, h)
        if cw == 0 or ch == 0:
            x0, y0, cw, ch = 0, 0, w, h
        img = np.zeros((h, w), np.uint8)
        k = int(rng.integers(1, 5))
        img[rng.integers(y0, y0 + ch, k), rng.integers(x0, x0 + cw, k)] = \
            rng.integers(1, 256)
        windows.append((x, y, ww, hh))
        probs.append(img)
    return windows, probs


def part_random(rng):
    w, h = 97, 71
    # moments(): raw and OpenCV's central moments, exactly.
    tally = Tally()
    for _ in range(60):
        img = rng.integers(0, 256, (h, w), np.uint8)
        if rng.random() < 0.3:
            img[img < 200] = 0
        x, y = int(rng.integers(0, w - 1)), int(rng.integers(0, h - 1))
        ww = int(rng.integers(1, w - x + 1))
        hh = int(rng.integers(1, h - y + 1))
        check_moments(tally, img, (x, y, ww, hh))
    # Whole frames of 255 and of noise: many tiles, sums near 2^45.
    big = np.full((576, 768), 255, np.uint8)
    check_moments(tally, big, (0, 0, 768, 576))
    big[:] = rng.integers(0, 256, big.shape, np.uint8)
    check_moments(tally, big, (1, 2, 767, 574))
    print(f"moments: {tally.cases} windows, {tally.values} values compared, "
          f"{tally.differing} differing")
    tally.finish()

    # meanShift(): iterations and window, from windows in, across and out
    # of the image, under several criteria.
    tally, iters = Tally(), []
    criterias = ((EPS_COUNT, 10, 1), (EPS_COUNT, 1, 1), (EPS_COUNT, 10, 0),
                 (EPS_COUNT, 7, 2.5), (EPS_COUNT, 30, 0.7),
                 (EPS_COUNT, 20, 1e10))
    for crit in criterias:
        windows = [(int(rng.integers(-30, w)), int(rng.integers(-30, h)),
                    int(rng.integers(1, 60)), int(rng.integers(1, 60)))
                   for _ in range(6)] + [(-50, -50, 10, 10), (200, 5, 9, 9),
                                         (-10, -10, 200, 200)]
        probs = [[blob(w, h, rng.uniform(-10, w + 10),
                       rng.uniform(-10, h + 10), rng.uniform(2, 15),
                       rng.uniform(2, 15), 255, rng,
                       noise=rng.choice([0, 40]))
                  for _ in windows] for _ in range(4)]
        cv_windows = list(windows)
        expected = []
        for frame in probs:
            row = []
            for t, prob in enumerate(frame):
                n, cv_windows[t] = cv2.meanShift(prob, cv_windows[t], crit)
                row.append((n, tuple(cv_windows[t])))
            expected.append(row)
        lines = run_tracks("meanshift", w, h, crit, windows, probs)
        for f, row in enumerate(expected):
            for t, (n, win) in enumerate(row):
                ref = lines[f * len(windows) + t]
                tally.add(f"meanShift {crit} frame {f} track {t}",
                          np.array([int(v) for v in ref[2:7]]),
                          np.array((n,) + win))
                iters.append(n)
    windows, probs = sparse_cases(w, h, 80, rng)
    lines = run_tracks("meanshift", w, h, CRITERIA, windows, [probs])
    for t, (win, prob) in enumerate(zip(windows, probs)):
        n, cv_win = cv2.meanShift(prob, win, CRITERIA)
        tally.add(f"meanShift of sparse image {t} from {win}",
                  np.array([int(v) for v in lines[t][2:7]]),
                  np.array((n,) + tuple(cv_win)))
        iters.append(n)
    print(f"meanshift: {tally.cases} searches, {tally.values} values "
          f"(iterations, window) compared, {tally.differing} differing "
          f"(iterations {min(iters)}..{max(iters)})")
    tally.finish()

    # CamShift(): blobs drifting out of the image and back, a target that
    # vanishes (prob all 0) and comes back, several tracks at once.
    tally = TrackTally()
    n_frames = 60
    tracks = ((20, 20, 15, 15), (60, 40, 20, 12), (-5, 50, 12, 30),
              (80, -4, 30, 30))
    paths = [(rng.uniform(-1.5, 1.5), rng.uniform(-1.5, 1.5)) for _ in tracks]
    probs = []
    for f in range(n_frames):
        frame = []
        for t, (win, (vx, vy)) in enumerate(zip(tracks, paths)):
            if t == 1 and 20 <= f < 30:
                frame.append(np.zeros((h, w), np.uint8))
                continue
            cx = win[0] + win[2] / 2 + vx * f * 2
            cy = win[1] + win[3] / 2 + vy * f * 2
            frame.append(blob(w, h, cx, cy, 4 + t, 3 + 2 * t,
                              rng.uniform(60, 255), rng, noise=30 * (t % 2)))
        probs.append(frame)
    for crit in ((EPS_COUNT, 10, 1), (EPS_COUNT, 1, 0)):
        cv_windows = list(tracks)
        expected = []
        for frame in probs:
            row = []
            for t, prob in enumerate(frame):
                mass = opencv_mass(prob, cv_windows[t], crit)
                box, cv_windows[t] = cv2.CamShift(prob, cv_windows[t], crit)
                row.append((tuple(cv_windows[t]), box, mass))
            expected.append(row)
        lines = run_tracks("camshift", w, h, crit, tracks, probs)
        for f, row in enumerate(expected):
            for t, (win, box, mass) in enumerate(row):
                tally.add(f"random CamShift {crit} frame {f} track {t}",
                          lines[f * len(tracks) + t], win, box, mass)
    # Single random images: uniform noise, sparse points, from any window.
    windows = [(int(rng.integers(-20, w)), int(rng.integers(-20, h)),
                int(rng.integers(1, 50)), int(rng.integers(1, 50)))
               for _ in range(40)]
    probs = []
    for _ in windows:
        img = rng.integers(0, 256, (h, w), np.uint8)
        img[rng.random((h, w)) < rng.random()] = 0
        probs.append(img)
    sparse_windows, sparse_probs = sparse_cases(w, h, 80, rng)
    windows += sparse_windows
    probs += sparse_probs
    lines = run_tracks("camshift", w, h, CRITERIA, windows, [probs])
    for t, (win, prob) in enumerate(zip(windows, probs)):
        mass = opencv_mass(prob, win, CRITERIA)
        box, cv_win = cv2.CamShift(prob, win, CRITERIA)
        tally.add(f"random image {t} from {win}", lines[t], cv_win, box,
                  mass)
    print(tally.summary(f"camshift random ({len(tracks)} tracks x "
                        f"{n_frames} frames x 2 criteria, {len(windows)} "
                        f"single images, {len(sparse_windows)} of them "
                        f"sparse)"))
    tally.finish()


def main():
    global ORACLE
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    ORACLE = sys.argv[1]
    rng = np.random.default_rng(20261124)
    video = vtest_path()
    if not video:
        print("no vtest.avi: CLH_TEST_VIDEO or data/vtest.avi "
              "(scripts/fetch-samples.sh); its parts are left out")
    vtest = vtest_frames(video, (0, 150, 300)) if video else []
    part_backproject(rng, vtest)
    part_model(rng, vtest)
    part_random(rng)
    if video:
        part_vtest(video)
    return 0


if __name__ == "__main__":
    sys.exit(main())
