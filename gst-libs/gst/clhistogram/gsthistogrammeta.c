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
  {GST_HISTOGRAM_MODE_LUMA, "Luma: the sample for GRAY8, BT.601 luma for RGB",
      "luma"},
  {GST_HISTOGRAM_MODE_CHANNELS, "One histogram per channel (R, G, B[, A] or Y)",
      "channels"},
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
 *   `"channels"`), as properties and messages spell it
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
  return TRUE;
}

static void
histogram_meta_free (GstMeta *meta, GstBuffer *buffer)
{
  GstHistogramMeta *hmeta = (GstHistogramMeta *) meta;

  g_strfreev (hmeta->channel_names);
  g_free (hmeta->counts);
}

static gboolean
histogram_meta_transform (GstBuffer *dest, GstMeta *meta, GstBuffer *buffer,
    GQuark type, gpointer data)
{
  GstHistogramMeta *smeta = (GstHistogramMeta *) meta;
  GstMetaTransformCopy *copy = data;

  /* A copy of the whole frame keeps its histogram; a part of it does not,
   * nor does any other transform. */
  if (!GST_META_TRANSFORM_IS_COPY (type) || copy->region)
    return FALSE;

  return gst_buffer_add_histogram_meta (dest, smeta->mode, smeta->n_channels,
      (const gchar * const *) smeta->channel_names, smeta->n_bins,
      smeta->counts, smeta->x, smeta->y, smeta->width, smeta->height) != NULL;
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
 * gst_buffer_add_histogram_meta:
 * @buffer: a writable #GstBuffer
 * @mode: what was counted
 * @n_channels: number of histograms, at least 1
 * @channel_names: (array length=n_channels): name of each channel
 * @n_bins: bins per channel, at least 1
 * @counts: (array): `n_channels * n_bins` counts, channel-major; copied
 * @x: left edge of the analysed rectangle, in pixels
 * @y: top edge of the analysed rectangle, in pixels
 * @width: width of the analysed rectangle, in pixels
 * @height: height of the analysed rectangle, in pixels
 *
 * Attaches a histogram to @buffer.
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
  return meta;
}

/**
 * gst_buffer_get_histogram_meta:
 * @buffer: a #GstBuffer
 *
 * Returns: (transfer none) (nullable): the first #GstHistogramMeta on
 *   @buffer, or %NULL if it has none
 */
GstHistogramMeta *
gst_buffer_get_histogram_meta (GstBuffer *buffer)
{
  g_return_val_if_fail (GST_IS_BUFFER (buffer), NULL);

  return (GstHistogramMeta *) gst_buffer_get_meta (buffer,
      GST_HISTOGRAM_META_API_TYPE);
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
