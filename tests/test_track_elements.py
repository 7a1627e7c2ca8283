#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""clbackproject and clcamshift in real pipelines against python3-opencv
(and, for YUV formats, the golden reference through clh-track-oracle):

(a) clbackproject (appsrc ! clbackproject ! appsink), bit for bit:
    cv2.calcBackProject() of cv2.COLOR_BGR2HSV channels, of RGB or of
    COLOR_BGR2GRAY, then `prob &= mask` with the CamShift sample's
    cv2.inRange() mask, on every RGB-family format the sink template lists
    (the frame repacked into that layout here) and, for YUV formats, the
    oracle's answer on the same samples, with OpenCV's own YUV->BGR on top
    where OpenCV has the layout (I420, YV12, NV12, NV21, YUY2, UYVY, YVYU);
    the same samples repacked into each format of one chroma subsampling
    give the same output. Modes hue (16, 26, 180 bins), hue-saturation
    (30), rgb (8), luma (256, 13); scales 1, 2.5, 0.7; models with negative,
    tie, huge and out-of-float-range values; random, one-value and gradient
    frames of 37x23, 1x1, 64x48 and 641x479, and 30 frames of vtest.avi,
    pushed here and straight from filesrc ! decodebin (I420; through
    videoconvert, NV12 and BGRx);
    every format again with padded GstVideoMeta planes (strides and plane
    gaps above the minimum, garbage in the padding), and in buffers of any
    size (not a whole number of the caps' frame size, or smaller than it,
    rows packed tight); each output is one GRAY8 frame. The model, scale,
    mode, bins and mask are set while PLAYING before every frame, and an
    explicit check shows the next frame follows a new model and scale; no
    model gives zeros and a warning, a model of the wrong length an error.
(b) clcamshift against OpenCV's CamShift sample loop (samples/python/
    camshift.py: inRange mask (0, 60, 32)..(180, 255, 255), 16-bin hue model
    of the first window, normalize NORM_MINMAX, then calcBackProject,
    prob &= mask, CamShift (EPS | COUNT, 10, 1) on every frame, the first
    included) frame by frame on vtest.avi: the `camshift` messages and the
    `camshift` ROI metas of every output buffer, windows equal and boxes
    equal at float precision (IoU per track printed), each track's m00
    equal to cv2.moments() of the probability image in the window
    CamShift() takes its moments in (cv2.meanShift()'s, widened by 10
    pixels a side) and its mean probability, confidence and `lost` as the
    element documents them (min-mass 0.1, lost-frames 5: a lost track's
    window stays; the loop stops calling CamShift for it); the results'
    ROI metas come before upstream's, so that
    GstVideo.buffer_get_video_region_of_interest_meta_id() returns the
    result on a track's first frame too: three pedestrians as
    three runs of the `window` property, the same three as one run of
    upstream `track` ROI metas (with a `face` meta to ignore, a track
    restarted and one started mid-stream), a run on the decoder's own I420
    (filesrc ! decodebin), bins, mask and window changed while PLAYING
    (models made again), `track-type` on frames of padded rows, windows
    partly and wholly outside the frame and larger than it, a window with
    nothing of the mask in it (an empty box, the window growing as OpenCV's
    does until it is lost on its fifth frame, then frozen) and an ROI meta
    of no pixels (a lost track, reported every frame with an empty box). Every frame of vtest.avi unless CLH_TRACK_FRAMES
    says fewer.

Usage: test_track_elements.py CLH_TRACK_ORACLE. CLH_TEST_VIDEO names
vtest.avi (else data/vtest.avi). Exits 77 (skipped) without cv2, numpy or
GStreamer's Python bindings."""
import ctypes
import os
import re
import subprocess
import sys
import time
from timeouts import seconds

try:
    import cv2
    import numpy as np
except ImportError as e:
    print(f"SKIP: python3-opencv is not installed ({e}); "
          "'apt-get install python3-opencv' runs this comparison")
    sys.exit(77)
try:
    import gi

    gi.require_version("Gst", "1.0")
    gi.require_version("GstVideo", "1.0")
    from gi.repository import GLib, Gst, GstVideo  # noqa: E402
except (ImportError, ValueError) as e:
    print(f"SKIP: GStreamer's Python bindings are missing ({e})")
    sys.exit(77)

ORACLE = None
NO_MASK = (0, 0, 255)
SAMPLE_MASK = (60, 32, 255)       # camshift.py's inRange bounds
MASKS = (NO_MASK, SAMPLE_MASK, (30, 10, 200))
CONFIGS = (("hue", 16), ("hue", 26), ("hue", 180), ("hue-saturation", 30),
           ("rgb", 8), ("luma", 256), ("luma", 13))
AXES = {"hue": 1, "hue-saturation": 2, "rgb": 3, "luma": 1}
SCALES = (1.0, 2.5, 0.7)
MODEL_KINDS = ("random", "ties", "special")
PULL_TIMEOUT = int(seconds(20) * Gst.SECOND)

# Where each 8-bit format keeps its samples, written out here (not taken
# from GStreamer's tables, whose VYUY entry is wrong in 1.22): RGB-family
# formats spell their byte order; YUV formats give the chroma subsampling
# (log2 horizontal, vertical) and for Y, U, V (plane, byte offset, bytes
# from one sample to the next).
RGB_FORMATS = ("RGB", "BGR", "RGBA", "BGRA", "ARGB", "ABGR", "RGBx", "BGRx",
               "xRGB", "xBGR")
PLANAR = ((0, 0, 1), (1, 0, 1), (2, 0, 1))
PLANAR_VU = ((0, 0, 1), (2, 0, 1), (1, 0, 1))
SEMI_UV = ((0, 0, 1), (1, 0, 2), (1, 1, 2))
SEMI_VU = ((0, 0, 1), (1, 1, 2), (1, 0, 2))
YUV_FORMATS = {
    "I420": ((1, 1), PLANAR), "YV12": ((1, 1), PLANAR_VU),
    "NV12": ((1, 1), SEMI_UV), "NV21": ((1, 1), SEMI_VU),
    "Y42B": ((1, 0), PLANAR), "NV16": ((1, 0), SEMI_UV),
    "NV61": ((1, 0), SEMI_VU),
    "YUY2": ((1, 0), ((0, 0, 2), (0, 1, 4), (0, 3, 4))),
    "UYVY": ((1, 0), ((0, 1, 2), (0, 0, 4), (0, 2, 4))),
    "YVYU": ((1, 0), ((0, 0, 2), (0, 3, 4), (0, 1, 4))),
    "VYUY": ((1, 0), ((0, 1, 2), (0, 2, 4), (0, 0, 4))),
    "Y444": ((0, 0), PLANAR), "NV24": ((0, 0), SEMI_UV),
    "Y41B": ((2, 0), PLANAR),
    "YUV9": ((2, 2), PLANAR), "YVU9": ((2, 2), PLANAR_VU),
}
# OpenCV's own conversions of some layouts to BGR (even sizes only).
OPENCV_YUV = {"I420": cv2.COLOR_YUV2BGR_I420, "YV12": cv2.COLOR_YUV2BGR_YV12,
              "NV12": cv2.COLOR_YUV2BGR_NV12, "NV21": cv2.COLOR_YUV2BGR_NV21,
              "YUY2": cv2.COLOR_YUV2BGR_YUY2, "UYVY": cv2.COLOR_YUV2BGR_UYVY,
              "YVYU": cv2.COLOR_YUV2BGR_YVYU}


def sub_size(n, shift):
    return -(-n >> shift)


def components(fmt):
    """(plane, offset, pixel stride, w_sub, h_sub) of R, G, B (, A) or of
    Y, U, V."""
    if fmt in RGB_FORMATS:
        return [(0, fmt.index(c), len(fmt), 0, 0)
                for c in "RGBA" if c in fmt]
    (ws, hs), comps = YUV_FORMATS[fmt]
    return [(p, o, s, 0 if c == 0 else ws, 0 if c == 0 else hs)
            for c, (p, o, s) in enumerate(comps)]


