/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:gsthistograminfo
 * @title: GstHistogramInfo
 * @short_description: what a histogram counts and how its bins are laid out
 *
 * A #GstHistogramInfo describes the histograms of a stream as #GstAudioInfo
 * describes its samples: gst_buffer_add_histogram_meta() takes one, and
 * every #GstHistogramMeta holds one in its `info` field.
 *
 * |[<!-- language="C" -->
 * static const gchar *const names[] = { "Y" };
 * const guint shape[] = { 64 };
 * GstHistogramInfo info;
 *
 * gst_histogram_info_init (&info);
 * gst_histogram_info_set_format (&info, GST_HISTOGRAM_MODE_LUMA, 1, names,
 *     1, shape);
 * info.depth = 10;
 * info.range_max = 1023;
 * ]|
 */
#include "gsthistograminfo.h"

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

/**
 * gst_histogram_mode_get_type:
 *
 * Returns: the #GType of #GstHistogramMode
 *
 * Since: 0.1
 */
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
 * The name of @mode in properties and messages.
 *
 * Returns: (transfer none) (nullable): @mode's nick (`"luma"`,
 *   `"channels"`, `"max"`, `"hue"`, `"hue-saturation"`, `"rgb"`), as
 *   properties and messages spell it; %NULL for a value that is no mode
 *
 * Since: 0.1
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

/**
 * gst_histogram_info_get_type:
 *
 * Returns: the #GType of the boxed #GstHistogramInfo
 *
 * Since: 0.1
 */
G_DEFINE_BOXED_TYPE (GstHistogramInfo, gst_histogram_info,
    (GBoxedCopyFunc) gst_histogram_info_copy,
    (GBoxedFreeFunc) gst_histogram_info_free);

/**
 * gst_histogram_info_init:
 * @info: (out caller-allocates): a #GstHistogramInfo
 *
 * Sets @info to one luma channel of no bins, 8-bit samples of unknown
 * colour range binned over 0..255: call gst_histogram_info_set_format()
 * next.
 *
 * Since: 0.1
 */
void
gst_histogram_info_init (GstHistogramInfo *info)
{
  g_return_if_fail (info != NULL);

  memset (info, 0, sizeof (*info));
  info->mode = GST_HISTOGRAM_MODE_LUMA;
  info->n_dims = 1;
  info->depth = 8;
  info->video_range = GST_VIDEO_COLOR_RANGE_UNKNOWN;
  info->range_min = 0;
  info->range_max = 255;
}

/**
 * gst_histogram_info_new:
 *
 * Allocates a #GstHistogramInfo, set as gst_histogram_info_init() sets one.
 *
 * Returns: (transfer full): a #GstHistogramInfo as gst_histogram_info_init()
 *   sets it; free it with gst_histogram_info_free()
 *
 * Since: 0.1
 */
GstHistogramInfo *
gst_histogram_info_new (void)
{
  GstHistogramInfo *info = g_new (GstHistogramInfo, 1);

  gst_histogram_info_init (info);
  return info;
}

/**
 * gst_histogram_info_copy:
 * @info: a #GstHistogramInfo
 *
 * Copies @info.
 *
 * Returns: (transfer full): a copy of @info; free it with
 *   gst_histogram_info_free()
 *
 * Since: 0.1
 */
GstHistogramInfo *
gst_histogram_info_copy (const GstHistogramInfo *info)
{
  g_return_val_if_fail (info != NULL, NULL);

  return g_memdup2 (info, sizeof (*info));
}

/**
 * gst_histogram_info_free:
 * @info: (transfer full): a #GstHistogramInfo from gst_histogram_info_new()
 *   or gst_histogram_info_copy()
 *
 * Frees @info.
 *
 * Since: 0.1
 */
void
gst_histogram_info_free (GstHistogramInfo *info)
{
  g_free (info);
}

/**
 * gst_histogram_info_set_format:
 * @info: a #GstHistogramInfo
 * @mode: what is counted
 * @n_channels: number of histograms, 1..%GST_HISTOGRAM_INFO_MAX_CHANNELS
 * @channel_names: (array length=n_channels): name of each channel
 * @n_dims: 1, 2 or 3
 * @shape: (array length=n_dims): bins along each dimension, each at least
 *   1, outermost first
 *
 * Sets @info's mode, channels and shape; @info->n_bins becomes the
 * product of @shape. The names are interned (g_intern_string()): a name
 * lasts as long as the process, and a new name costs its length once.
 *
 * Returns: %TRUE; %FALSE, leaving @info as it was, if the channels or the
 *   shape are out of range or the product of @shape exceeds %G_MAXUINT32
 *
 * Since: 0.1
 */
gboolean
gst_histogram_info_set_format (GstHistogramInfo *info, GstHistogramMode mode,
    guint n_channels, const gchar * const *channel_names, guint n_dims,
    const guint *shape)
{
  guint64 n_bins = 1;
  guint i;

  g_return_val_if_fail (info != NULL, FALSE);
  g_return_val_if_fail (n_channels >= 1
      && n_channels <= GST_HISTOGRAM_INFO_MAX_CHANNELS, FALSE);
  g_return_val_if_fail (channel_names != NULL, FALSE);
  g_return_val_if_fail (n_dims >= 1 && n_dims <= GST_HISTOGRAM_INFO_MAX_DIMS
      && shape != NULL, FALSE);
  for (i = 0; i < n_channels; i++)
    g_return_val_if_fail (channel_names[i] != NULL, FALSE);
  for (i = 0; i < n_dims; i++) {
    g_return_val_if_fail (shape[i] >= 1, FALSE);
    n_bins *= shape[i];
    g_return_val_if_fail (n_bins <= G_MAXUINT32, FALSE);
  }

  info->mode = mode;
  info->n_channels = n_channels;
  for (i = 0; i < GST_HISTOGRAM_INFO_MAX_CHANNELS; i++)
    info->channel_names[i] = i < n_channels ?
        g_intern_string (channel_names[i]) : NULL;
  info->n_dims = n_dims;
  for (i = 0; i < GST_HISTOGRAM_INFO_MAX_DIMS; i++)
    info->shape[i] = i < n_dims ? shape[i] : 0;
  info->n_bins = (guint) n_bins;
  return TRUE;
}
