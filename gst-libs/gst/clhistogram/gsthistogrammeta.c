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
 * const GstHistogramStatistics *stats;
 * guint n_bins;
 * const guint32 *y = gst_histogram_meta_get_counts (meta, 0, &n_bins);
 *
 * stats = gst_histogram_meta_get_statistics (meta, 0);
 * if (stats->flags & GST_HISTOGRAM_STATISTICS_FLAG_SUMMARY)
 *   g_print ("mean %f of %" G_GUINT64_FORMAT " samples\n", stats->mean,
 *       stats->samples);
 * ]|
 *
 * or in Python, through the `GstClHistogram-1.0` typelib:
 *
 * ```python
 * meta = GstClHistogram.buffer_get_histogram_meta(buffer)
 * counts = meta.get_counts(0)
 * mean = meta.get_statistics(0).mean
 * ```
 *
 * A meta is part of its buffer and lives as long as the buffer does: read
 * it while you hold the buffer (or the #GstSample, or the probe's
 * #GstPadProbeInfo, that holds it), and copy what you keep. From Python,
 * `get_counts()` returns a copy, which outlives the buffer; the meta
 * object does not: one kept after its buffer is freed points into freed
 * memory, and reading it is undefined behaviour, as for any #GstMeta.
 *
 * To attach one, describe the histograms once with a #GstHistogramInfo
 * and give each its #GstHistogramRegion and counts:
 *
 * |[<!-- language="C" -->
 * GstHistogramRegion region = { GST_HISTOGRAM_REGION_FRAME, 0, 0, 0,
 *   width, height };
 * meta = gst_buffer_add_histogram_meta (buffer, &info, &region, counts,
 *     info.n_channels * info.n_bins);
 * ]|
 */
#include "gsthistogrammeta.h"

#include <math.h>
#include <string.h>

/**
 * gst_histogram_region_new:
 * @type: what the rectangle is: %GST_HISTOGRAM_REGION_FRAME for the full
 *   frame
 * @id: which one of its type
 * @x: left edge, in pixels
 * @y: top edge, in pixels
 * @width: width, in pixels
 * @height: height, in pixels
 *
 * Allocates a #GstHistogramRegion.
 *
 * Returns: (transfer full): a #GstHistogramRegion with @type interned;
 *   free it with gst_histogram_region_free()
 *
 * Since: 0.1
 */
GstHistogramRegion *
gst_histogram_region_new (const gchar *type, gint id, guint x, guint y,
    guint width, guint height)
{
  GstHistogramRegion *region;

  g_return_val_if_fail (type != NULL, NULL);

  region = g_new0 (GstHistogramRegion, 1);
  region->type = g_intern_string (type);
  region->id = id;
  region->x = x;
  region->y = y;
  region->width = width;
  region->height = height;
  return region;
}

/**
 * gst_histogram_region_copy:
 * @region: a #GstHistogramRegion
 *
 * Copies @region.
 *
 * Returns: (transfer full): a copy of @region, its type interned; free it
 *   with gst_histogram_region_free()
 *
 * Since: 0.1
 */
GstHistogramRegion *
gst_histogram_region_copy (const GstHistogramRegion *region)
{
  GstHistogramRegion *copy;

  g_return_val_if_fail (region != NULL, NULL);

  copy = g_memdup2 (region, sizeof (*region));
  copy->type = g_intern_string (region->type);
  return copy;
}

/**
 * gst_histogram_region_free:
 * @region: (transfer full): a #GstHistogramRegion from
 *   gst_histogram_region_new() or gst_histogram_region_copy()
 *
 * Frees @region.
 *
 * Since: 0.1
 */
void
gst_histogram_region_free (GstHistogramRegion *region)
{
  g_free (region);
}

/**
 * gst_histogram_region_get_type:
 *
 * Returns: the #GType of the boxed #GstHistogramRegion
 *
 * Since: 0.1
 */
G_DEFINE_BOXED_TYPE (GstHistogramRegion, gst_histogram_region,
    (GBoxedCopyFunc) gst_histogram_region_copy,
    (GBoxedFreeFunc) gst_histogram_region_free);

/**
 * gst_histogram_statistics_flags_get_type:
 *
 * Returns: the #GType of #GstHistogramStatisticsFlags
 *
 * Since: 0.1
 */
GType
gst_histogram_statistics_flags_get_type (void)
{
  static const GFlagsValue values[] = {
    {GST_HISTOGRAM_STATISTICS_FLAG_NONE, "Samples, below and above only",
        "none"},
    {GST_HISTOGRAM_STATISTICS_FLAG_SUMMARY,
        "Min, max, mean, percentiles, clipped samples", "summary"},
    {GST_HISTOGRAM_STATISTICS_FLAG_LEGAL_RANGE,
        "Samples under and over the legal range", "legal-range"},
    {0, NULL, NULL},
  };
  static gsize id = 0;

  if (g_once_init_enter (&id)) {
    GType type = g_flags_register_static ("GstHistogramStatisticsFlags",
        values);
    g_once_init_leave (&id, type);
  }
  return (GType) id;
}

/* @dest as @src, with @dest's percentile points and values in one block
 * of its own (the points first), or none; @dest holds nothing before. */
static void
statistics_copy_into (GstHistogramStatistics *dest,
    const GstHistogramStatistics *src)
{
  const gsize n = src->n_percentiles;

  *dest = *src;
  dest->percentile_points = NULL;
  dest->percentiles = NULL;
  if (n == 0)
    return;
  dest->percentile_points = g_malloc (n * (sizeof (gdouble) + sizeof (guint)));
  dest->percentiles = (guint *) (dest->percentile_points + n);
  memcpy (dest->percentile_points, src->percentile_points,
      n * sizeof (gdouble));
  memcpy (dest->percentiles, src->percentiles, n * sizeof (guint));
}

/**
 * gst_histogram_statistics_copy:
 * @statistics: a #GstHistogramStatistics
 *
 * Copies @statistics, its percentiles too.
 *
 * Returns: (transfer full): a copy of @statistics holding its own
 *   percentiles; free it with gst_histogram_statistics_free()
 *
 * Since: 0.1
 */
GstHistogramStatistics *
gst_histogram_statistics_copy (const GstHistogramStatistics *statistics)
{
  GstHistogramStatistics *copy;

  g_return_val_if_fail (statistics != NULL, NULL);

  copy = g_new (GstHistogramStatistics, 1);
  statistics_copy_into (copy, statistics);
  return copy;
}

/**
 * gst_histogram_statistics_free:
 * @statistics: (transfer full): a #GstHistogramStatistics from
 *   gst_histogram_statistics_copy()
 *
 * Frees @statistics and its percentiles.
 *
 * Since: 0.1
 */
void
gst_histogram_statistics_free (GstHistogramStatistics *statistics)
{
  if (!statistics)
    return;
  g_free (statistics->percentile_points);
  g_free (statistics);
}

/**
 * gst_histogram_statistics_get_type:
 *
 * Returns: the #GType of the boxed #GstHistogramStatistics
 *
 * Since: 0.1
 */
G_DEFINE_BOXED_TYPE (GstHistogramStatistics, gst_histogram_statistics,
    (GBoxedCopyFunc) gst_histogram_statistics_copy,
    (GBoxedFreeFunc) gst_histogram_statistics_free);

/**
 * gst_histogram_meta_api_get_type:
 *
 * The API type #GstHistogramMeta is found by, as gst_buffer_get_meta()
 * takes it.
 *
 * Returns: the #GType of the `"GstHistogramMetaAPI"` meta API, tagged
 *   `video`, `colorspace` and `size`
 *
 * Since: 0.1
 */
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

  gst_histogram_info_init (&hmeta->info);
  memset (&hmeta->region, 0, sizeof (hmeta->region));
  hmeta->region.type = GST_HISTOGRAM_REGION_FRAME;
  hmeta->pixels = 0;
  hmeta->counts = NULL;
  hmeta->statistics = NULL;
  hmeta->metering = NULL;
  return TRUE;
}

