#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Reads GstHistogramMeta from Python through the GstClHistogram-1.0 typelib
and checks it against counts made here from the frame's bytes."""
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstVideo", "1.0")
gi.require_version("GstClHistogram", "1.0")
from gi.repository import Gst, GstClHistogram, GstVideo  # noqa: E402

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


def check_building_a_meta():
    """An application describes, attaches and reads back a histogram of its
    own: GstHistogramInfo, GstHistogramRegion and the statistics through
    GI, kept by a buffer copy."""
    H = GstClHistogram
    info = H.HistogramInfo.new()
    assert (info.n_dims, info.depth, info.range_min, info.range_max) == \
        (1, 8, 0, 255)
    assert info.set_format(H.HistogramMode.CHANNELS, ["Y", "U", "V"], [4])
    assert info.n_bins == 4 and info.shape[:info.n_dims] == [4]
    assert info.channel_names[:info.n_channels] == ["Y", "U", "V"]
    info.depth, info.range_max = 10, 1023
    limited = GstVideo.VideoColorRange(2)  # GST_VIDEO_COLOR_RANGE_16_235
    info.video_range = limited
    assert info.copy().range_max == 1023

    region = H.HistogramRegion.new("zone", 5, 2, 3, 8, 6)
    assert (region.type, region.id, region.width) == ("zone", 5, 8)
    counts = list(range(12))
    buffer = Gst.Buffer.new()
    meta = H.buffer_add_histogram_meta(buffer, info, region, counts)
    assert meta is not None and meta.pixels == 48
    assert [meta.get_counts(c) for c in range(3)] == \
        [counts[0:4], counts[4:8], counts[8:12]]
    assert meta.info.depth == 10 and meta.info.range_max == 1023
    assert meta.info.video_range == limited
    assert meta.get_channel_name(2) == "V"
    assert meta.get_statistics(1).samples == 48
    assert meta.get_statistics(1).flags == H.HistogramStatisticsFlags.NONE

    stats = H.HistogramStatistics()
    stats.samples, stats.below, stats.above = 30, 4, 2
    stats.flags = H.HistogramStatisticsFlags.SUMMARY
    stats.min, stats.max, stats.mean = 3, 900, 412.25
    assert meta.set_statistics(1, stats)
    copy = buffer.copy()
    got = H.buffer_get_histogram_meta_for_region(copy, "zone", 5)
    assert got is not None and got.region.x == 2 and got.region.y == 3
    s = got.get_statistics(1)
    assert (s.samples, s.below, s.above, s.min, s.max, s.mean) == \
        (30, 4, 2, 3, 900, 412.25), (s.samples, s.below, s.mean)
    assert s.flags == H.HistogramStatisticsFlags.SUMMARY
    assert got.get_statistics(0).samples == 48
    assert H.buffer_get_histogram_meta(copy).region.type == "zone"


