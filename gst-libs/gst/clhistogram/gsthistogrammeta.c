/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:gsthistogrammeta
 * @title: GstHistogramMeta
 * @short_description: a frame's histogram, carried on its buffer
 *
 * `clhistogram` attaches one #GstHistogramMeta per histogram it computes to
 * the buffer of the frame. Read it in C:
 *
 * |[<!-- language="C" -->
 * GstHistogramMeta *meta = gst_buffer_get_histogram_meta (buffer);
 * guint n_bins;
 * const guint32 *y = gst_histogram_meta_get_counts (meta, 0, &n_bins);
 * ]|
 *
 * or in Python, through the `GstClHistogram-1.0` typelib:
 *
 * |[<!-- language="Python" -->
 * meta = GstClHistogram.buffer_get_histogram_meta(buffer)
 * counts = meta.get_counts(0)
 * ]|
 */
#include "gsthistogrammeta.h"

#include <gst/video/video.h>

#include <math.h>
#include <string.h>

static const GEnumValue histogram_modes[] = {
  {GST_HISTOGRAM_MODE_LUMA,
      "Luma: the gray sample, the stored Y plane, or BT.601 luma of RGB",
      "luma"},
  {GST_HISTOGRAM_MODE_CHANNELS,
      "One histogram per channel: R, G, B[, A], Y, or Y, U, V", "channels"},
  {GST_HISTOGRAM_MODE_MAX, "Max (R, G, B[, A]) of each pixel (RGB formats)",
      "max"},
  {GST_HISTOGRAM_MODE_HUE, "OpenCV HSV hue, 0..179 (RGB and 8-bit YUV)",
      "hue"},
  {GST_HISTOGRAM_MODE_HUE_SATURATION,
      "2-D hue x saturation, bins per axis, H-major", "hue-saturation"},
  {GST_HISTOGRAM_MODE_RGB, "Joint 3-D R x G x B, bins per axis, R-major "
        "(RGB formats)", "rgb"},
  {0, NULL, NULL},
};

GType
gst_histogram_mode_get_type (void)
{
  static gsize id = 0;

  if (g_once_init_enter (&id)) {
    GType type = g_enum_register_static ("GstHistogramMode", histogram_modes);
    g_once_init_leave (&id, type);
  }
  return (GType) id;
}

/**
 * gst_histogram_mode_get_nick:
 * @mode: a mode
 *
 * Returns: (transfer none) (nullable): @mode's nick (`"luma"`,
 *   `"channels"`, `"max"`, `"hue"`, `"hue-saturation"`, `"rgb"`), as
 *   properties and messages spell it
 */
const gchar *
gst_histogram_mode_get_nick (GstHistogramMode mode)
{
  guint i;

  for (i = 0; histogram_modes[i].value_nick; i++)
    if (histogram_modes[i].value == (gint) mode)
      return histogram_modes[i].value_nick;
  return NULL;
}

static const GEnumValue histogram_tails[] = {
  {GST_HISTOGRAM_TAIL_CLIPPED_LOW, "Samples equal to 0", "clipped-low"},
  {GST_HISTOGRAM_TAIL_CLIPPED_HIGH, "Samples equal to 2^depth - 1",
      "clipped-high"},
  {GST_HISTOGRAM_TAIL_BELOW_LEGAL, "Samples under the legal range",
      "below-legal"},
  {GST_HISTOGRAM_TAIL_ABOVE_LEGAL, "Samples over the legal range",
      "above-legal"},
  {GST_HISTOGRAM_TAIL_BELOW_RANGE, "Samples under the binned range",
      "below"},
  {GST_HISTOGRAM_TAIL_ABOVE_RANGE, "Samples over the binned range", "above"},
  {0, NULL, NULL},
};

GType
gst_histogram_tail_get_type (void)
{
  static gsize id = 0;

  if (g_once_init_enter (&id)) {
    GType type = g_enum_register_static ("GstHistogramTail", histogram_tails);
    g_once_init_leave (&id, type);
  }
  return (GType) id;
}

GType
gst_histogram_meta_api_get_type (void)
{
  static gsize type = 0;
  /* Transforms that change pixels, colours or size drop the meta. */
  static const gchar *tags[] = {
    GST_META_TAG_VIDEO_STR, GST_META_TAG_VIDEO_COLORSPACE_STR,
    GST_META_TAG_VIDEO_SIZE_STR, NULL
  };

  if (g_once_init_enter (&type)) {
    GType t = gst_meta_api_type_register ("GstHistogramMetaAPI", tags);
    g_once_init_leave (&type, t);
  }
  return type;
}