static void
histogram_meta_free (GstMeta *meta, GstBuffer *buffer)
{
  GstHistogramMeta *hmeta = (GstHistogramMeta *) meta;
  guint c;

  for (c = 0; hmeta->statistics && c < hmeta->info.n_channels; c++)
    g_free (hmeta->statistics[c].percentile_points);
  g_free (hmeta->statistics);
  g_free (hmeta->counts);
  g_free (hmeta->metering);
}

static gboolean
histogram_meta_transform (GstBuffer *dest, GstMeta *meta, GstBuffer *buffer,
    GQuark type, gpointer data)
{
  GstHistogramMeta *smeta = (GstHistogramMeta *) meta;
  GstHistogramMeta *dmeta;
  GstMetaTransformCopy *copy = data;
  guint c;

  /* A copy of the whole frame keeps its histogram; no other transform
   * does. A part of the frame is a copy that succeeds without the meta, as
   * GstVideoMeta's does: gst_buffer_copy_into() logs an ERROR for a copy
   * whose transform fails. */
  if (!GST_META_TRANSFORM_IS_COPY (type))
    return FALSE;
  if (copy->region)
    return TRUE;

  dmeta = gst_buffer_add_histogram_meta (dest, &smeta->info, &smeta->region,
      smeta->counts, (gsize) smeta->info.n_channels * smeta->info.n_bins);
  if (!dmeta)
    return FALSE;
  for (c = 0; c < smeta->info.n_channels; c++)
    gst_histogram_meta_set_statistics (dmeta, c, &smeta->statistics[c]);
  if (smeta->metering)
    gst_histogram_meta_set_metering (dmeta, smeta->metering[0],
        smeta->metering[1]);
  return TRUE;
}

