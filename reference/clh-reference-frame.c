/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "clh-reference-frame.h"

/**
 * clh_reference_histogram_of_buffer_region:
 * @info: the buffer's format
 * @buffer: a frame of that format (a #GstVideoMeta, if any, is honoured)
 * @mode: a mode nick
 * @bins: bins per axis
 * @range_min: smallest value binned
 * @range_max: largest value binned, -1 for the format's maximum
 * @region: (nullable): a rectangle of the frame's pixels, as
 *   clh_reference_histogram_region() counts it; %NULL: the whole frame
 * @spec: (out): what was counted
 * @histogram: (out): the result; its counts are allocated here, free them
 *   with g_free()
 *
 * Returns: %FALSE if the format or mode is not in the oracle's table, or the
 *   buffer cannot be mapped.
 */
/* @frame's planes pointed into @vframe, mapped from @buffer; FALSE if the
 * format or mode is not in the oracle's table or the buffer cannot be
 * mapped. */
static gboolean
map_reference_frame (const GstVideoInfo *info, GstBuffer *buffer,
    const gchar *mode, guint bins, ClhFrame *frame, ClhFormatClass *klass,
    ClhHistogramSpec *spec, GstVideoFrame *vframe)
{
  guint p;

  if (!clh_reference_layout (GST_VIDEO_INFO_NAME (info), frame, klass)
      || !clh_reference_spec (*klass, frame, mode, bins, spec)
      || !gst_video_frame_map (vframe, info, buffer, GST_MAP_READ))
    return FALSE;
  frame->width = GST_VIDEO_FRAME_WIDTH (vframe);
  frame->height = GST_VIDEO_FRAME_HEIGHT (vframe);
  for (p = 0; p < frame->n_planes; p++) {
    frame->planes[p].data = GST_VIDEO_FRAME_PLANE_DATA (vframe, p);
    frame->planes[p].stride = GST_VIDEO_FRAME_PLANE_STRIDE (vframe, p);
  }
  return TRUE;
}

/**
 * clh_reference_stats_of_buffer_region_clipped:
 * @info: the buffer's format; its colorimetry's range says whether the
 *   stream is limited range
 * @buffer: a frame of that format
 * @mode: `luma`, `channels` or `max`
 * @region: (nullable): a rectangle of the frame's pixels; %NULL: the whole
 *   frame
 * @clip_low_percent: the clip-low level in percent of each channel's
 *   nominal range (`clhistogram`'s `clip-low-level`)
 * @clip_high_percent: the clip-high level, likewise
 * @ps: (array length=n_ps): the percentiles asked for
 * @n_ps: how many
 * @stats: (out caller-allocates) (array): one per channel
 *
 * clh_reference_stats_region() on a buffer, with the legal range of
 * BT.601 (16..235, chroma 16..240) scaled to the samples' depth, and the
 * clip levels at the given percentages of each channel's nominal range
 * for the caps' range (clh_reference_clip_level()). The values of luma
 * and of max are 8-bit, and so are their levels.
 *
 * Returns: %FALSE if the format or mode is not in the oracle's table, the
 *   mode has no statistics, or the buffer cannot be mapped
 */
gboolean
clh_reference_stats_of_buffer_region_clipped (const GstVideoInfo *info,
    GstBuffer *buffer, const gchar *mode, const ClhRect *region,
    gdouble clip_low_percent, gdouble clip_high_percent, const gdouble *ps,
    guint n_ps, ClhStats *stats)
{
  const gboolean limited = GST_VIDEO_INFO_COLORIMETRY (info).range
      == GST_VIDEO_COLOR_RANGE_16_235;
  guint low[CLH_MAX_CHANNELS], high[CLH_MAX_CHANNELS];
  guint clip_low[CLH_MAX_CHANNELS], clip_high[CLH_MAX_CHANNELS], c, depth;
  ClhFormatClass klass;
  ClhFrame frame = { 0 };
  ClhHistogramSpec spec;
  GstVideoFrame vframe;
  ClhRect whole;
  gboolean ok;

  if (!map_reference_frame (info, buffer, mode, 1, &frame, &klass, &spec,
          &vframe))
    return FALSE;
  depth = spec.count == CLH_COUNT_COMPONENTS ? frame.depth : 8;
  for (c = 0; c < CLH_MAX_CHANNELS; c++) {
    const gboolean chroma = klass == CLH_FORMAT_YUV && c > 0
        && g_strcmp0 (mode, "channels") == 0;

    low[c] = 16u << (depth - 8);
    high[c] = (chroma ? 240u : 235u) << (depth - 8);
    clip_low[c] = clh_reference_clip_level (depth, limited, chroma,
        clip_low_percent);
    clip_high[c] = clh_reference_clip_level (depth, limited, chroma,
        clip_high_percent);
  }
  whole = (ClhRect) { 0, 0, (gint) frame.width, (gint) frame.height };
  ok = clh_reference_stats_region (&frame, &spec, region ? region : &whole,
      low, high, clip_low, clip_high, ps, n_ps, stats);
  gst_video_frame_unmap (&vframe);
  return ok;
}