static gboolean
histogram_meta_init (GstMeta *meta, gpointer params, GstBuffer *buffer)
{
  GstHistogramMeta *hmeta = (GstHistogramMeta *) meta;

  hmeta->mode = GST_HISTOGRAM_MODE_LUMA;
  hmeta->n_channels = 0;
  hmeta->channel_names = NULL;
  hmeta->n_bins = 0;
  hmeta->counts = NULL;
  hmeta->pixels = 0;
  hmeta->x = hmeta->y = hmeta->width = hmeta->height = 0;
  hmeta->samples = hmeta->below = hmeta->above = NULL;
  hmeta->depth = 8;
  hmeta->video_range = GST_VIDEO_COLOR_RANGE_UNKNOWN;
  hmeta->range_min = 0;
  hmeta->range_max = 255;
  hmeta->n_dims = 1;
  hmeta->shape[0] = hmeta->shape[1] = hmeta->shape[2] = 0;
  hmeta->region_type = NULL;
  hmeta->region_id = 0;
  hmeta->has_statistics = hmeta->has_legal = FALSE;
  hmeta->n_percentiles = 0;
  hmeta->percentile_points = NULL;
  hmeta->min = hmeta->max = hmeta->percentiles = NULL;
  hmeta->mean = NULL;
  hmeta->clipped_low = hmeta->clipped_high = NULL;
  hmeta->below_legal = hmeta->above_legal = NULL;
  return TRUE;
}

static void
free_statistics (GstHistogramMeta *meta)
{
  g_clear_pointer (&meta->percentile_points, g_free);
  g_clear_pointer (&meta->min, g_free);
  g_clear_pointer (&meta->max, g_free);
  g_clear_pointer (&meta->mean, g_free);
  g_clear_pointer (&meta->percentiles, g_free);
  g_clear_pointer (&meta->clipped_low, g_free);
  g_clear_pointer (&meta->clipped_high, g_free);
  g_clear_pointer (&meta->below_legal, g_free);
  g_clear_pointer (&meta->above_legal, g_free);
  meta->has_statistics = meta->has_legal = FALSE;
  meta->n_percentiles = 0;
}

static void
histogram_meta_free (GstMeta *meta, GstBuffer *buffer)
{
  GstHistogramMeta *hmeta = (GstHistogramMeta *) meta;

  g_strfreev (hmeta->channel_names);
  g_free (hmeta->counts);
  g_free (hmeta->samples);
  g_free (hmeta->below);
  g_free (hmeta->above);
  g_free (hmeta->region_type);
  free_statistics (hmeta);
}

/* @dest's statistics as @src's. */
static void
copy_statistics (GstHistogramMeta *dest, const GstHistogramMeta *src)
{
  const gsize n = src->n_channels;

  if (!src->has_statistics)
    return;
  gst_histogram_meta_set_statistics (dest, src->n_percentiles,
      src->percentile_points, src->has_legal);
  memcpy (dest->min, src->min, n * sizeof (guint));
  memcpy (dest->max, src->max, n * sizeof (guint));
  memcpy (dest->mean, src->mean, n * sizeof (gdouble));
  memcpy (dest->percentiles, src->percentiles,
      n * src->n_percentiles * sizeof (guint));
  memcpy (dest->clipped_low, src->clipped_low, n * sizeof (guint64));
  memcpy (dest->clipped_high, src->clipped_high, n * sizeof (guint64));
  memcpy (dest->below_legal, src->below_legal, n * sizeof (guint64));
  memcpy (dest->above_legal, src->above_legal, n * sizeof (guint64));
}

static gboolean
histogram_meta_transform (GstBuffer *dest, GstMeta *meta, GstBuffer *buffer,
    GQuark type, gpointer data)
{
  GstHistogramMeta *smeta = (GstHistogramMeta *) meta;
  GstHistogramMeta *dmeta;
  GstMetaTransformCopy *copy = data;

  /* A copy of the whole frame keeps its histogram; no other transform
   * does. A part of the frame is a copy that succeeds without the meta, as
   * GstVideoMeta's does: gst_buffer_copy_into() logs an ERROR for a copy
   * whose transform fails. */
  if (!GST_META_TRANSFORM_IS_COPY (type))
    return FALSE;
  if (copy->region)
    return TRUE;

  dmeta = gst_buffer_add_histogram_meta_full (dest, smeta->mode,
      smeta->n_channels, (const gchar * const *) smeta->channel_names,
      smeta->n_bins, smeta->counts, smeta->samples, smeta->below,
      smeta->above, smeta->region_type, smeta->region_id, smeta->x, smeta->y,
      smeta->width, smeta->height, smeta->depth, smeta->video_range,
      smeta->range_min, smeta->range_max, smeta->n_dims, smeta->shape);
  if (dmeta)
    copy_statistics (dmeta, smeta);
  return dmeta != NULL;
}