/**
 * gst_histogram_meta_get_info:
 *
 * The #GstMetaInfo that registers #GstHistogramMeta.
 *
 * Returns: (transfer none): the #GstMetaInfo of #GstHistogramMeta
 *
 * Since: 0.1
 */
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

/* Whether @info describes histograms a meta can hold. */
static gboolean
info_is_valid (const GstHistogramInfo *info)
{
  guint64 n_bins = 1;
  guint i;

  if (info->n_channels < 1 || info->n_channels > GST_HISTOGRAM_INFO_MAX_CHANNELS
      || info->n_dims < 1 || info->n_dims > GST_HISTOGRAM_INFO_MAX_DIMS)
    return FALSE;
  for (i = 0; i < info->n_channels; i++)
    if (!info->channel_names[i])
      return FALSE;
  for (i = 0; i < info->n_dims; i++)
    n_bins *= info->shape[i];
  return n_bins >= 1 && n_bins == info->n_bins
      && n_bins <= G_MAXSIZE / sizeof (guint32) / info->n_channels;
}

/**
 * gst_buffer_add_histogram_meta:
 * @buffer: a writable #GstBuffer
 * @info: the histogram's mode, channels, shape and sample range: at least
 *   one channel, @info->n_bins the product of its shape (as
 *   gst_histogram_info_set_format() sets it)
 * @region: the rectangle counted
 * @counts: (array length=n_counts): the counts, channel-major; copied
 * @n_counts: how many: `info->n_channels * info->n_bins`
 *
 * Attaches a histogram to @buffer. Until gst_histogram_meta_set_statistics()
 * says otherwise, each channel is taken to have examined the @region's
 * pixels, none of them out of the binned range, with no summary.
 *
 * Returns: (transfer none) (nullable): the #GstHistogramMeta on @buffer,
 *   or %NULL if @info is inconsistent or @n_counts is not the number of
 *   counts it describes
 *
 * Since: 0.1
 */
