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
  return TRUE;
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
  return dmeta != NULL;
  return TRUE;
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