const GstMetaInfo *
gst_histogram_meta_get_info (void)
{
  static const GstMetaInfo *info = NULL;

  if (g_once_init_enter ((GstMetaInfo **) & info)) {
    const GstMetaInfo *mi = gst_meta_register (GST_HISTOGRAM_META_API_TYPE,
        "GstHistogramMeta", sizeof (GstHistogramMeta), histogram_meta_init,
        histogram_meta_free, histogram_meta_transform);
    g_once_init_leave ((GstMetaInfo **) & info, (GstMetaInfo *) mi);
  }
  return info;
}

/**
 * gst_buffer_add_histogram_meta: (skip)
 * @buffer: a writable #GstBuffer
 * @mode: what was counted
 * @n_channels: number of histograms, at least 1
 * @channel_names: (array length=n_channels): name of each channel
 * @n_bins: bins per channel, at least 1
 * @counts: `n_channels * n_bins` counts, channel-major; copied
 * @x: left edge of the analysed rectangle, in pixels
 * @y: top edge of the analysed rectangle, in pixels
 * @width: width of the analysed rectangle, in pixels
 * @height: height of the analysed rectangle, in pixels
 *
 * Attaches a histogram to @buffer. Each channel is taken to have examined
 * @width x @height samples with none out of range, of 8-bit samples binned
 * over 0..255 in one dimension of @n_bins, of the full frame (region type
 * `"frame"`, id 0): the setters below say otherwise.
 *
 * Returns: (transfer none): the #GstHistogramMeta on @buffer
 */
GstHistogramMeta *
gst_buffer_add_histogram_meta (GstBuffer *buffer, GstHistogramMode mode,
    guint n_channels, const gchar * const *channel_names, guint n_bins,
    const guint32 *counts, guint x, guint y, guint width, guint height)
{
  GstHistogramMeta *meta;
  guint c;

  g_return_val_if_fail (GST_IS_BUFFER (buffer), NULL);
  g_return_val_if_fail (n_channels > 0 && n_bins > 0, NULL);
  g_return_val_if_fail (channel_names != NULL && counts != NULL, NULL);

  meta = (GstHistogramMeta *) gst_buffer_add_meta (buffer,
      GST_HISTOGRAM_META_INFO, NULL);
  if (!meta)
    return NULL;

  meta->mode = mode;
  meta->n_channels = n_channels;
  meta->channel_names = g_new0 (gchar *, n_channels + 1);
  for (c = 0; c < n_channels; c++)
    meta->channel_names[c] = g_strdup (channel_names[c]);
  meta->n_bins = n_bins;
  meta->counts = g_memdup2 (counts, sizeof (guint32) * n_channels * n_bins);
  meta->x = x;
  meta->y = y;
  meta->width = width;
  meta->height = height;
  meta->pixels = (guint64) width * height;
  meta->samples = g_new (guint64, n_channels);
  meta->below = g_new0 (guint64, n_channels);
  meta->above = g_new0 (guint64, n_channels);
  for (c = 0; c < n_channels; c++)
    meta->samples[c] = meta->pixels;
  meta->shape[0] = n_bins;
  meta->region_type = g_strdup ("frame");
  return meta;
}

/**
 * gst_buffer_add_histogram_meta_full: (skip)
 * @buffer: a writable #GstBuffer
 * @mode: what was counted
 * @n_channels: number of histograms, at least 1
 * @channel_names: (array length=n_channels): name of each channel
 * @n_bins: bins per channel, at least 1: the product of @shape
 * @counts: `n_channels * n_bins` counts, channel-major; copied
 * @samples: (array length=n_channels): samples each channel examined
 * @below: (array length=n_channels): samples of each channel under the
 *   binned range, in no bin
 * @above: (array length=n_channels): samples over it, in no bin
 * @region_type: what the rectangle is: `"frame"` for the full frame
 * @region_id: which one of its type (0 for the full frame)
 * @x: left edge of the analysed rectangle, in pixels
 * @y: top edge of the analysed rectangle, in pixels
 * @width: width of the analysed rectangle, in pixels
 * @height: height of the analysed rectangle, in pixels
 * @depth: significant bits per sample
 * @video_range: the frame's colour range, from its caps
 * @range_min: smallest value binned (first dimension)
 * @range_max: largest value binned, inclusive
 * @n_dims: 1, 2 or 3
 * @shape: (array length=n_dims): bins along each dimension
 *
 * Attaches a histogram to @buffer with every field given, as
 * gst_buffer_add_video_meta_full() does for video.
 *
 * Returns: (transfer none) (nullable): the #GstHistogramMeta on @buffer,
 *   or %NULL if the arguments are inconsistent
 */