GstHistogramMeta *
gst_buffer_add_histogram_meta (GstBuffer *buffer,
    const GstHistogramInfo *info, const GstHistogramRegion *region,
    const guint32 *counts, gsize n_counts)
{
  GstHistogramMeta *meta;
  guint c;

  g_return_val_if_fail (GST_IS_BUFFER (buffer), NULL);
  g_return_val_if_fail (info != NULL && info_is_valid (info), NULL);
  g_return_val_if_fail (region != NULL && region->type != NULL, NULL);
  g_return_val_if_fail (counts != NULL
      && n_counts == (gsize) info->n_channels * info->n_bins, NULL);

  meta = (GstHistogramMeta *) gst_buffer_add_meta (buffer,
      GST_HISTOGRAM_META_INFO, NULL);
  if (!meta)
    return NULL;

  meta->info = *info;
  for (c = 0; c < GST_HISTOGRAM_INFO_MAX_CHANNELS; c++)
    meta->info.channel_names[c] = c < info->n_channels ?
        g_intern_string (info->channel_names[c]) : NULL;
  meta->region = *region;
  meta->region.type = g_intern_string (region->type);
  meta->pixels = (guint64) region->width * region->height;
  meta->counts = g_memdup2 (counts, sizeof (guint32) * n_counts);
  meta->statistics = g_new0 (GstHistogramStatistics, info->n_channels);
  for (c = 0; c < info->n_channels; c++)
    meta->statistics[c].samples = meta->pixels;
  return meta;
}

/**
 * gst_buffer_get_histogram_meta:
 * @buffer: a #GstBuffer
 *
 * Finds the histogram of @buffer's full frame.
 *
 * Returns: (transfer none) (nullable): the full frame's #GstHistogramMeta
 *   on @buffer (region type %GST_HISTOGRAM_REGION_FRAME), else the first,
 *   or %NULL if it has none
 *
 * Since: 0.1
 */
GstHistogramMeta *
gst_buffer_get_histogram_meta (GstBuffer *buffer)
{
  GstHistogramMeta *frame;

  g_return_val_if_fail (GST_IS_BUFFER (buffer), NULL);

  frame = gst_buffer_get_histogram_meta_for_region (buffer,
      GST_HISTOGRAM_REGION_FRAME, 0);
  return frame ? frame : (GstHistogramMeta *) gst_buffer_get_meta (buffer,
      GST_HISTOGRAM_META_API_TYPE);
}

/**
 * gst_buffer_get_histogram_meta_for_region:
 * @buffer: a #GstBuffer
 * @region_type: the region's type: %GST_HISTOGRAM_REGION_FRAME for the
 *   full frame
 * @region_id: its id (0 for the full frame)
 *
 * Finds the histogram of one region of @buffer.
 *
 * Returns: (transfer none) (nullable): the #GstHistogramMeta of that
 *   region on @buffer, or %NULL if it has none
 *
 * Since: 0.1
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

    if (hmeta->region.id == region_id
        && g_strcmp0 (hmeta->region.type, region_type) == 0)
      return hmeta;
  }
  return NULL;
}

/**
 * gst_buffer_get_histogram_metas:
 * @buffer: a #GstBuffer
 *
 * Lists every histogram on @buffer: the full frame's, the zones', the
 * regions'.
 *
 * Returns: (transfer container) (element-type GstHistogramMeta): every
 *   #GstHistogramMeta on @buffer, in the order they were added; free the
 *   list with g_list_free()
 *
 * Since: 0.1
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
 * gst_histogram_meta_get_counts:
 * @meta: a #GstHistogramMeta
 * @channel: channel index, below @meta->info.n_channels
 * @n_bins: (out) (optional): bins of the channel
 *
 * Gets one channel's counts, which belong to @meta's buffer: valid while
 * the buffer is (hold a reference while reading them; bindings copy them
 * into an array of their own).
 *
 * Returns: (transfer none) (array length=n_bins): the channel's counts,
 *   @n_bins guint32 values, bin 0 first (for 2-D and 3-D histograms
 *   flattened, the outermost dimension slowest)
 *
 * Since: 0.1
 */
