#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""clhistogram against OpenCV's own colour conversions (python3-opencv):
luma on RGB is cv2.cvtColor(COLOR_RGB2GRAY), hue and hue-saturation are
cv2.cvtColor(COLOR_RGB2HSV), and YUV frames go through
cv2.cvtColor(COLOR_YUV2RGB_I420 / _NV12 / _YUY2) first; each histogram is
compared bin for bin. Frames: every 24-bit colour, uniform random frames, and
frames of vtest.avi when it is there. Exits 77 (skipped) without cv2."""
import os
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstClHistogram", "1.0")
from gi.repository import Gst, GstClHistogram  # noqa: E402

try:
    import cv2
    import numpy as np
except ImportError as e:
    print(f"SKIP: python3-opencv is not installed ({e}); "
          "'apt-get install python3-opencv' runs this comparison")
    sys.exit(77)


def element_histogram(data, fmt, width, height, props):
    """Runs one frame through clhistogram and returns the meta's counts."""
    pipeline = Gst.parse_launch(
        f"appsrc name=src format=time caps=video/x-raw,format={fmt},"
        f"width={width},height={height},framerate=1/1 ! "
        f"clhistogram {props} ! appsink name=sink")
    pipeline.set_state(Gst.State.PLAYING)
    src = pipeline.get_by_name("src")
    src.emit("push-buffer", Gst.Buffer.new_wrapped(bytes(data)))
    src.emit("end-of-stream")
    sample = pipeline.get_by_name("sink").emit("pull-sample")
    bus_error = pipeline.get_bus().pop_filtered(Gst.MessageType.ERROR)
    pipeline.set_state(Gst.State.NULL)
    assert bus_error is None, bus_error.parse_error()
    meta = GstClHistogram.buffer_get_histogram_meta(sample.get_buffer())
    assert meta is not None
    return np.array(meta.get_counts(0), dtype=np.int64)


def hist_of(values, n):
    return np.bincount(values.ravel().astype(np.int64), minlength=n)


def expected(rgb, mode, bins):
    """The histogram OpenCV's conversions give for an RGB image."""
    if mode == "luma":
        gray = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
        calc = cv2.calcHist([gray], [0], None, [bins], [0, 256]).ravel()
        want = hist_of(gray.astype(np.int64) * bins // 256, bins)
        assert (calc.astype(np.int64) == want).all(), "calcHist disagrees"
        return want
    hsv = cv2.cvtColor(rgb, cv2.COLOR_RGB2HSV).astype(np.int64)
    h, s = hsv[..., 0], hsv[..., 1]
    assert h.max() < 180
    if mode == "hue":
        return hist_of(h * bins // 180, bins)
    return hist_of((h * bins // 180) * bins + s * bins // 256, bins * bins)


def check(label, got, want):
    if not (got == want).all():
        diff = np.nonzero(got != want)[0]
        raise AssertionError(f"{label}: bins {diff[:8]} differ: "
                             f"{got[diff[:8]]} vs OpenCV {want[diff[:8]]}")
    print(f"{label}: equal to OpenCV ({got.sum()} counted)")


def gst_rgb_bytes(rgb):
    """RGB rows padded to GStreamer's default stride (a multiple of 4)."""
    h, w, _ = rgb.shape
    stride = (w * 3 + 3) // 4 * 4
    rows = np.zeros((h, stride), np.uint8)
    rows[:, :w * 3] = rgb.reshape(h, w * 3)
    return rows


def check_rgb(label, rgb):
    h, w, _ = rgb.shape
    for mode, bins in (("luma", 256), ("luma", 7), ("hue", 180), ("hue", 30),
                       ("hue-saturation", 30), ("hue-saturation", 180)):
        got = element_histogram(gst_rgb_bytes(rgb), "RGB", w, h,
                                f"mode={mode} bins={bins}")
        check(f"{label} {mode} {bins} bins", got, expected(rgb, mode, bins))


def check_yuv(label, rgb_like_planes, fmt, code, w, h):
    """rgb_like_planes: the YUV frame's bytes as OpenCV wants them."""
    rgb = cv2.cvtColor(rgb_like_planes, code)
    for mode, bins in (("hue", 180), ("hue-saturation", 32)):
        got = element_histogram(rgb_like_planes, fmt, w, h,
                                f"mode={mode} bins={bins}")
        check(f"{label} {fmt} {mode} {bins} bins", got,
              expected(rgb, mode, bins))


def frames_of_vtest(path, count):
    cap = cv2.VideoCapture(path)
    frames = []
    while len(frames) < count:
        ok, bgr = cap.read()
        if not ok:
            break
        frames.append(cv2.resize(bgr, (600, 480)))
    return frames


def main():
    Gst.init(None)
    rng = np.random.default_rng(2026)

    every = np.arange(1 << 24, dtype=np.uint32)
    colours = np.stack([every >> 16, (every >> 8) & 255, every & 255],
                       axis=-1).astype(np.uint8).reshape(4096, 4096, 3)
    check_rgb("all 2^24 colours", colours)
    check_rgb("random 601x479", rng.integers(0, 256, (479, 601, 3), np.uint8))

    w, h = 600, 480
    i420 = rng.integers(0, 256, (h * 3 // 2, w), np.uint8)
    check_yuv("random", i420, "I420", cv2.COLOR_YUV2RGB_I420, w, h)
    check_yuv("random", i420, "NV12", cv2.COLOR_YUV2RGB_NV12, w, h)
    yuy2 = rng.integers(0, 256, (h, w, 2), np.uint8)
    check_yuv("random", yuy2, "YUY2", cv2.COLOR_YUV2RGB_YUY2, w, h)

    video = os.environ.get("CLH_TEST_VIDEO", "")
    frames = frames_of_vtest(video, 5) if os.path.exists(video) else []
    if not frames:
        print(f"no real frames: {video or 'CLH_TEST_VIDEO'} not readable")
    for n, bgr in enumerate(frames):
        check_rgb(f"vtest frame {n}", cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB))
        check_yuv(f"vtest frame {n}", cv2.cvtColor(bgr, cv2.COLOR_BGR2YUV_I420),
                  "I420", cv2.COLOR_YUV2RGB_I420, 600, 480)
    return 0


if __name__ == "__main__":
    sys.exit(main())