GstHistogramMeta *
gst_buffer_add_histogram_meta_full (GstBuffer *buffer, GstHistogramMode mode,
    guint n_channels, const gchar * const *channel_names, guint n_bins,
    const guint32 *counts, const guint64 *samples, const guint64 *below,
    const guint64 *above, const gchar *region_type, gint region_id, guint x,
    guint y, guint width, guint height, guint depth,
    GstVideoColorRange video_range, guint range_min, guint range_max,
    guint n_dims, const guint *shape)
{
  GstHistogramMeta *meta;
  guint64 product = 1;
  guint d;

  g_return_val_if_fail (samples != NULL && below != NULL && above != NULL,
      NULL);
  g_return_val_if_fail (region_type != NULL, NULL);
  g_return_val_if_fail (n_dims >= 1 && n_dims <= 3 && shape != NULL, NULL);
  for (d = 0; d < n_dims; d++)
    product *= shape[d];
  g_return_val_if_fail (product == n_bins, NULL);

  meta = gst_buffer_add_histogram_meta (buffer, mode, n_channels,
      channel_names, n_bins, counts, x, y, width, height);
  if (!meta)
    return NULL;
  memcpy (meta->samples, samples, sizeof (guint64) * n_channels);
  memcpy (meta->below, below, sizeof (guint64) * n_channels);
  memcpy (meta->above, above, sizeof (guint64) * n_channels);
  meta->depth = depth;
  meta->video_range = video_range;
  meta->range_min = range_min;
  meta->range_max = range_max;
  meta->n_dims = n_dims;
  for (d = 0; d < 3; d++)
    meta->shape[d] = d < n_dims ? shape[d] : 0;
  gst_histogram_meta_set_region (meta, region_type, region_id);
  return meta;
}

/**
 * gst_buffer_get_histogram_meta:
 * @buffer: a #GstBuffer
 *
 * Returns: (transfer none) (nullable): the full frame's #GstHistogramMeta
 *   on @buffer (region type `"frame"`), else the first, or %NULL if it has
 *   none
 */
GstHistogramMeta *
gst_buffer_get_histogram_meta (GstBuffer *buffer)
{
  GstHistogramMeta *frame;

  g_return_val_if_fail (GST_IS_BUFFER (buffer), NULL);

  frame = gst_buffer_get_histogram_meta_for_region (buffer, "frame", 0);
  return frame ? frame : (GstHistogramMeta *) gst_buffer_get_meta (buffer,
      GST_HISTOGRAM_META_API_TYPE);
}

/**
 * gst_buffer_get_histogram_meta_for_region:
 * @buffer: a #GstBuffer
 * @region_type: the region's type: `"frame"` for the full frame
 * @region_id: its id (0 for the full frame)
 *
 * Returns: (transfer none) (nullable): the #GstHistogramMeta of that
 *   region on @buffer, or %NULL if it has none
 */
GstHistogramMeta *
gst_buffer_get_histogram_meta_for_region (GstBuffer *buffer,
    const gchar *region_type, gint region_id)
{
  gpointer state = NULL;
  GstMeta *meta;

  g_return_val_if_fail (GST_IS_BUFFER (buffer), NULL);
  g_return_val_if_fail (region_type != NULL, NULL);

  while ((meta = gst_buffer_iterate_meta_filtered (buffer, &state,
              GST_HISTOGRAM_META_API_TYPE))) {
    GstHistogramMeta *hmeta = (GstHistogramMeta *) meta;

    if (hmeta->region_id == region_id
        && g_strcmp0 (hmeta->region_type, region_type) == 0)
      return hmeta;
  }
  return NULL;
}

/**
 * gst_buffer_get_histogram_metas:
 * @buffer: a #GstBuffer
 *
 * Returns: (transfer container) (element-type GstHistogramMeta): every
 *   #GstHistogramMeta on @buffer, in the order they were added; free the
 *   list with g_list_free()
 */
GList *
gst_buffer_get_histogram_metas (GstBuffer *buffer)
{
  GList *metas = NULL;
  gpointer state = NULL;
  GstMeta *meta;

  g_return_val_if_fail (GST_IS_BUFFER (buffer), NULL);

  while ((meta = gst_buffer_iterate_meta_filtered (buffer, &state,
              GST_HISTOGRAM_META_API_TYPE)))
    metas = g_list_prepend (metas, meta);
  return g_list_reverse (metas);
}