const guint32 *
gst_histogram_meta_get_counts (GstHistogramMeta *meta, guint channel,
    guint *n_bins)
{
  g_return_val_if_fail (meta != NULL, NULL);
  g_return_val_if_fail (channel < meta->info.n_channels, NULL);

  if (n_bins)
    *n_bins = meta->info.n_bins;
  return meta->counts + (gsize) channel * meta->info.n_bins;
}

/**
 * gst_histogram_meta_get_channel_name:
 * @meta: a #GstHistogramMeta
 * @channel: channel index, below @meta->info.n_channels
 *
 * Gets one channel's name.
 *
 * Returns: (transfer none): the channel's name (`"Y"`, `"R"`, ...)
 *
 * Since: 0.1
 */
const gchar *
gst_histogram_meta_get_channel_name (GstHistogramMeta *meta, guint channel)
{
  g_return_val_if_fail (meta != NULL, NULL);
  g_return_val_if_fail (channel < meta->info.n_channels, NULL);

  return meta->info.channel_names[channel];
}

/**
 * gst_histogram_meta_get_statistics:
 * @meta: a #GstHistogramMeta
 * @channel: channel index, below @meta->info.n_channels
 *
 * Gets one channel's statistics.
 *
 * Returns: (transfer none): the channel's samples, those outside the
 *   binned range, and, as its `flags` say, the summary of its sample
 *   values; valid as long as @meta
 *
 * Since: 0.1
 */
const GstHistogramStatistics *
gst_histogram_meta_get_statistics (GstHistogramMeta *meta, guint channel)
{
  g_return_val_if_fail (meta != NULL, NULL);
  g_return_val_if_fail (channel < meta->info.n_channels, NULL);

  return &meta->statistics[channel];
}

/**
 * gst_histogram_meta_set_statistics:
 * @meta: a #GstHistogramMeta
 * @channel: channel index, below @meta->info.n_channels
 * @statistics: the channel's statistics; copied, percentiles included
 *
 * Records what a channel examined besides its bins and the summary of its
 * sample values, replacing what @meta held for it.
 *
 * Returns: %TRUE; %FALSE, changing nothing, if @statistics counts fewer
 *   samples than lie outside the binned range, or lists percentiles
 *   without their points or values or with a point outside 0..100
 *
 * Since: 0.1
 */
gboolean
gst_histogram_meta_set_statistics (GstHistogramMeta *meta, guint channel,
    const GstHistogramStatistics *statistics)
{
  GstHistogramStatistics *dest;
  guint i;

  g_return_val_if_fail (meta != NULL && statistics != NULL, FALSE);
  g_return_val_if_fail (channel < meta->info.n_channels, FALSE);
  g_return_val_if_fail (statistics->below <= statistics->samples
      && statistics->above <= statistics->samples - statistics->below,
      FALSE);
  g_return_val_if_fail (statistics->n_percentiles == 0
      || (statistics->percentile_points && statistics->percentiles), FALSE);
  for (i = 0; i < statistics->n_percentiles; i++)
    g_return_val_if_fail (statistics->percentile_points[i] >= 0.0
        && statistics->percentile_points[i] <= 100.0, FALSE);

  dest = &meta->statistics[channel];
  g_free (dest->percentile_points);
  statistics_copy_into (dest, statistics);
  return TRUE;
}

/* The percentile from bins of one value each, walking up from the
 * samples under the range; FALSE where the rank falls outside the bins,
 * whose values are not known one by one. */
static gboolean
percentile_from_bins (GstHistogramMeta *meta, guint channel, guint64 rank,
    guint *value)
{
  const guint32 *counts = meta->counts + (gsize) channel * meta->info.n_bins;
  const guint64 below = meta->statistics[channel].below;
  guint64 cumulative = below;
  guint b;

  if (rank <= cumulative && below > 0)
    return FALSE;
  for (b = 0; b < meta->info.n_bins; b++) {
    if (counts[b] == 0)
      continue;
    cumulative += counts[b];
    if (cumulative >= rank) {
      *value = meta->info.range_min + b;
      return TRUE;
    }
  }
  return FALSE;
}