/**
 * clh_reference_stats_of_buffer_region:
 * @info: the buffer's format
 * @buffer: a frame of that format
 * @mode: `luma`, `channels` or `max`
 * @region: (nullable): a rectangle of the frame's pixels; %NULL: the whole
 *   frame
 * @ps: (array length=n_ps): the percentiles asked for
 * @n_ps: how many
 * @stats: (out caller-allocates) (array): one per channel
 *
 * clh_reference_stats_of_buffer_region_clipped() with the clip levels at
 * the channels' nominal black and white (0 and 100 percent), as
 * `clhistogram` counts them by default.
 *
 * Returns: %FALSE if the format or mode is not in the oracle's table, the
 *   mode has no statistics, or the buffer cannot be mapped
 */
gboolean
clh_reference_stats_of_buffer_region (const GstVideoInfo *info,
    GstBuffer *buffer, const gchar *mode, const ClhRect *region,
    const gdouble *ps, guint n_ps, ClhStats *stats)
{
  return clh_reference_stats_of_buffer_region_clipped (info, buffer, mode,
      region, 0.0, 100.0, ps, n_ps, stats);
}

gboolean
clh_reference_histogram_of_buffer_region (const GstVideoInfo *info,
    GstBuffer *buffer, const gchar *mode, guint bins, guint range_min,
    gint range_max, const ClhRect *region, ClhHistogramSpec *spec,
    ClhHistogram *histogram)
{
  ClhFormatClass klass;
  ClhFrame frame = { 0 };
  GstVideoFrame vframe;
  ClhRect whole;

  if (!map_reference_frame (info, buffer, mode, bins, &frame, &klass, spec,
          &vframe))
    return FALSE;

  spec->range_min = range_min;
  if (range_max >= 0)
    spec->range_max = range_max;
  whole = (ClhRect) { 0, 0, (gint) frame.width, (gint) frame.height };
  histogram->counts = g_new (guint32, clh_reference_n_channels (spec)
      * clh_reference_n_bins (spec));
  clh_reference_histogram_region (&frame, spec, region ? region : &whole,
      histogram);
  gst_video_frame_unmap (&vframe);
  return TRUE;
}

/**
 * clh_reference_histogram_of_buffer:
 * @info: the buffer's format
 * @buffer: a frame of that format (a #GstVideoMeta, if any, is honoured)
 * @mode: a mode nick
 * @bins: bins per axis
 * @range_min: smallest value binned
 * @range_max: largest value binned, -1 for the format's maximum
 * @spec: (out): what was counted
 * @histogram: (out): the result; its counts are allocated here, free them
 *   with g_free()
 *
 * The whole frame: clh_reference_histogram_of_buffer_region() with no
 * region.
 *
 * Returns: %FALSE if the format or mode is not in the oracle's table, or the
 *   buffer cannot be mapped.
 */
gboolean
clh_reference_histogram_of_buffer (const GstVideoInfo *info,
    GstBuffer *buffer, const gchar *mode, guint bins, guint range_min,
    gint range_max, ClhHistogramSpec *spec, ClhHistogram *histogram)
{
  return clh_reference_histogram_of_buffer_region (info, buffer, mode, bins,
      range_min, range_max, NULL, spec, histogram);
}

/**
 * clh_reference_marks_of_buffer:
 * @info: the buffer's format
 * @buffer: a frame of that format (a #GstVideoMeta, if any, is honoured)
 * @spec: the marks, valid for the format (its components in the order of
 *   the oracle's table: R, G, B or Y, U, V)
 *
 * Returns: (transfer full) (nullable): a copy of @buffer, every byte as
 *   in @buffer but the samples clh_reference_marks() marks, or %NULL if the
 *   format is not in the oracle's table or a buffer cannot be mapped
 */
GstBuffer *
clh_reference_marks_of_buffer (const GstVideoInfo *info, GstBuffer *buffer,
    const ClhMarksSpec *spec)
{
  GstBuffer *copy = gst_buffer_copy_deep (buffer);
  GstVideoFrame in, out;
  guint8 *dest[CLH_MAX_PLANES] = { NULL };
  ClhFormatClass klass;
  ClhFrame frame;
  guint p;

  if (!clh_reference_layout (GST_VIDEO_INFO_NAME (info), &frame, &klass)
      || !gst_video_frame_map (&in, info, buffer, GST_MAP_READ)) {
    gst_buffer_unref (copy);
    return NULL;
  }
  if (!gst_video_frame_map (&out, info, copy, GST_MAP_WRITE)) {
    gst_video_frame_unmap (&in);
    gst_buffer_unref (copy);
    return NULL;
  }
  frame.width = GST_VIDEO_INFO_WIDTH (info);
  frame.height = GST_VIDEO_INFO_HEIGHT (info);
  for (p = 0; p < frame.n_planes; p++) {
    frame.planes[p].data = GST_VIDEO_FRAME_PLANE_DATA (&in, p);
    frame.planes[p].stride = GST_VIDEO_FRAME_PLANE_STRIDE (&in, p);
    dest[p] = GST_VIDEO_FRAME_PLANE_DATA (&out, p);
  }
  clh_reference_marks (&frame, spec, dest);
  gst_video_frame_unmap (&out);
  gst_video_frame_unmap (&in);
  return copy;
}