/**
 * gst_histogram_meta_set_region:
 * @meta: a #GstHistogramMeta
 * @region_type: what the rectangle is: `"frame"` for the full frame
 * @region_id: which one of its type
 *
 * Records which region the histogram is of.
 */
void
gst_histogram_meta_set_region (GstHistogramMeta *meta,
    const gchar *region_type, gint region_id)
{
  g_return_if_fail (meta != NULL && region_type != NULL);
  g_free (meta->region_type);
  meta->region_type = g_strdup (region_type);
  meta->region_id = region_id;
}

/**
 * gst_histogram_meta_get_counts:
 * @meta: a #GstHistogramMeta
 * @channel: channel index, below @meta->n_channels
 * @n_bins: (out): bins of the channel
 *
 * Returns: (transfer none) (array length=n_bins): the channel's counts,
 *   @n_bins guint32 values, bin 0 first
 */
const guint32 *
gst_histogram_meta_get_counts (GstHistogramMeta *meta, guint channel,
    guint *n_bins)
{
  g_return_val_if_fail (meta != NULL, NULL);
  g_return_val_if_fail (channel < meta->n_channels, NULL);

  if (n_bins)
    *n_bins = meta->n_bins;
  return meta->counts + (gsize) channel * meta->n_bins;
}

/**
 * gst_histogram_meta_get_channel_name:
 * @meta: a #GstHistogramMeta
 * @channel: channel index, below @meta->n_channels
 *
 * Returns: (transfer none): the channel's name (`"Y"`, `"R"`, ...)
 */
const gchar *
gst_histogram_meta_get_channel_name (GstHistogramMeta *meta, guint channel)
{
  g_return_val_if_fail (meta != NULL, NULL);
  g_return_val_if_fail (channel < meta->n_channels, NULL);

  return meta->channel_names[channel];
}

/**
 * gst_histogram_meta_get_samples:
 * @meta: a #GstHistogramMeta
 * @channel: channel index, below @meta->n_channels
 *
 * Returns: samples the channel examined: its plane's width x height (for
 *   4:2:0 chroma a quarter of the pixels), or the pixels for colour modes
 */
guint64
gst_histogram_meta_get_samples (GstHistogramMeta *meta, guint channel)
{
  g_return_val_if_fail (meta != NULL && channel < meta->n_channels, 0);
  return meta->samples[channel];
}

/**
 * gst_histogram_meta_get_below:
 * @meta: a #GstHistogramMeta
 * @channel: channel index, below @meta->n_channels
 *
 * Returns: samples of the channel under @meta->range_min, counted in no bin
 */
guint64
gst_histogram_meta_get_below (GstHistogramMeta *meta, guint channel)
{
  g_return_val_if_fail (meta != NULL && channel < meta->n_channels, 0);
  return meta->below[channel];
}

/**
 * gst_histogram_meta_get_above:
 * @meta: a #GstHistogramMeta
 * @channel: channel index, below @meta->n_channels
 *
 * Returns: samples of the channel over @meta->range_max, counted in no bin
 */
guint64
gst_histogram_meta_get_above (GstHistogramMeta *meta, guint channel)
{
  g_return_val_if_fail (meta != NULL && channel < meta->n_channels, 0);
  return meta->above[channel];
}

/**
 * gst_histogram_meta_get_shape:
 * @meta: a #GstHistogramMeta
 * @n_dims: (out): dimensions of each channel's histogram
 *
 * Returns: (transfer none) (array length=n_dims): bins along each
 *   dimension, outermost first (hue then saturation; R, G, B); their
 *   product is @meta->n_bins
 */
const guint *
gst_histogram_meta_get_shape (GstHistogramMeta *meta, guint *n_dims)
{
  g_return_val_if_fail (meta != NULL, NULL);
  if (n_dims)
    *n_dims = meta->n_dims;
  return meta->shape;
}

/**
 * gst_histogram_meta_set_channel_stats:
 * @meta: a #GstHistogramMeta
 * @channel: channel index, below @meta->n_channels
 * @samples: samples the channel examined
 * @below: samples under the range, in no bin
 * @above: samples over the range, in no bin
 *
 * Records what a channel examined besides its bins.
 */
void
gst_histogram_meta_set_channel_stats (GstHistogramMeta *meta, guint channel,
    guint64 samples, guint64 below, guint64 above)
{
  g_return_if_fail (meta != NULL && channel < meta->n_channels);
  meta->samples[channel] = samples;
  meta->below[channel] = below;
  meta->above[channel] = above;
}