def pack(fmt, w, h, samples, rng):
    """The planes of @fmt holding @samples (R, G, B[, A] or Y, U, V, each
    at its component's size), each row as long as its samples need (the
    oracle's packing); bytes no component uses are random."""
    comps = components(fmt)
    planes = []
    for p in range(max(c[0] for c in comps) + 1):
        mine = [(c, s) for c, s in zip(comps, samples) if c[0] == p]
        rows = sub_size(h, mine[0][0][4])
        row_bytes = max(o + ps * (sub_size(w, ws) - 1) + 1
                        for (_, o, ps, ws, _), _ in mine)
        plane = rng.integers(0, 256, (rows, row_bytes), np.uint8)
        for (_, o, ps, ws, hs), s in mine:
            cw = sub_size(w, ws)
            assert s.shape == (rows, cw), (fmt, s.shape, rows, cw)
            plane[:, o:o + ps * (cw - 1) + 1:ps] = s
        planes.append(plane)
    return planes


def rgb_samples(bgr, rng):
    h, w = bgr.shape[:2]
    return [bgr[..., 2], bgr[..., 1], bgr[..., 0],
            rng.integers(0, 256, (h, w), np.uint8)]


def to_buffer(fmt, w, h, planes, rng, padded=False, any_size=False):
    """A GstBuffer of @planes: GStreamer's default layout for the caps, or
    (padded) planes of larger strides at offsets with gaps, described by a
    GstVideoMeta; padding and gaps hold random bytes. A padded buffer's
    size is a whole number of the caps' frame size unless @any_size."""
    info = GstVideo.VideoInfo.new()
    assert info.set_format(GstVideo.VideoFormat.from_string(fmt), w, h)
    if not padded:
        offsets, strides, size = list(info.offset), list(info.stride), \
            info.size
    else:
        offsets, strides, cursor = [], [], 5
        for p, plane in enumerate(planes):
            offsets.append(cursor)
            strides.append(plane.shape[1] + 7 + 16 * p + (w % 3))
            cursor += strides[-1] * plane.shape[0] + 13
        size = cursor if any_size else -(-cursor // info.size) * info.size
    data = rng.integers(0, 256, size, np.uint8)
    for p, plane in enumerate(planes):
        rows, row_bytes = plane.shape
        assert row_bytes <= strides[p], (fmt, p, row_bytes, strides[p])
        end = offsets[p] + strides[p] * rows
        assert end <= size
        data[offsets[p]:end].reshape(rows, strides[p])[:, :row_bytes] = plane
    buf = Gst.Buffer.new_wrapped(data.tobytes())
    if padded:
        n = len(planes)
        GstVideo.buffer_add_video_meta_full(
            buf, GstVideo.VideoFrameFlags.NONE,
            GstVideo.VideoFormat.from_string(fmt), w, h, n,
            offsets + [0] * (4 - n), strides + [0] * (4 - n))
    return buf


def make_model(kind, n, rng):
    """The model as doubles for the property, and as float32 (OpenCV's
    histogram, which the element is documented to hold)."""
    if kind == "random":        # negative, above 255, not floats
        m = rng.uniform(-40, 400, n)
    elif kind == "ties":        # k + 0.5: half to even at scale 1
        m = rng.integers(-3, 258, n) + 0.5
    else:                       # near the ends of uchar, int32 and float
        special = np.array([1e300, -1e300, 3.4e38, 1e10, -1e10, 2.0 ** 31,
                            2147483520.0, 255.49998, 255.5, 256.5, -0.5, 0.5,
                            1.5, 3e9, -3e9, 254.5, 0.0, 1e-30])
        m = rng.uniform(0, 300, n)
        idx = rng.integers(0, n, n // 2 + 1)
        m[idx] = special[rng.integers(0, len(special), len(idx))]
        k = min(n, len(special))
        m[:k] = special[rng.permutation(len(special))[:k]]
    with np.errstate(over="ignore"):
        return [float(v) for v in m], m.astype(np.float32)


def in_range_mask(hsv, bounds):
    smin, vmin, vmax = bounds
    return cv2.inRange(hsv, np.array((0., smin, vmin)),
                       np.array((180., 255., vmax)))


def opencv_backproject(bgr, mode, bins, model, scale, bounds, gray=None):
    """calcBackProject() as the element's contract says, then the mask."""
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
    if mode == "hue":
        prob = cv2.calcBackProject([hsv], [0], model, [0, 180], scale)
    elif mode == "hue-saturation":
        prob = cv2.calcBackProject([hsv], [0, 1], model.reshape(bins, bins),
                                   [0, 180, 0, 256], scale)
    elif mode == "rgb":
        # R-major R x G x B; a 4th axis of one bin, as cv2 4.6 would take a
        # 3-D array for a 2-D Mat of `bins` channels.
        rgb = np.ascontiguousarray(bgr[..., ::-1])
        prob = cv2.calcBackProject([rgb], [0, 1, 2, 0],
                                   model.reshape(bins, bins, bins, 1),
                                   [0, 256] * 4, scale)
    else:
        if gray is None:
            gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
        prob = cv2.calcBackProject([gray], [0], model, [0, 256], scale)
    prob &= in_range_mask(hsv, bounds)
    return prob


def oracle_backproject(fmt, w, h, planes, mode, bins, model, scale, bounds):
    out = subprocess.run(
        [ORACLE, "backproject", fmt, str(w), str(h), mode, str(bins),
         repr(scale)] + [str(b) for b in bounds],
        input=b"".join(p.tobytes() for p in planes) + model.tobytes(),
        stdout=subprocess.PIPE, check=True).stdout
    return np.frombuffer(out, np.uint8).reshape(h, w)


class Tally:
    """Comparisons made and the first differences, told at the end."""

    def __init__(self, what):
        self.what, self.cases, self.values = what, 0, 0
        self.failures, self.groups = [], {}

    def image(self, label, got, want):
        self.cases += 1
        self.values += want.size
        if got.shape != want.shape:
            self.failures.append(f"{label}: shape {got.shape}, expected "
                                 f"{want.shape}")
            return
        bad = np.argwhere(got != want)
        if len(bad):
            idx = tuple(bad[:5].T)
            self.failures.append(
                f"{label}: {len(bad)} of {want.size} pixels differ, first "
                f"at (row, col) {bad[:5].tolist()}: got {got[idx].tolist()}"
                f", expected {want[idx].tolist()}")

    def fail(self, label):
        self.failures.append(label)

    def fail_group(self, kind, label):
        """A failure of a kind that repeats: told once, with a count."""
        if kind not in self.groups:
            self.groups[kind] = [0, label]
        self.groups[kind][0] += 1

    def report(self, extra=""):
        bad = len(self.failures) + sum(n for n, _ in self.groups.values())
        print(f"{self.what}: {self.cases} cases, {self.values} values "
              f"compared, {bad} differing{extra}")
        for f in self.failures[:25]:
            print(f"  DIFFERS {f}")
        if len(self.failures) > 25:
            print(f"  ... and {len(self.failures) - 25} more")
        for kind, (n, first) in self.groups.items():
            print(f"  DIFFERS {kind} in {n} cases, the first: {first}")
        return not bad


class Pipeline:
    """appsrc ! ELEMENT ! appsink, one frame at a time."""

    def __init__(self, fmt, w, h, element, name):
        self.pipeline = Gst.parse_launch(
            f"appsrc name=src format=time ! {element} name=elt ! "
            f"appsink name=sink sync=false")
        self.src = self.pipeline.get_by_name("src")
        self.src.set_property("caps", Gst.Caps.from_string(
            f"video/x-raw,format={fmt},width={w},height={h},"
            f"framerate=10/1"))
        self.elt = self.pipeline.get_by_name("elt")
        self.sink = self.pipeline.get_by_name("sink")
        self.bus = self.pipeline.get_bus()
        self.name, self.n, self.w, self.h = name, 0, w, h
        self.messages = []
        ret = self.pipeline.set_state(Gst.State.PLAYING)
        assert ret != Gst.StateChangeReturn.FAILURE, f"{name}: cannot play"

    def push(self, buf):
        """Pushes one frame; returns its output buffer, or None after
        an error (in self.messages)."""
        buf.pts = self.n * 100 * Gst.MSECOND
        buf.duration = 100 * Gst.MSECOND
        self.n += 1
        assert self.src.emit("push-buffer", buf) == Gst.FlowReturn.OK
        deadline = time.monotonic() + PULL_TIMEOUT / Gst.SECOND
        while True:
            sample = self.sink.emit("try-pull-sample", 20 * Gst.MSECOND)
            self.poll()
            if sample:
                return sample.get_buffer()
            if any(m.type == Gst.MessageType.ERROR for m in self.messages) \
                    or time.monotonic() > deadline:
                return None

    def poll(self):
        while True:
            msg = self.bus.pop_filtered(Gst.MessageType.ELEMENT
                                        | Gst.MessageType.ERROR
                                        | Gst.MessageType.WARNING)
            if msg is None:
                return
            self.messages.append(msg)

    def errors(self, kind=Gst.MessageType.ERROR):
        self.poll()
        out = []
        for m in self.messages:
            if m.type == kind:
                err, dbg = (m.parse_error() if kind == Gst.MessageType.ERROR
                            else m.parse_warning())
                out.append(err.message)
        return out

    def stop(self):
        self.pipeline.set_state(Gst.State.NULL)


def gray8_size_problem(buf, w, h):
    """What is wrong with the size of a GRAY8 output buffer, or None."""
    info = GstVideo.VideoInfo.new()
    info.set_format(GstVideo.VideoFormat.GRAY8, w, h)
    if GstVideo.buffer_get_video_meta(buf) is None and \
            buf.get_size() != info.size:
        return (f"the output buffer has {buf.get_size()} bytes and no "
                f"GstVideoMeta; a {w}x{h} GRAY8 frame has {info.size}")
    return None


def gray8_of(buf, w, h):
    meta = GstVideo.buffer_get_video_meta(buf)
    if meta:
        offset, stride = meta.offset[0], meta.stride[0]
    else:
        info = GstVideo.VideoInfo.new()
        info.set_format(GstVideo.VideoFormat.GRAY8, w, h)
        offset, stride = info.offset[0], info.stride[0]
    ok, mapinfo = buf.map(Gst.MapFlags.READ)
    assert ok
    data = np.frombuffer(mapinfo.data, np.uint8)
    rows = np.stack([data[offset + r * stride:offset + r * stride + w]
                     for r in range(h)]).copy()
    buf.unmap(mapinfo)
    return rows


class Backprojector:
    """One clbackproject pipeline per format, size and layout; properties
    set before each frame, while PLAYING."""

    def __init__(self, tally, fmt, w, h, padded=False):
        self.tally, self.fmt, self.w, self.h = tally, fmt, w, h
        self.padded = padded
        self.pipe = Pipeline(fmt, w, h, "clbackproject",
                             f"clbackproject {fmt} {w}x{h}")

    def run(self, buf, mode, bins, model, scale, bounds, label):
        """The output image; None after telling the tally why there is
        none."""
        elt = self.pipe.elt
        elt.set_property("mode", mode)
        elt.set_property("bins", bins)
        elt.set_property("model", Gst.ValueArray(model))
        elt.set_property("scale", scale)
        elt.set_property("min-saturation", bounds[0])
        elt.set_property("min-value", bounds[1])
        elt.set_property("max-value", bounds[2])
        out = self.pipe.push(buf)
        if out is None:
            # A pipeline that failed cannot go on: a fresh one for the
            # next frame.
            self.tally.cases += 1
            self.tally.fail(
                f"{label}: no output; bus errors {self.pipe.errors()}, "
                f"warnings {self.pipe.errors(Gst.MessageType.WARNING)}")
            self.pipe.stop()
            self.pipe = Pipeline(self.fmt, self.w, self.h, "clbackproject",
                                 self.pipe.name)
            return None
        problem = gray8_size_problem(out, self.w, self.h)
        if problem:
            self.tally.fail_group("output buffer of the wrong size",
                                  f"{label}: {problem}")
        return gray8_of(out, self.w, self.h)

    def check(self, label, buf_of, mode, bins, kind, scale, bounds, want_of,
              rng):
        """buf_of(): a fresh buffer of the frame; want_of(model32, scale32):
        the expected image(s), a dict label -> image."""
        model, model32 = make_model(kind, bins ** AXES[mode], rng)
        scale32 = float(np.float32(scale))
        name = (f"{self.fmt} {self.w}x{self.h}"
                f"{' padded' if self.padded else ''} {label}: {mode} {bins} "
                f"bins, {kind} model, scale {scale}, mask {bounds}")
        got = self.run(buf_of(), mode, bins, model, scale, bounds, name)
        if got is None:
            return None
        for what, want in want_of(model32, scale32).items():
            self.tally.image(f"{name} vs {what}", got, want)
        return got

    def stop(self):
        self.pipe.stop()


def synthetic_bgr(rng):
    """(label, BGR frame): random, one value, gradients, odd sizes."""
    frames = [("random", rng.integers(0, 256, (23, 37, 3), np.uint8)),
              ("random", rng.integers(0, 256, (1, 1, 3), np.uint8)),
              ("random", rng.integers(0, 256, (48, 64, 3), np.uint8)),
              ("random", rng.integers(0, 256, (479, 641, 3), np.uint8))]
    for colour in ((30, 30, 200), (0, 0, 0), (255, 255, 255),
                   (190, 200, 10), (128, 128, 128)):
        frames.append((f"one colour {colour}",
                       np.full((23, 37, 3), colour, np.uint8)))
    frames.append(("one colour (10, 90, 250)",
                   np.full((1, 1, 3), (10, 90, 250), np.uint8)))
    y, x = np.mgrid[0:479, 0:641]
    gradient = np.stack([(x + 3 * y) % 256, (y * 4) % 256, x % 256], -1)
    frames.append(("gradient", gradient.astype(np.uint8)))
    y, x = np.mgrid[0:48, 0:64]
    frames.append(("gradient", np.stack([x * 4, y * 5, 255 - x * 4],
                                        -1).astype(np.uint8)))
    return frames


def vtest_path():
    video = os.environ.get("CLH_TEST_VIDEO", "")
    if not os.path.exists(video):
        here = os.path.dirname(os.path.abspath(__file__))
        video = os.path.join(here, "..", "data", "vtest.avi")
    return video if os.path.exists(video) else None


def part_backproject_bgr(rng, vtest):
    """BGR and every RGB-family format against OpenCV."""
    tally = Tally("clbackproject RGB formats vs cv2.calcBackProject")
    combo = 0
    by_size = {}
    for label, bgr in synthetic_bgr(rng):
        by_size.setdefault(bgr.shape[:2], []).append((label, bgr))
    for (h, w), frames in sorted(by_size.items()):
        for fmt in RGB_FORMATS:
            for padded in (False, True):
                # BGR gets every combination; the other layouts a rotation.
                bp = Backprojector(tally, fmt, w, h, padded)
                for label, bgr in frames:
                    planes = pack(fmt, w, h, rgb_samples(bgr, rng), rng)
                    for mode, bins in CONFIGS:
                        combo += 1
                        if fmt == "BGR" and not padded:
                            cases = [(k, s, m) for k in MODEL_KINDS
                                     for s in SCALES[:2] for m in MASKS]
                            if w * h > 100000:
                                cases = cases[combo % 3::4]
                        else:
                            cases = [(MODEL_KINDS[combo % 3],
                                      SCALES[combo % 3], MASKS[combo % 3])]
                        for kind, scale, bounds in cases:
                            bp.check(label, lambda: to_buffer(
                                fmt, w, h, planes, rng, padded), mode, bins,
                                kind, scale, bounds,
                                lambda m, s: {"OpenCV": opencv_backproject(
                                    bgr, mode, bins, m, s, bounds)}, rng)
                bp.stop()
    # vtest.avi: 30 frames, every configuration, BGR; a few in RGBx.
    if vtest:
        h, w = vtest[0].shape[:2]
        for fmt in ("BGR", "RGBx"):
            bp = Backprojector(tally, fmt, w, h)
            for n, bgr in enumerate(vtest if fmt == "BGR" else vtest[:3]):
                planes = pack(fmt, w, h, rgb_samples(bgr, rng), rng)
                for c, (mode, bins) in enumerate(CONFIGS):
                    bounds = MASKS[(n + c) % 3] if c % 2 else SAMPLE_MASK
                    bp.check(f"vtest frame {n}", lambda: to_buffer(
                        fmt, w, h, planes, rng), mode, bins,
                        MODEL_KINDS[(n + c) % 3], SCALES[(n + 2 * c) % 3],
                        bounds, lambda m, s: {"OpenCV": opencv_backproject(
                            bgr, mode, bins, m, s, bounds)}, rng)
            bp.stop()
    return tally.report()


def yuv_opencv(fmt, w, h, samples):
    """OpenCV's BGR and the luma plane for @samples in @fmt, or None where
    OpenCV has no such conversion."""
    if fmt not in OPENCV_YUV or w % 2 or h % 2:
        return None
    y, u, v = samples
    if fmt in ("I420", "YV12"):
        first, second = (u, v) if fmt == "I420" else (v, u)
        img = np.vstack([y, first.reshape(h // 4, w), second.reshape(h // 4,
                                                                     w)])
    elif fmt in ("NV12", "NV21"):
        uv = np.stack([u, v] if fmt == "NV12" else [v, u], -1)
        img = np.vstack([y, uv.reshape(h // 2, w)])
    else:
        img = np.ascontiguousarray(pack(fmt, w, h, samples,
                                        np.random.default_rng(0))[0]
                                   .reshape(h, w, 2))
    return cv2.cvtColor(img, OPENCV_YUV[fmt]), y


def yuv_groups():
    groups = {}
    for fmt, ((ws, hs), _) in YUV_FORMATS.items():
        groups.setdefault((ws, hs), []).append(fmt)
    return groups


def yuv_frames(rng, vtest):
    """(label, w, h, full-resolution Y, U, V) pairs; each subsampling takes
    its chroma from U and V."""
    frames = []
    for w, h in ((37, 23), (1, 1), (64, 48), (641, 479)):
        frames.append(("random", w, h,
                       [rng.integers(0, 256, (h, w), np.uint8)
                        for _ in range(3)]))
    for yuv in ((81, 90, 240), (16, 128, 128), (235, 128, 128),
                (0, 255, 0), (255, 0, 255)):
        frames.append((f"one value {yuv}", 37, 23,
                       [np.full((23, 37), v, np.uint8) for v in yuv]))
    y, x = np.mgrid[0:48, 0:64]
    frames.append(("gradient", 64, 48, [(x * 4).astype(np.uint8),
                                        (y * 5).astype(np.uint8),
                                        (255 - x * 3 - y).astype(np.uint8)]))
    for n, bgr in enumerate(vtest[:2]):
        yuv = cv2.cvtColor(bgr, cv2.COLOR_BGR2YUV)
        h, w = bgr.shape[:2]
        frames.append((f"vtest frame {n}", w, h,
                       [yuv[..., 0], yuv[..., 1], yuv[..., 2]]))
    return frames


def subsample(plane, ws, hs, w, h):
    return np.ascontiguousarray(plane[::1 << hs, ::1 << ws][
        :sub_size(h, hs), :sub_size(w, ws)])


def part_backproject_yuv(rng, vtest):
    """Every YUV format against the oracle, OpenCV where it has the layout,
    and the other formats of the same subsampling."""
    tally = Tally("clbackproject YUV formats vs clh-track-oracle / OpenCV")
    groups = yuv_groups()
    frames = yuv_frames(rng, vtest)
    by_size = {}
    for f in frames:
        by_size.setdefault((f[1], f[2]), []).append(f)
    combo = 0
    opencv_cases = 0
    for (w, h), sized in sorted(by_size.items()):
        for (ws, hs), fmts in groups.items():
            pipes = {(fmt, padded): Backprojector(tally, fmt, w, h, padded)
                     for fmt in fmts for padded in (False, True)}
            for label, _, _, (y, u, v) in sized:
                samples = [y, subsample(u, ws, hs, w, h),
                           subsample(v, ws, hs, w, h)]
                packed = {fmt: pack(fmt, w, h, samples, rng) for fmt in fmts}
                cv_of = {fmt: yuv_opencv(fmt, w, h, samples) for fmt in fmts}
                for mode, bins in CONFIGS:
                    combo += 1
                    if w * h > 100000 and combo % 2:
                        continue
                    kind = MODEL_KINDS[combo % 3]
                    scale = SCALES[(combo // 3) % 3]
                    bounds = MASKS[(combo // 2) % 3]
                    model, model32 = make_model(kind, bins ** AXES[mode],
                                                rng)
                    scale32 = float(np.float32(scale))
                    want = oracle_backproject(fmts[0], w, h, packed[fmts[0]],
                                              mode, bins, model32, scale32,
                                              bounds)
                    for (fmt, padded), bp in pipes.items():
                        name = (f"{fmt} {w}x{h}{' padded' if padded else ''}"
                                f" {label}: {mode} {bins} bins, {kind} model,"
                                f" scale {scale}, mask {bounds}")
                        got = bp.run(to_buffer(fmt, w, h, packed[fmt], rng,
                                               padded), mode, bins, model,
                                     scale, bounds, name)
                        if got is None:
                            continue
                        tally.image(f"{name} vs oracle on {fmts[0]}", got,
                                    want)
                        if padded:
                            continue
                        if fmt != fmts[0]:
                            tally.image(f"{name} vs oracle on {fmt}", got,
                                        oracle_backproject(
                                            fmt, w, h, packed[fmt], mode,
                                            bins, model32, scale32, bounds))
                        if cv_of[fmt] is not None:
                            bgr, luma = cv_of[fmt]
                            opencv_cases += 1
                            tally.image(f"{name} vs OpenCV", got,
                                        opencv_backproject(
                                            bgr, mode, bins, model32,
                                            scale32, bounds, luma))
            for bp in pipes.values():
                bp.stop()
    covered = sorted(YUV_FORMATS)
    return tally.report(f" ({opencv_cases} of them against OpenCV's "
                        f"YUV->BGR; formats {' '.join(covered)})")


def meta_buffer(fmt, w, h, planes, rng, pad, tail):
    """@planes at strides of their row bytes + @pad, one after the other,
    @tail bytes after the last, described by a GstVideoMeta."""
    offsets, strides, cursor = [], [], 0
    for plane in planes:
        offsets.append(cursor)
        strides.append(plane.shape[1] + pad)
        cursor += strides[-1] * plane.shape[0]
    data = rng.integers(0, 256, cursor + tail, np.uint8)
    for p, plane in enumerate(planes):
        rows, row_bytes = plane.shape
        data[offsets[p]:offsets[p] + strides[p] * rows].reshape(
            rows, strides[p])[:, :row_bytes] = plane
    buf = Gst.Buffer.new_wrapped(data.tobytes())
    n = len(planes)
    GstVideo.buffer_add_video_meta_full(
        buf, GstVideo.VideoFrameFlags.NONE,
        GstVideo.VideoFormat.from_string(fmt), w, h, n,
        offsets + [0] * (4 - n), strides + [0] * (4 - n))
    return buf, cursor + tail


def part_backproject_buffer_sizes(rng):
    """Frames described by a GstVideoMeta in buffers of any size: rows
    padded (a buffer larger than the caps' frame, not a whole number of
    them) and rows packed as tight as the samples allow (smaller than the
    caps' frame), every format, against the oracle."""
    tally = Tally("clbackproject GstVideoMeta frames of any buffer size")
    w, h = 37, 23
    model, model32 = make_model("random", 16, rng)
    for fmt in RGB_FORMATS + tuple(YUV_FORMATS):
        if fmt in RGB_FORMATS:
            samples = rgb_samples(rng.integers(0, 256, (h, w, 3), np.uint8),
                                  rng)
        else:
            samples = [rng.integers(0, 256, (sub_size(h, c[4]),
                                             sub_size(w, c[3])), np.uint8)
                       for c in components(fmt)]
        planes = pack(fmt, w, h, samples, rng)
        want = oracle_backproject(fmt, w, h, planes, "hue", 16, model32, 1.0,
                                  SAMPLE_MASK)
        info = GstVideo.VideoInfo.new()
        info.set_format(GstVideo.VideoFormat.from_string(fmt), w, h)
        bp = Backprojector(tally, fmt, w, h, True)
        for pad, tail in ((9, 3), (0, 0)):
            buf, size = meta_buffer(fmt, w, h, planes, rng, pad, tail)
            if size % info.size == 0:       # tight is GStreamer's layout
                buf, size = meta_buffer(fmt, w, h, planes, rng, pad, 1)
            label = (f"{fmt} {w}x{h} in a buffer of {size} bytes (the caps' "
                     f"frame: {info.size}), strides of row bytes + {pad}")
            assert size % info.size, label
            got = bp.run(buf, "hue", 16, model, 1.0, SAMPLE_MASK, label)
            if got is not None:
                tally.image(f"{label} vs oracle", got, want)
        bp.stop()
    return tally.report()


def unpack(buf, fmt, w, h):
    """The samples (R, G, B or Y, U, V) of a frame of @fmt in @buf, laid
    out as its GstVideoMeta or else the caps say."""
    info = GstVideo.VideoInfo.new()
    info.set_format(GstVideo.VideoFormat.from_string(fmt), w, h)
    meta = GstVideo.buffer_get_video_meta(buf)
    offsets = list(meta.offset) if meta else list(info.offset)
    strides = list(meta.stride) if meta else list(info.stride)
    ok, mapinfo = buf.map(Gst.MapFlags.READ)
    assert ok
    data = np.frombuffer(mapinfo.data, np.uint8).copy()
    buf.unmap(mapinfo)
    samples = []
    for p, o, ps, ws, hs in components(fmt)[:3]:
        cw, ch = sub_size(w, ws), sub_size(h, hs)
        rows = [data[offsets[p] + r * strides[p]:
                     offsets[p] + r * strides[p] + o + ps * (cw - 1) + 1]
                for r in range(ch)]
        samples.append(np.stack(rows)[:, o::ps])
    return samples


def part_backproject_decoded(video, rng, n_frames=30):
    """filesrc ! decodebin [! videoconvert ! caps] ! tee, one branch into
    clbackproject, the other to read the frame it was given."""
    tally = Tally("clbackproject on decoded vtest.avi vs OpenCV")
    runs = ((None, "I420", "hue", 16, 1.0, SAMPLE_MASK),
            ("NV12", "NV12", "hue-saturation", 30, 2.5, (30, 10, 200)),
            ("BGRx", "BGRx", "rgb", 8, 0.7, NO_MASK),
            ("BGRx", "BGRx", "luma", 13, 1.0, SAMPLE_MASK))
    for convert, fmt, mode, bins, scale, bounds in runs:
        model, model32 = make_model("random", bins ** AXES[mode], rng)
        scale32 = float(np.float32(scale))
        conv = (f"videoconvert ! video/x-raw,format={convert} ! "
                if convert else "")
        pipeline = Gst.parse_launch(
            f"filesrc name=file ! decodebin ! {conv}tee name=t ! queue ! "
            f"appsink name=raw sync=false max-buffers=4 t. ! queue ! "
            f"clbackproject name=bp mode={mode} bins={bins} "
            f"min-saturation={bounds[0]} min-value={bounds[1]} "
            f"max-value={bounds[2]} ! appsink name=prob sync=false "
            f"max-buffers=4")
        pipeline.get_by_name("file").set_property("location", video)
        bp = pipeline.get_by_name("bp")
        bp.set_property("model", Gst.ValueArray(model))
        bp.set_property("scale", scale)
        pipeline.set_state(Gst.State.PLAYING)
        raw_sink, prob_sink = (pipeline.get_by_name(n)
                               for n in ("raw", "prob"))
        for n in range(n_frames):
            raw = raw_sink.emit("try-pull-sample", PULL_TIMEOUT)
            prob = prob_sink.emit("try-pull-sample", PULL_TIMEOUT)
            label = f"decoded {fmt} frame {n}: {mode} {bins} bins"
            if raw is None or prob is None:
                err = pipeline.get_bus().pop_filtered(Gst.MessageType.ERROR)
                why = err.parse_error()[0].message if err else "no error"
                tally.fail(f"{label}: no frame ({why})")
                break
            st = raw.get_caps().get_structure(0)
            w, h = st.get_value("width"), st.get_value("height")
            assert st.get_value("format") == fmt, raw.get_caps().to_string()
            rbuf, pbuf = raw.get_buffer(), prob.get_buffer()
            if rbuf.pts != pbuf.pts:
                tally.fail(f"{label}: pts {pbuf.pts} for the frame of "
                           f"{rbuf.pts}")
            samples = unpack(rbuf, fmt, w, h)
            if fmt in RGB_FORMATS:
                bgr, luma = np.dstack(samples[::-1]), None
            else:
                bgr, luma = yuv_opencv(fmt, w, h, samples)
            tally.image(label, gray8_of(pbuf, w, h), opencv_backproject(
                bgr, mode, bins, model32, scale32, bounds, luma))
        pipeline.set_state(Gst.State.NULL)
    return tally.report()


def part_backproject_properties(rng):
    """Model and scale changed while PLAYING; mode and mask too; no model;
    a model of the wrong length."""
    tally = Tally("clbackproject properties while PLAYING")
    h, w = 48, 64
    bgr = rng.integers(0, 256, (h, w, 3), np.uint8)
    planes = pack("BGR", w, h, rgb_samples(bgr, rng), rng)

    def frame():
        return to_buffer("BGR", w, h, planes, rng)

    bp = Backprojector(tally, "BGR", w, h)
    m1 = rng.uniform(0, 255, 16)
    m2 = 255 - m1
    steps = [("hue", 16, m1, 1.0, NO_MASK), ("hue", 16, m2, 1.0, NO_MASK),
             ("hue", 16, m2, 2.5, NO_MASK), ("hue", 16, m1, 0.5, SAMPLE_MASK),
             ("luma", 16, m1, 0.5, SAMPLE_MASK), ("luma", 256,
                                                  rng.uniform(0, 255, 256),
                                                  1.0, NO_MASK),
             ("rgb", 4, rng.uniform(0, 255, 64), 1.0, (30, 10, 200)),
             ("hue", 16, m1, 1.0, NO_MASK)]
    outputs = []
    for mode, bins, model, scale, bounds in steps:
        got = bp.run(frame(), mode, bins, [float(v) for v in model], scale,
                     bounds, f"mode {mode}, bins {bins}, scale {scale}")
        if got is None:
            got = np.zeros((h, w), np.uint8)
        want = opencv_backproject(bgr, mode, bins, model.astype(np.float32),
                                  float(np.float32(scale)), bounds)
        tally.image(f"after setting mode {mode}, bins {bins}, scale "
                    f"{scale}, mask {bounds}", got, want)
        outputs.append(got)
    for a, b in ((0, 1), (1, 2), (2, 3), (3, 4)):
        tally.cases += 1
        if np.array_equal(outputs[a], outputs[b]):
            tally.fail(f"steps {a} and {b} give the same image: the change "
                       f"made no difference, so it tests nothing")
    if not np.array_equal(outputs[0], outputs[-1]):
        tally.fail("the first settings again do not give the first image")
    bp.stop()

    # No model: all zero, one warning.
    pipe = Pipeline("BGR", w, h, "clbackproject", "no model")
    outs = [pipe.push(frame()) for _ in range(2)]
    tally.cases += 1
    if any(o is None for o in outs):
        tally.fail(f"no model: no output ({pipe.errors()})")
    else:
        for o in outs:
            tally.image("no model", gray8_of(o, w, h),
                        np.zeros((h, w), np.uint8))
            if gray8_size_problem(o, w, h):
                tally.fail(f"no model: {gray8_size_problem(o, w, h)}")
        warnings = pipe.errors(Gst.MessageType.WARNING)
        if len(warnings) != 1:
            tally.fail(f"no model: {len(warnings)} warnings, expected 1: "
                       f"{warnings}")
    pipe.stop()

    # A model of the wrong length: an error, no frame.
    pipe = Pipeline("BGR", w, h, "clbackproject", "wrong length")
    pipe.elt.set_property("model", Gst.ValueArray([1.0] * 15))
    out = pipe.push(frame())
    errors = pipe.errors()
    tally.cases += 1
    if out is not None or not errors:
        tally.fail(f"a model of 15 values for 16 bins: output "
                   f"{out is not None}, errors {errors}")
    pipe.stop()
    return tally.report()


# CamShift

EPS_COUNT = cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT
CRITERIA = (EPS_COUNT, 10, 1)
PEOPLE = ((250, 218, 36, 92), (498, 155, 34, 80), (638, 238, 48, 84))

_gst = ctypes.CDLL("libgstreamer-1.0.so.0")
_gstvideo = ctypes.CDLL("libgstvideo-1.0.so.0")
_glib = ctypes.CDLL("libglib-2.0.so.0")
_gst.gst_buffer_iterate_meta_filtered.restype = ctypes.c_void_p
_gst.gst_buffer_iterate_meta_filtered.argtypes = [
    ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t]
_gst.gst_structure_get_name.restype = ctypes.c_char_p
_gst.gst_structure_get_name.argtypes = [ctypes.c_void_p]
_gst.gst_structure_n_fields.argtypes = [ctypes.c_void_p]
_gst.gst_structure_get_double.argtypes = [
    ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_double)]
_gst.gst_structure_get_uint64.argtypes = [
    ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_uint64)]
_gst.gst_structure_get_boolean.argtypes = [
    ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_int)]
_gstvideo.gst_video_region_of_interest_meta_api_get_type.restype = \
    ctypes.c_size_t
_glib.g_quark_to_string.restype = ctypes.c_char_p
_glib.g_quark_to_string.argtypes = [ctypes.c_uint32]
BOX_FIELDS = ("center-x", "center-y", "width", "height", "angle")
QUALITY_FIELDS = ("m00", "mean-probability", "confidence", "lost")
# clcamshift's min-mass and lost-frames defaults.
MIN_MASS, LOST_FRAMES = 0.1, 5


class _RoiMeta(ctypes.Structure):
    _fields_ = [("flags", ctypes.c_int), ("info", ctypes.c_void_p),
                ("roi_type", ctypes.c_uint32), ("id", ctypes.c_int),
                ("parent_id", ctypes.c_int), ("x", ctypes.c_uint),
                ("y", ctypes.c_uint), ("w", ctypes.c_uint),
                ("h", ctypes.c_uint), ("params", ctypes.c_void_p)]


class _GList(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("next", ctypes.c_void_p),
                ("prev", ctypes.c_void_p)]


def roi_metas(buf):
    """Every GstVideoRegionOfInterestMeta of @buf, in order, as (type, id,
    (x, y, w, h), {param name: {field: value}}). PyGObject cannot iterate
    metas, so gst_buffer_iterate_meta_filtered() is called here through
    ctypes on the GstBuffer whose address the wrapper's repr gives."""
    found = re.search(r"GstBuffer at (0x[0-9a-fA-F]+)", repr(buf))
    assert found, f"no GstBuffer address in {buf!r}"
    ptr = ctypes.c_void_p(int(found.group(1), 16))
    api = _gstvideo.gst_video_region_of_interest_meta_api_get_type()
    state = ctypes.c_void_p()
    metas = []
    while True:
        meta = _gst.gst_buffer_iterate_meta_filtered(ptr, ctypes.byref(state),
                                                     api)
        if not meta:
            break
        roi = _RoiMeta.from_address(meta)
        params, node = {}, roi.params
        while node:
            item = _GList.from_address(node)
            name = _gst.gst_structure_get_name(item.data).decode()
            fields = {}
            for f in BOX_FIELDS + ("mean-probability", "confidence"):
                d = ctypes.c_double()
                if _gst.gst_structure_get_double(item.data, f.encode(),
                                                 ctypes.byref(d)):
                    fields[f] = d.value
            u = ctypes.c_uint64()
            if _gst.gst_structure_get_uint64(item.data, b"m00",
                                             ctypes.byref(u)):
                fields["m00"] = u.value
            b = ctypes.c_int()
            if _gst.gst_structure_get_boolean(item.data, b"lost",
                                              ctypes.byref(b)):
                fields["lost"] = bool(b.value)
            fields["n-fields"] = _gst.gst_structure_n_fields(item.data)
            params[name] = fields
            node = item.next
        metas.append((_glib.g_quark_to_string(roi.roi_type).decode(), roi.id,
                      (roi.x, roi.y, roi.w, roi.h), params))
    assert len(metas) == buf.get_n_meta(
        GstVideo.VideoRegionOfInterestMeta.get_info().api)
    return metas


def clip(window, w, h):
    x, y, ww, hh = window
    x0, y0 = max(x, 0), max(y, 0)
    return x0, y0, max(min(x + ww, w) - x0, 0), max(min(y + hh, h) - y0, 0)


def iou(a, b):
    iw = max(0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))
    ih = max(0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
    inter = iw * ih
    union = a[2] * a[3] + b[2] * b[3] - inter
    return inter / union if union > 0 else 1.0


def opencv_mass(prob, window):
    """cv::CamShift()'s m00 and the window it takes it in, with OpenCV's
    own functions: cv2.meanShift() from @window, widened by 10 pixels each
    side as camshift.cpp widens it, cv2.moments() there."""
    h, w = prob.shape
    _, (x, y, ww, hh) = cv2.meanShift(prob, tuple(window), CRITERIA)
    x, y = max(x - 10, 0), max(y - 10, 0)
    ww, hh = min(ww + 20, w - x), min(hh + 20, h - y)
    return cv2.moments(prob[y:y + hh, x:x + ww])["m00"], (x, y, ww, hh)


class CvTrack:
    """One track of OpenCV's camshift.py loop, with clcamshift's quality
    and lost rule on top: the mass of each step, its mean probability
    m00 / (255 x the window's pixels), the confidence against the first
    frame's, at most 1; LOST_FRAMES frames in a row of confidence under
    MIN_MASS lose the track, and the loop stops calling CamShift for it."""

    def __init__(self, hsv, mask, window, bins=16):
        x, y, w, h = clip(window, hsv.shape[1], hsv.shape[0])
        if w and h:
            self.hist = cv2.calcHist([hsv[y:y + h, x:x + w]], [0],
                                     mask[y:y + h, x:x + w], [bins], [0, 180])
        else:
            self.hist = np.zeros((bins, 1), np.float32)
        cv2.normalize(self.hist, self.hist, 0, 255, cv2.NORM_MINMAX)
        self.window = tuple(window)
        self.box = ((0.0, 0.0), (0.0, 0.0), 0.0)
        self.quality = (0, 0.0, 0.0)
        self.first_mean, self.misses, self.gone = None, 0, False

    @property
    def lost(self):
        return self.gone or self.window[2] < 1 or self.window[3] < 1

    def step(self, hsv, mask):
        """The sample stops calling CamShift once the window is empty, and
        here once the track is lost."""
        if self.lost:
            self.box = ((0.0, 0.0), (0.0, 0.0), 0.0)
            self.quality = (0, 0.0, 0.0)
            return
        prob = cv2.calcBackProject([hsv], [0], self.hist, [0, 180], 1)
        prob &= mask
        m00, (_, _, mw, mh) = opencv_mass(prob, self.window)
        self.box, window = cv2.CamShift(prob, self.window, CRITERIA)
        self.window = tuple(int(v) for v in window)
        mean = m00 / (255.0 * (mw * mh)) if mw * mh else 0.0
        if self.first_mean is None:
            self.first_mean = mean
        confidence = min(mean / self.first_mean, 1.0) \
            if self.first_mean > 0 else 0.0
        self.misses = 0 if confidence >= MIN_MASS else self.misses + 1
        self.quality = (int(m00), mean, confidence)
        if self.misses >= LOST_FRAMES or self.lost:
            self.gone = True
            self.box = ((0.0, 0.0), (0.0, 0.0), 0.0)
            self.quality = (0, 0.0, 0.0)


class TrackStats:
    def __init__(self):
        self.frames = self.equal_windows = self.equal_boxes = 0
        self.equal_quality = 0
        self.ious, self.windows = [], set()
        self.empty = self.lost = 0


class CamShiftCheck:
    """Compares a clcamshift run with CvTracks frame by frame: the
    `camshift` message and the `camshift` ROI meta of each track."""

    def __init__(self, tally, name):
        self.tally, self.name = tally, name
        self.stats = {}

    def frame(self, n, pts, buf, messages, tracks, input_metas=()):
        """@tracks: id -> CvTrack after this frame; @input_metas: the ROI
        metas pushed on this buffer (they stay on it)."""
        label = f"{self.name} frame {n}"
        by_id = {}
        for msg in messages:
            s = msg.get_structure()
            if s is None or s.get_name() != "camshift":
                continue
            ident = s.get_value("id")
            if s.get_value("timestamp") != pts:
                continue
            if ident in by_id:
                self.tally.fail(f"{label}: two messages for track {ident}")
            by_id[ident] = s
        if sorted(by_id) != sorted(tracks):
            self.tally.fail(f"{label}: messages for tracks {sorted(by_id)}"
                            f", expected {sorted(tracks)}")
        metas = roi_metas(buf) if buf is not None else []
        # The results first, then upstream's as they came.
        passed = metas[len(metas) - len(input_metas):]
        if [(t, i, r) for t, i, r, _ in passed] != list(input_metas):
            self.tally.fail(f"{label}: the upstream ROI metas became "
                            f"{passed}, expected {list(input_metas)}")
        ours = metas[:len(metas) - len(input_metas)]
        # What Python reads by id (the README's way) is the result.
        for ident in tracks:
            roi = GstVideo.buffer_get_video_region_of_interest_meta_id(
                buf, ident) if buf is not None else None
            kind = GLib.quark_to_string(roi.roi_type) if roi else None
            if kind != "camshift":
                self.tally.fail(f"{label}: the first ROI meta of id {ident}"
                                f" is a {kind} meta")
        meta_by_id = {}
        for kind, ident, rect, params in ours:
            if kind != "camshift" or ident in meta_by_id:
                self.tally.fail(f"{label}: unexpected ROI meta {kind} id "
                                f"{ident} {rect}")
            meta_by_id[ident] = (rect, params)
        if sorted(meta_by_id) != sorted(tracks):
            self.tally.fail(f"{label}: camshift metas of tracks "
                            f"{sorted(meta_by_id)}, expected "
                            f"{sorted(tracks)}")
        for ident, cv in tracks.items():
            st = self.stats.setdefault(ident, TrackStats())
            st.frames += 1
            (cx, cy), (bw, bh), angle = cv.box
            want_box = tuple(float(np.float32(v))
                             for v in (cx, cy, bw, bh, angle))
            st.empty += want_box == (0.0,) * 5
            st.lost += cv.lost
            s = by_id.get(ident)
            if s is None:
                continue
            window = tuple(s.get_value("window"))
            box = tuple(s.get_value(f) for f in BOX_FIELDS)
            box32 = tuple(float(np.float32(v)) for v in box)
            lost = s.get_value("lost")
            quality = tuple(s.get_value(f) for f in QUALITY_FIELDS[:3])
            st.ious.append(iou(window, cv.window))
            st.windows.add(window)
            st.equal_windows += window == cv.window
            st.equal_boxes += box32 == want_box
            st.equal_quality += quality == cv.quality
            if window != cv.window or box32 != want_box:
                self.tally.fail(f"{label} track {ident}: window {window} "
                                f"box {box}, OpenCV {cv.window} "
                                f"{want_box}")
            if lost != cv.lost:
                self.tally.fail(f"{label} track {ident}: lost {lost}, "
                                f"OpenCV's window {cv.window}, "
                                f"{cv.misses} misses")
            if quality != cv.quality:
                self.tally.fail(f"{label} track {ident}: m00, mean "
                                f"probability, confidence {quality}, "
                                f"OpenCV's {cv.quality}")
            # A segment from 0: running and stream time are the pts.
            times = tuple(s.get_value(f) for f in ("running-time",
                                                   "stream-time",
                                                   "duration"))
            if times != (pts, pts, 100 * Gst.MSECOND):
                self.tally.fail(f"{label} track {ident}: running-time, "
                                f"stream-time, duration {times}, expected "
                                f"{(pts, pts, 100 * Gst.MSECOND)}")
            m = meta_by_id.get(ident)
            if m is None:
                continue
            rect, params = m
            want_rect = tuple(max(v, 0) for v in cv.window)
            meta_box = tuple(params.get("camshift", {}).get(f)
                             for f in BOX_FIELDS)
            meta_quality = tuple(params.get("camshift", {}).get(f)
                                 for f in QUALITY_FIELDS)
            if rect != want_rect or meta_box != box or \
                    meta_quality != quality + (lost,) or \
                    params.get("camshift", {}).get("n-fields") != 9 or \
                    list(params) != ["camshift"]:
                self.tally.fail(f"{label} track {ident}: ROI meta {rect} "
                                f"{params}, expected {want_rect} with the "
                                f"message's box {box} and quality "
                                f"{quality + (lost,)}")
        self.tally.cases += 1
        self.tally.values += len(tracks)

    def summary(self):
        lines = []
        for ident, st in sorted(self.stats.items()):
            ious = np.array(st.ious) if st.ious else np.array([0.0])
            lines.append(
                f"  {self.name} track {ident}: {st.frames} frames, windows "
                f"equal in {st.equal_windows}, boxes equal (float32) in "
                f"{st.equal_boxes} ({len(st.windows)} distinct windows), "
                f"m00 and quality in {st.equal_quality}; "
                f"IoU min {ious.min():.3f} mean "
                f"{ious.mean():.3f}, >= 0.95 in "
                f"{100.0 * np.mean(ious >= 0.95):.1f}%; {st.empty} empty "
                f"boxes, {st.lost} frames lost")
        return lines


class CamShiftRun:
    """A clcamshift pipeline fed frames here, its OpenCV twin and checker.
    @window: the window property's track (id 0); @starts: frame ->
    [(id, window)] of @track_type ROI metas to push; @extra: frame -> other
    ROI metas; @changes: frame -> properties set while PLAYING before it
    (window, bins, min-saturation, min-value, max-value); @padded: frames
    in rows of 40 bytes of padding, described by a GstVideoMeta."""

    def __init__(self, tally, name, w, h, window=None, starts=None,
                 extra=None, changes=None, track_type=None, padded=False):
        self.name, self.window, self.padded = name, window, padded
        self.rng = np.random.default_rng(7)
        self.starts, self.extra = starts or {}, extra or {}
        self.changes = changes or {}
        self.track_type = track_type or "track"
        self.bins, self.bounds = 16, SAMPLE_MASK
        self.pipe = Pipeline("BGR", w, h, "clcamshift", name)
        if track_type:
            self.pipe.elt.set_property("track-type", track_type)
        if window is not None:
            self.pipe.elt.set_property("window", Gst.ValueArray(
                list(window)))
        self.check = CamShiftCheck(tally, name)
        self.tracks = {}

    def step(self, n, bgr, hsv, mask):
        h, w = bgr.shape[:2]
        if self.padded:
            buf, _ = meta_buffer("BGR", w, h, [bgr.reshape(h, w * 3)],
                                 self.rng, 40, 7)
        else:
            buf = Gst.Buffer.new_wrapped(bgr.tobytes())
        inputs = []
        remake = False
        for prop, value in self.changes.get(n, {}).items():
            if prop == "window":
                self.pipe.elt.set_property(prop, Gst.ValueArray(list(value)))
                self.tracks = {0: None}
                self.window = value
            else:
                self.pipe.elt.set_property(prop, value)
                if prop == "bins":
                    self.bins = value
                else:
                    keys = ("min-saturation", "min-value", "max-value")
                    self.bounds = tuple(value if k == prop else b
                                        for k, b in zip(keys, self.bounds))
                remake = True
        if self.bounds != SAMPLE_MASK:
            mask = in_range_mask(hsv, self.bounds)
        if (n == 0 and self.window is not None) or 0 in self.tracks and \
                self.tracks[0] is None:
            self.tracks[0] = CvTrack(hsv, mask, self.window, self.bins)
        if remake:
            # Every model again from its window, on this frame.
            self.tracks = {i: CvTrack(hsv, mask, t.window, self.bins)
                           for i, t in self.tracks.items()}
        for ident, win in self.starts.get(n, ()):
            x, y, ww, hh = win
            meta = GstVideo.buffer_add_video_region_of_interest_meta(
                buf, self.track_type, x, y, ww, hh)
            meta.id = ident
            inputs.append((self.track_type, ident, (x, y, ww, hh)))
            self.tracks[ident] = CvTrack(hsv, mask, win, self.bins)
        for kind, ident, win in self.extra.get(n, ()):
            meta = GstVideo.buffer_add_video_region_of_interest_meta(
                buf, kind, *win)
            meta.id = ident
            inputs.append((kind, ident, tuple(win)))
        for t in self.tracks.values():
            t.step(hsv, mask)
        pts = n * 100 * Gst.MSECOND
        out = self.pipe.push(buf)
        if out is None:
            self.check.tally.fail(f"{self.name} frame {n}: no output "
                                  f"({self.pipe.errors()})")
            raise AssertionError(f"{self.name} stopped")
        msgs, self.pipe.messages = self.pipe.messages, []
        self.check.frame(n, pts, out, msgs, self.tracks, inputs)

    def stop(self):
        self.pipe.stop()


def blank_window(hsv, mask):
    """A window of the first frame with no pixel inside the mask."""
    for y in range(300, 560, 20):
        for x in range(0, 740, 20):
            if not mask[y:y + 24, x:x + 24].any():
                return (x, y, 24, 24)
    raise AssertionError("vtest.avi's first frame has no window outside "
                         "the mask")


def part_camshift(video, n_frames):
    tally = Tally("clcamshift vs cv2.CamShift")
    cap = cv2.VideoCapture(video)
    runs = []
    n = 0
    try:
        track_frames(tally, cap, runs, n_frames)
    finally:
        for run in runs:
            run.stop()
    n = runs[0].pipe.n
    lines = []
    for run in runs:
        lines += run.check.summary()
    ok = tally.report(f" ({len(runs)} runs x {n} frames)")
    print("\n".join(lines))
    st = next(r for r in runs
              if r.name == "ROI metas at the edges").check.stats
    if n < min(n_frames or 200, 200) or st[2].empty != n or st[4].lost != n \
            or st[2].lost != n - (LOST_FRAMES - 1):
        tally.fail(f"{n} frames; the blank window's track had "
                   f"{st[2].empty} empty boxes and {st[2].lost} lost "
                   f"frames, and the empty ROI's {st[4].lost} lost frames: "
                   f"the edge cases did not test what they should")
        ok = tally.report()
    return ok


def track_frames(tally, cap, runs, n_frames):
    n = 0
    while n_frames is None or n < n_frames:
        ok, bgr = cap.read()
        if not ok:
            break
        h, w = bgr.shape[:2]
        hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
        mask = in_range_mask(hsv, SAMPLE_MASK)
        if n == 0:
            for i, win in enumerate(PEOPLE):
                runs.append(CamShiftRun(tally, f"window {i} {win}", w, h,
                                        window=win))
            runs.append(CamShiftRun(
                tally, "window partly outside", w, h,
                window=(-15, 150, 50, 80),
                changes={300: {"bins": 30, "min-saturation": 40},
                         400: {"max-value": 200},
                         500: {"window": (300, 250, 60, 100)}}))
            runs.append(CamShiftRun(
                tally, "track-type person, padded rows", w, h,
                track_type="person", padded=True,
                starts={0: [(1, PEOPLE[1])]},
                extra={0: [("track", 2, PEOPLE[2])]}))
            ids = (7, 3, 12)
            runs.append(CamShiftRun(
                tally, "ROI metas", w, h,
                starts={0: list(zip(ids, PEOPLE))},
                extra={0: [("face", 99, (300, 300, 40, 40)),
                           ("camshift", 12, (10, 10, 5, 5))],
                       5: [("face", 7, (200, 100, 30, 30))]}))
            roi = runs[-1]
            blank = blank_window(hsv, mask)
            runs.append(CamShiftRun(
                tally, "ROI metas at the edges", w, h,
                starts={0: [(0, (720, 40, 80, 60)),
                            (1, (800, 100, 50, 50)),
                            (2, blank), (4, (100, 100, 0, 40)),
                            (6, (0, 0, 900, 700))]}))
        elif n == 120:
            # Track 3 again from where OpenCV has track 7 now; a new one.
            roi.starts[n] = [(3, roi.tracks[7].window),
                             (21, roi.tracks[12].window)]
        for run in runs:
            run.step(n, bgr, hsv, mask)
        n += 1


def part_camshift_decoded(video, n_frames):
    """filesrc ! decodebin ! clcamshift on the decoder's own frames (I420),
    OpenCV on the same frames through COLOR_YUV2BGR_I420."""
    tally = Tally("clcamshift on the decoder's frames vs cv2.CamShift")
    pipeline = Gst.parse_launch(
        f"filesrc name=file ! decodebin ! clcamshift name=elt "
        f"window=\"<{','.join(map(str, PEOPLE[0]))}>\" ! "
        f"appsink name=sink sync=false max-buffers=4")
    pipeline.get_by_name("file").set_property("location", video)
    sink = pipeline.get_by_name("sink")
    bus = pipeline.get_bus()
    pipeline.set_state(Gst.State.PLAYING)
    check = CamShiftCheck(tally, "decoded")
    tracks, pending, fmt, n = {}, [], None, 0
    while n_frames is None or n < n_frames:
        sample = sink.emit("try-pull-sample", PULL_TIMEOUT)
        if sample is None and sink.get_property("eos"):
            break
        if sample is None:
            err = bus.pop_filtered(Gst.MessageType.ERROR)
            why = err.parse_error()[0].message if err else "no error"
            tally.fail(f"decoded: no frame {n} ({why})")
            break
        s = sample.get_caps().get_structure(0)
        fmt, w, h = s.get_value("format"), s.get_value("width"), \
            s.get_value("height")
        assert fmt == "I420", f"the decoder gave {fmt}"
        buf = sample.get_buffer()
        bgr, _ = yuv_opencv(fmt, w, h, unpack(buf, fmt, w, h))
        hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
        mask = in_range_mask(hsv, SAMPLE_MASK)
        if n == 0:
            tracks[0] = CvTrack(hsv, mask, PEOPLE[0])
        tracks[0].step(hsv, mask)
        while True:
            msg = bus.pop_filtered(Gst.MessageType.ELEMENT)
            if msg is None:
                break
            pending.append(msg)
        pts = buf.pts
        mine = [m for m in pending
                if m.get_structure().get_value("timestamp") == pts]
        pending = [m for m in pending if m not in mine]
        check.frame(n, pts, buf, mine, tracks)
        n += 1
    pipeline.set_state(Gst.State.NULL)
    if n < min(n_frames or 200, 200):
        tally.fail(f"decoded: only {n} frames")
    ok = tally.report(f" ({n} frames of {fmt} straight from decodebin)")
    print("\n".join(check.summary()))
    return ok


def main():
    global ORACLE
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    ORACLE = sys.argv[1]
    Gst.init(None)
    for name in ("clbackproject", "clcamshift"):
        if Gst.ElementFactory.find(name) is None:
            print(f"FAIL: no element {name}: GST_PLUGIN_PATH should name "
                  "the build's gst")
            return 1
    # The sink template's formats are the ones tested here.
    factory = Gst.ElementFactory.find("clbackproject")
    for templ in factory.get_static_pad_templates():
        if templ.direction != Gst.PadDirection.SINK:
            continue
        caps = templ.get_caps()
        listed = set()
        for i in range(caps.get_size()):
            value = caps.get_structure(i).get_value("format")
            listed |= {value} if isinstance(value, str) else set(value)
        known = set(RGB_FORMATS) | set(YUV_FORMATS)
        if listed != known:
            print(f"FAIL: the sink template lists {sorted(listed)}; this "
                  f"test knows {sorted(known)}")
            return 1
    rng = np.random.default_rng(20261125)
    video = vtest_path()
    vtest = []
    if video:
        cap = cv2.VideoCapture(video)
        for _ in range(30):
            ok, bgr = cap.read()
            assert ok, f"cannot read 30 frames of {video}"
            vtest.append(bgr)
    else:
        print("no vtest.avi: CLH_TEST_VIDEO or data/vtest.avi "
              "(scripts/fetch-samples.sh); its parts are left out")
    ok = True
    for part in (lambda: part_backproject_buffer_sizes(rng),
                 lambda: part_backproject_bgr(rng, vtest),
                 lambda: part_backproject_yuv(rng, vtest),
                 lambda: part_backproject_properties(rng)) + \
            ((lambda: part_backproject_decoded(video, rng)),) * bool(video):
        start = time.monotonic()
        ok &= part()
        print(f"  ({time.monotonic() - start:.1f} s)")
    if video:
        # Every frame unless CLH_TRACK_FRAMES says fewer.
        frames = int(os.environ.get("CLH_TRACK_FRAMES", "0")) or None
        start = time.monotonic()
        ok &= part_camshift(video, frames)
        print(f"  ({time.monotonic() - start:.1f} s)")
        start = time.monotonic()
        ok &= part_camshift_decoded(video, frames)
        print(f"  ({time.monotonic() - start:.1f} s)")
    print("ok" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