def main():
    Gst.init(None)
    buffer = pull_one(
        "videotestsrc pattern=smpte num-buffers=1 ! "
        f"video/x-raw,format=RGBA,width={WIDTH},height={HEIGHT} ! "
        f"clhistogram mode=channels bins={BINS} ! appsink name=sink")

    meta = GstClHistogram.buffer_get_histogram_meta(buffer)
    assert meta is not None, "no GstHistogramMeta on the buffer"
    info = meta.info
    assert info.mode == GstClHistogram.HistogramMode.CHANNELS, info.mode
    assert info.n_channels == 4 and info.n_bins == BINS
    assert meta.pixels == WIDTH * HEIGHT
    r = meta.region
    assert (r.x, r.y, r.width, r.height) == (0, 0, WIDTH, HEIGHT)

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
    nv12_stats = [nv12.get_statistics(c) for c in range(3)]
    assert [s.samples for s in nv12_stats] == [64 * 48, 32 * 24, 32 * 24]
    assert [s.below for s in nv12_stats] == [0] * 3
    assert nv12.info.channel_names[:nv12.info.n_channels] == ["Y", "U", "V"]
    assert nv12_stats[0].below == 0 and nv12_stats[0].above == 0
    assert nv12.info.depth == 8 and nv12.info.range_max == 255

    # hue-saturation: one flattened channel and its 2-D shape.
    hs_buffer = pull_one(
        "videotestsrc num-buffers=1 ! video/x-raw,format=RGBx,width=64,height=48 ! "
        "clhistogram mode=hue-saturation bins=30 ! appsink name=sink")
    hs = GstClHistogram.buffer_get_histogram_meta(hs_buffer)
    assert hs.info.mode == GstClHistogram.HistogramMode.HUE_SATURATION
    assert hs.info.shape[:hs.info.n_dims] == [30, 30]
    assert len(hs.get_counts(0)) == 900
    assert sum(hs.get_counts(0)) == 64 * 48

    # Every histogram meta of a buffer, and one region's: the element's
    # full-frame histogram is region "frame", id 0.
    metas = GstClHistogram.buffer_get_histogram_metas(hs_buffer)
    assert len(metas) == 1, metas
    assert (metas[0].region.type, metas[0].region.id) == ("frame", 0)
    assert metas[0].get_counts(0) == hs.get_counts(0)
    frame = GstClHistogram.buffer_get_histogram_meta_for_region(
        hs_buffer, "frame", 0)
    assert frame is not None and frame.info.n_bins == 900
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
    flags = GstClHistogram.HistogramStatisticsFlags
    for c, name in enumerate("RGBA"):
        stats = st.get_statistics(c)
        assert stats.flags & flags.SUMMARY, (name, stats.flags)
        assert not stats.flags & flags.LEGAL_RANGE, (name, stats.flags)
        assert stats.percentile_points == [1.0, 10.0, 50.0, 90.0, 99.0]
        values = sorted(data[c::4])
        n = len(values)
        assert stats.samples == n, (name, stats.samples)
        assert stats.min == values[0] and stats.max == values[-1]
        assert stats.mean == sum(values) / n, (name, stats.mean)
        for p in (0.0, 10.0, 33.3, 50.0, 100.0):
            rank = round(n * p / 100)  # half to even, as lrint
            ok, value = st.get_percentile(c, p)
            assert ok and value == values[max(rank, 1) - 1], (name, p, value)
        want = [values[max(round(n * p / 100), 1) - 1]
                for p in (1.0, 10.0, 50.0, 90.0, 99.0)]
        assert stats.percentiles == want, (name, stats.percentiles)
        high = stats.clipped_high / stats.samples
        assert high == values.count(255) / n, (name, high)
        assert stats.clipped_low == values.count(0)
        # RGB is full range: clipped at the extreme codes.
        assert (stats.clip_low_level, stats.clip_high_level) == (0, 255)
    coarse_buffer = pull_one(
        "videotestsrc num-buffers=1 ! video/x-raw,format=GRAY8,width=64,height=48 ! "
        "clhistogram bins=16 ! appsink name=sink")
    coarse = GstClHistogram.buffer_get_histogram_meta(coarse_buffer)
    assert coarse.get_percentile(0, 90.0)[0]
    assert not coarse.get_percentile(0, 42.0)[0]

    # The metering value: by default the frame's mean luma, in code values
    # and in percent of the (full) range; R, G, B channels have no luma.
    ok, value, percent = coarse.get_metering()
    assert ok and value == coarse.get_statistics(0).mean, (ok, value)
    assert abs(percent - value * 100 / 255) < 1e-9, percent
    assert not st.get_metering()[0]

    check_building_a_meta()

    # A buffer without a histogram gives None.
    assert GstClHistogram.buffer_get_histogram_meta(Gst.Buffer.new()) is None
    print("GstHistogramMeta read from Python matches the frame")
    return 0


if __name__ == "__main__":
    sys.exit(main())