/**
 * gst_histogram_meta_set_sample_format:
 * @meta: a #GstHistogramMeta
 * @depth: significant bits per sample
 * @video_range: the frame's colour range, from its caps
 * @range_min: smallest value binned
 * @range_max: largest value binned, inclusive
 *
 * Records the samples' depth and range and the binned range.
 */
void
gst_histogram_meta_set_sample_format (GstHistogramMeta *meta, guint depth,
    GstVideoColorRange video_range, guint range_min, guint range_max)
{
  g_return_if_fail (meta != NULL);
  meta->depth = depth;
  meta->video_range = video_range;
  meta->range_min = range_min;
  meta->range_max = range_max;
}

/**
 * gst_histogram_meta_set_shape:
 * @meta: a #GstHistogramMeta
 * @n_dims: 1, 2 or 3
 * @shape: (array length=n_dims): bins along each dimension; their product
 *   must be @meta->n_bins
 *
 * Records the shape of a multi-dimensional histogram.
 */
void
gst_histogram_meta_set_shape (GstHistogramMeta *meta, guint n_dims,
    const guint *shape)
{
  guint d, product = 1;

  g_return_if_fail (meta != NULL && n_dims >= 1 && n_dims <= 3);
  for (d = 0; d < n_dims; d++)
    product *= shape[d];
  g_return_if_fail (product == meta->n_bins);
  meta->n_dims = n_dims;
  for (d = 0; d < 3; d++)
    meta->shape[d] = d < n_dims ? shape[d] : 0;
}

/**
 * gst_histogram_meta_set_statistics: (skip)
 * @meta: a #GstHistogramMeta of a 1-D mode
 * @n_percentiles: percentiles reported per channel
 * @percentile_points: (array length=n_percentiles): each p, 0..100
 * @has_legal: whether the legal-range counts are known (limited-range
 *   video)
 *
 * Makes room for the statistics, zeroed; fill each channel's with
 * gst_histogram_meta_set_channel_statistics().
 */
void
gst_histogram_meta_set_statistics (GstHistogramMeta *meta,
    guint n_percentiles, const gdouble *percentile_points,
    gboolean has_legal)
{
  const gsize n = meta->n_channels;

  g_return_if_fail (meta != NULL);
  g_return_if_fail (n_percentiles == 0 || percentile_points != NULL);

  free_statistics (meta);
  meta->has_statistics = TRUE;
  meta->has_legal = has_legal;
  meta->n_percentiles = n_percentiles;
  meta->percentile_points = g_memdup2 (percentile_points,
      sizeof (gdouble) * n_percentiles);
  meta->min = g_new0 (guint, n);
  meta->max = g_new0 (guint, n);
  meta->mean = g_new0 (gdouble, n);
  meta->percentiles = g_new0 (guint, n * MAX (n_percentiles, 1));
  meta->clipped_low = g_new0 (guint64, n);
  meta->clipped_high = g_new0 (guint64, n);
  meta->below_legal = g_new0 (guint64, n);
  meta->above_legal = g_new0 (guint64, n);
}

/**
 * gst_histogram_meta_set_channel_statistics: (skip)
 * @meta: a #GstHistogramMeta after gst_histogram_meta_set_statistics()
 * @channel: channel index, below @meta->n_channels
 * @min: the smallest sample value
 * @max: the largest
 * @mean: the mean sample value
 * @percentiles: (array): one value per percentile point
 * @clipped_low: samples equal to 0
 * @clipped_high: samples equal to 2^depth - 1
 * @below_legal: samples under the legal range
 * @above_legal: samples over it
 *
 * Records one channel's statistics.
 */
void
gst_histogram_meta_set_channel_statistics (GstHistogramMeta *meta,
    guint channel, guint min, guint max, gdouble mean,
    const guint *percentiles, guint64 clipped_low, guint64 clipped_high,
    guint64 below_legal, guint64 above_legal)
{
  g_return_if_fail (meta != NULL && meta->has_statistics);
  g_return_if_fail (channel < meta->n_channels);

  meta->min[channel] = min;
  meta->max[channel] = max;
  meta->mean[channel] = mean;
  if (meta->n_percentiles)
    memcpy (meta->percentiles + (gsize) channel * meta->n_percentiles,
        percentiles, sizeof (guint) * meta->n_percentiles);
  meta->clipped_low[channel] = clipped_low;
  meta->clipped_high[channel] = clipped_high;
  meta->below_legal[channel] = below_legal;
  meta->above_legal[channel] = above_legal;
}

