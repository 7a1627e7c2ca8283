#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Reads GstHistogramMeta from Python through the GstClHistogram-1.0 typelib
and checks it against counts made here from the frame's bytes."""
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstClHistogram", "1.0")
from gi.repository import Gst, GstClHistogram  # noqa: E402

WIDTH, HEIGHT, BINS = 61, 37, 16


def pull_one(pipeline_description):
    pipeline = Gst.parse_launch(pipeline_description)
    sink = pipeline.get_by_name("sink")
    pipeline.set_state(Gst.State.PLAYING)
    sample = sink.emit("pull-sample")
    pipeline.set_state(Gst.State.NULL)
    assert sample is not None, "no frame came out"
    return sample.get_buffer()


def counts_from_bytes(data, channel, n_channels):
    counts = [0] * BINS
    for v in data[channel::n_channels]:
        counts[v * BINS // 256] += 1
    return counts


def main():
    Gst.init(None)
    buffer = pull_one(
        "videotestsrc pattern=smpte num-buffers=1 ! "
        f"video/x-raw,format=RGBA,width={WIDTH},height={HEIGHT} ! "
        f"clhistogram mode=channels bins={BINS} ! appsink name=sink")

    meta = GstClHistogram.buffer_get_histogram_meta(buffer)
    assert meta is not None, "no GstHistogramMeta on the buffer"
    assert meta.mode == GstClHistogram.HistogramMode.CHANNELS, meta.mode
    assert meta.n_channels == 4 and meta.n_bins == BINS
    assert meta.pixels == WIDTH * HEIGHT
    assert (meta.x, meta.y, meta.width, meta.height) == (0, 0, WIDTH, HEIGHT)

    ok, info = buffer.map(Gst.MapFlags.READ)
    assert ok
    stride = WIDTH * 4  # RGBA rows need no padding
    data = bytes(info.data)[: stride * HEIGHT]
    buffer.unmap(info)

    for c, name in enumerate("RGBA"):
        counts = meta.get_counts(c)
        assert meta.get_channel_name(c) == name
        assert isinstance(counts, list) and len(counts) == BINS, counts
        assert counts == counts_from_bytes(data, c, 4), (name, counts)
        print(f"{name}: {counts}")

    # NV12 channels: U and V each examined a quarter of the pixels.
    # (the meta lives as long as its buffer: keep the buffer)
    nv12_buffer = pull_one(
        "videotestsrc num-buffers=1 ! video/x-raw,format=NV12,width=64,height=48 ! "
        "clhistogram mode=channels ! appsink name=sink")
    nv12 = GstClHistogram.buffer_get_histogram_meta(nv12_buffer)
    assert [nv12.get_channel_name(c) for c in range(3)] == ["Y", "U", "V"]
    assert [nv12.get_samples(c) for c in range(3)] == [64 * 48, 32 * 24, 32 * 24]
    assert nv12.samples == [64 * 48, 32 * 24, 32 * 24] and nv12.below == [0] * 3
    assert nv12.channel_names == ["Y", "U", "V"]
    assert nv12.get_below(0) == 0 and nv12.get_above(0) == 0
    assert nv12.depth == 8 and nv12.range_max == 255

    # hue-saturation: one flattened channel and its 2-D shape.
    hs_buffer = pull_one(
        "videotestsrc num-buffers=1 ! video/x-raw,format=RGBx,width=64,height=48 ! "
        "clhistogram mode=hue-saturation bins=30 ! appsink name=sink")
    hs = GstClHistogram.buffer_get_histogram_meta(hs_buffer)
    assert hs.mode == GstClHistogram.HistogramMode.HUE_SATURATION
    assert hs.get_shape() == [30, 30] and len(hs.get_counts(0)) == 900
    assert sum(hs.get_counts(0)) == 64 * 48

    # Every histogram meta of a buffer, and one region's: the element's
    # full-frame histogram is region "frame", id 0.
    metas = GstClHistogram.buffer_get_histogram_metas(hs_buffer)
    assert len(metas) == 1, metas
    assert (metas[0].region_type, metas[0].region_id) == ("frame", 0)
    assert metas[0].get_counts(0) == hs.get_counts(0)
    frame = GstClHistogram.buffer_get_histogram_meta_for_region(
        hs_buffer, "frame", 0)
    assert frame is not None and frame.n_bins == 900
    assert GstClHistogram.buffer_get_histogram_meta_for_region(
        hs_buffer, "zone", 0) is None
    assert GstClHistogram.buffer_get_histogram_metas(Gst.Buffer.new()) == []

    # Statistics, from the same RGBA frame's bytes: min, max, the exact
    # mean, any percentile (256 bins: one value each), the stored ones, and
    # the share of clipped samples.
    stats_buffer = pull_one(
        "videotestsrc pattern=smpte num-buffers=1 ! "
        f"video/x-raw,format=RGBA,width={WIDTH},height={HEIGHT} ! "
        "clhistogram mode=channels ! appsink name=sink")
    st = GstClHistogram.buffer_get_histogram_meta(stats_buffer)
    assert st.has_statistics() and not st.has_legal_range()
    assert st.get_percentile_points() == [1.0, 10.0, 50.0, 90.0, 99.0]
    for c, name in enumerate("RGBA"):
        values = sorted(data[c::4])
        n = len(values)
        assert st.get_min(c) == values[0] and st.get_max(c) == values[-1]
        assert st.get_mean(c) == sum(values) / n, (name, st.get_mean(c))
        for p in (0.0, 10.0, 33.3, 50.0, 100.0):
            rank = round(n * p / 100)  # half to even, as lrint
            ok, value = st.get_percentile(c, p)
            assert ok and value == values[max(rank, 1) - 1], (name, p, value)
        want = [values[max(round(n * p / 100), 1) - 1]
                for p in (1.0, 10.0, 50.0, 90.0, 99.0)]
        assert st.get_percentiles(c) == want, (name, st.get_percentiles(c))
        high = st.get_fraction(c, GstClHistogram.HistogramTail.CLIPPED_HIGH)
        assert high == values.count(255) / n, (name, high)
        assert st.get_tail(c, GstClHistogram.HistogramTail.CLIPPED_LOW) == \
            values.count(0)
    coarse_buffer = pull_one(
        "videotestsrc num-buffers=1 ! video/x-raw,format=GRAY8,width=64,height=48 ! "
        "clhistogram bins=16 ! appsink name=sink")
    coarse = GstClHistogram.buffer_get_histogram_meta(coarse_buffer)
    assert coarse.get_percentile(0, 90.0)[0]
    assert not coarse.get_percentile(0, 42.0)[0]

    # A buffer without a histogram gives None.
    assert GstClHistogram.buffer_get_histogram_meta(Gst.Buffer.new()) is None
    print("GstHistogramMeta read from Python matches the frame")
    return 0


if __name__ == "__main__":
    sys.exit(main())