/**
 * gst_histogram_meta_get_percentile:
 * @meta: a #GstHistogramMeta
 * @channel: channel index, below @meta->info.n_channels
 * @p: the percentile, 0..100
 * @value: (out): the smallest sample value v such that the samples <= v
 *   number at least `lrint (N * p / 100)`, N the channel's samples (FFmpeg
 *   signalstats' rule, its YLOW and YHIGH at p = 10 and 90; a rank of 0
 *   gives the smallest sample, no samples give 0)
 *
 * Any percentile, exactly: one of the statistics' `percentile_points` from
 * the statistics, any other from the counts when each bin holds one
 * sample value (the default for 8-bit samples: 256 bins over 0..255).
 *
 * Returns: %TRUE if @value is known; %FALSE for a p that was not computed
 *   when the bins are coarser than the samples (ask `clhistogram` for it
 *   with its `percentiles` property)
 *
 * Since: 0.1
 */
gboolean
gst_histogram_meta_get_percentile (GstHistogramMeta *meta, guint channel,
    gdouble p, guint *value)
{
  const GstHistogramStatistics *stats;
  gboolean summary;
  guint64 rank;
  guint i;

  g_return_val_if_fail (meta != NULL && value != NULL, FALSE);
  g_return_val_if_fail (channel < meta->info.n_channels, FALSE);
  g_return_val_if_fail (p >= 0.0 && p <= 100.0, FALSE);

  stats = &meta->statistics[channel];
  summary = (stats->flags & GST_HISTOGRAM_STATISTICS_FLAG_SUMMARY) != 0;
  for (i = 0; summary && i < stats->n_percentiles; i++) {
    if (stats->percentile_points[i] == p) {
      *value = stats->percentiles[i];
      return TRUE;
    }
  }
  if (meta->info.n_dims != 1
      || meta->info.n_bins != meta->info.range_max - meta->info.range_min + 1)
    return FALSE;
  *value = 0;
  if (stats->samples == 0)
    return TRUE;
  rank = (guint64) llrint ((gdouble) stats->samples * p / 100.0);
  if (rank == 0 && summary) {
    *value = stats->min;
    return TRUE;
  }
  return percentile_from_bins (meta, channel, MAX (rank, 1), value);
}

/**
 * gst_histogram_meta_set_metering:
 * @meta: a #GstHistogramMeta
 * @value: the frame's metering value: a weighted mean luma, in code
 *   values of the luma's depth
 * @percent: the same in percent of the nominal range for the stream's
 *   range (0 at nominal black, 100 at nominal white)
 *
 * Records the frame's metering value (`clhistogram`'s `metering`
 * property says how the frame and its zones are weighed) on @meta, which
 * should be the one gst_buffer_get_histogram_meta() returns.
 *
 * Since: 0.1
 */
void
gst_histogram_meta_set_metering (GstHistogramMeta *meta, gdouble value,
    gdouble percent)
{
  g_return_if_fail (meta != NULL);

  if (!meta->metering)
    meta->metering = g_new (gdouble, 2);
  meta->metering[0] = value;
  meta->metering[1] = percent;
}

/**
 * gst_histogram_meta_get_metering:
 * @meta: a #GstHistogramMeta
 * @value: (out) (optional): the frame's metering value, in luma code
 *   values
 * @percent: (out) (optional): the same in percent of the nominal range
 *
 * The frame's metering value, carried by the meta
 * gst_buffer_get_histogram_meta() returns (the full frame's, else the
 * first): `clhistogram` gives one for histograms with luma (`luma` mode,
 * and `channels` of YUV and gray formats) with statistics, unless its
 * `metering` property is `none`.
 *
 * Returns: %TRUE if @meta has a metering value
 *
 * Since: 0.1
 */
gboolean
gst_histogram_meta_get_metering (GstHistogramMeta *meta, gdouble *value,
    gdouble *percent)
{
  g_return_val_if_fail (meta != NULL, FALSE);

  if (!meta->metering)
    return FALSE;
  if (value)
    *value = meta->metering[0];
  if (percent)
    *percent = meta->metering[1];
  return TRUE;
}