/**
 * gst_histogram_meta_has_statistics:
 * @meta: a #GstHistogramMeta
 *
 * Returns: whether @meta carries statistics: `clhistogram` computes them
 *   for the modes `luma`, `channels` and `max` unless its `statistics`
 *   property is %FALSE
 */
gboolean
gst_histogram_meta_has_statistics (GstHistogramMeta *meta)
{
  g_return_val_if_fail (meta != NULL, FALSE);
  return meta->has_statistics;
}

/**
 * gst_histogram_meta_has_legal_range:
 * @meta: a #GstHistogramMeta
 *
 * Returns: whether the legal-range counts are known: statistics of
 *   limited-range video (the caps' `colorimetry`)
 */
gboolean
gst_histogram_meta_has_legal_range (GstHistogramMeta *meta)
{
  g_return_val_if_fail (meta != NULL, FALSE);
  return meta->has_statistics && meta->has_legal;
}

static gboolean
check_statistics (GstHistogramMeta *meta, guint channel)
{
  g_return_val_if_fail (meta != NULL, FALSE);
  g_return_val_if_fail (channel < meta->n_channels, FALSE);
  g_return_val_if_fail (meta->has_statistics, FALSE);
  return TRUE;
}

/**
 * gst_histogram_meta_get_min:
 * @meta: a #GstHistogramMeta with statistics
 * @channel: channel index, below @meta->n_channels
 *
 * Returns: the channel's smallest sample value (0 without samples)
 */
guint
gst_histogram_meta_get_min (GstHistogramMeta *meta, guint channel)
{
  return check_statistics (meta, channel) ? meta->min[channel] : 0;
}

/**
 * gst_histogram_meta_get_max:
 * @meta: a #GstHistogramMeta with statistics
 * @channel: channel index, below @meta->n_channels
 *
 * Returns: the channel's largest sample value (0 without samples)
 */
guint
gst_histogram_meta_get_max (GstHistogramMeta *meta, guint channel)
{
  return check_statistics (meta, channel) ? meta->max[channel] : 0;
}

/**
 * gst_histogram_meta_get_mean:
 * @meta: a #GstHistogramMeta with statistics
 * @channel: channel index, below @meta->n_channels
 *
 * Returns: the exact mean of the channel's sample values (the sum of the
 *   values over the samples, not of bin centres; 0.0 without samples)
 */
gdouble
gst_histogram_meta_get_mean (GstHistogramMeta *meta, guint channel)
{
  return check_statistics (meta, channel) ? meta->mean[channel] : 0.0;
}

/**
 * gst_histogram_meta_get_percentile_points:
 * @meta: a #GstHistogramMeta
 * @n_percentiles: (out): how many
 *
 * Returns: (transfer none) (array length=n_percentiles): the percentiles
 *   computed when the frame was counted (`clhistogram`'s `percentiles`),
 *   each 0..100
 */
const gdouble *
gst_histogram_meta_get_percentile_points (GstHistogramMeta *meta,
    guint *n_percentiles)
{
  g_return_val_if_fail (meta != NULL, NULL);
  if (n_percentiles)
    *n_percentiles = meta->n_percentiles;
  return meta->percentile_points;
}

/**
 * gst_histogram_meta_get_percentiles:
 * @meta: a #GstHistogramMeta with statistics
 * @channel: channel index, below @meta->n_channels
 * @n_percentiles: (out): how many
 *
 * Returns: (transfer none) (array length=n_percentiles): the channel's
 *   value at each of gst_histogram_meta_get_percentile_points()
 */
const guint *
gst_histogram_meta_get_percentiles (GstHistogramMeta *meta, guint channel,
    guint *n_percentiles)
{
  if (n_percentiles)
    *n_percentiles = 0;
  if (!check_statistics (meta, channel))
    return NULL;
  if (n_percentiles)
    *n_percentiles = meta->n_percentiles;
  return meta->percentiles + (gsize) channel * meta->n_percentiles;
}

/* The percentile from bins of one value each, walking up from the
 * samples under the range; FALSE where the rank falls outside the bins,
 * whose values are not known one by one. */
static gboolean
percentile_from_bins (GstHistogramMeta *meta, guint channel, guint64 rank,
    guint *value)
{
  const guint32 *counts = meta->counts + (gsize) channel * meta->n_bins;
  guint64 cumulative = meta->below[channel];
  guint b;

  if (rank <= cumulative && meta->below[channel] > 0)
    return FALSE;
  for (b = 0; b < meta->n_bins; b++) {
    if (counts[b] == 0)
      continue;
    cumulative += counts[b];
    if (cumulative >= rank) {
      *value = meta->range_min + b;
      return TRUE;
    }
  }
  return FALSE;
}

/**
 * gst_histogram_meta_get_percentile:
 * @meta: a #GstHistogramMeta
 * @channel: channel index, below @meta->n_channels
 * @p: the percentile, 0..100
 * @value: (out): the smallest sample value v such that the samples <= v
 *   number at least `lrint (N * p / 100)`, N the channel's samples (FFmpeg
 *   signalstats' rule, its YLOW and YHIGH at p = 10 and 90; a rank of 0
 *   gives the smallest sample, no samples give 0)
 *
 * Any percentile, exactly: one of gst_histogram_meta_get_percentile_points()
 * from the statistics, any other from the counts when each bin holds one
 * sample value (the default for 8-bit samples: 256 bins over 0..255).
 *
 * Returns: %TRUE if @value is known; %FALSE for a p that was not computed
 *   when the bins are coarser than the samples (ask `clhistogram` for it
 *   with its `percentiles` property)
 */
gboolean
gst_histogram_meta_get_percentile (GstHistogramMeta *meta, guint channel,
    gdouble p, guint *value)
{
  guint64 rank;
  guint i;

  g_return_val_if_fail (meta != NULL && value != NULL, FALSE);
  g_return_val_if_fail (channel < meta->n_channels, FALSE);
  g_return_val_if_fail (p >= 0.0 && p <= 100.0, FALSE);

  for (i = 0; meta->has_statistics && i < meta->n_percentiles; i++) {
    if (meta->percentile_points[i] == p) {
      *value = meta->percentiles[(gsize) channel * meta->n_percentiles + i];
      return TRUE;
    }
  }
  if (meta->n_dims != 1
      || meta->n_bins != meta->range_max - meta->range_min + 1)
    return FALSE;
  *value = 0;
  if (meta->samples[channel] == 0)
    return TRUE;
  rank = (guint64) llrint ((gdouble) meta->samples[channel] * p / 100.0);
  if (rank == 0 && meta->has_statistics) {
    *value = meta->min[channel];
    return TRUE;
  }
  return percentile_from_bins (meta, channel, MAX (rank, 1), value);
}

/**
 * gst_histogram_meta_get_tail:
 * @meta: a #GstHistogramMeta
 * @channel: channel index, below @meta->n_channels
 * @tail: which samples
 *
 * Returns: how many of the channel's samples @tail counts; 0 for the
 *   clipped and legal-range counts of a meta without them (see
 *   gst_histogram_meta_has_statistics() and
 *   gst_histogram_meta_has_legal_range())
 */
guint64
gst_histogram_meta_get_tail (GstHistogramMeta *meta, guint channel,
    GstHistogramTail tail)
{
  g_return_val_if_fail (meta != NULL && channel < meta->n_channels, 0);

  switch (tail) {
    case GST_HISTOGRAM_TAIL_BELOW_RANGE:
      return meta->below[channel];
    case GST_HISTOGRAM_TAIL_ABOVE_RANGE:
      return meta->above[channel];
    default:
      break;
  }
  if (!meta->has_statistics)
    return 0;
  switch (tail) {
    case GST_HISTOGRAM_TAIL_CLIPPED_LOW:
      return meta->clipped_low[channel];
    case GST_HISTOGRAM_TAIL_CLIPPED_HIGH:
      return meta->clipped_high[channel];
    case GST_HISTOGRAM_TAIL_BELOW_LEGAL:
      return meta->has_legal ? meta->below_legal[channel] : 0;
    case GST_HISTOGRAM_TAIL_ABOVE_LEGAL:
      return meta->has_legal ? meta->above_legal[channel] : 0;
    default:
      g_return_val_if_reached (0);
  }
}

/**
 * gst_histogram_meta_get_fraction:
 * @meta: a #GstHistogramMeta
 * @channel: channel index, below @meta->n_channels
 * @tail: which samples
 *
 * Returns: gst_histogram_meta_get_tail() over the channel's samples,
 *   0..1 (0.0 without samples): e.g. the share of clipped highlights
 */
gdouble
gst_histogram_meta_get_fraction (GstHistogramMeta *meta, guint channel,
    GstHistogramTail tail)
{
  g_return_val_if_fail (meta != NULL && channel < meta->n_channels, 0.0);
  if (meta->samples[channel] == 0)
    return 0.0;
  return (gdouble) gst_histogram_meta_get_tail (meta, channel, tail)
      / (gdouble) meta->samples[channel];
}
