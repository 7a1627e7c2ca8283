/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* GstHistogramMeta: a frame's histogram on its buffer, with the region it
 * covers and each channel's statistics. */
#pragma once

#include <gst/clhistogram/clhistogram-prelude.h>
#include <gst/clhistogram/gsthistograminfo.h>

G_BEGIN_DECLS

/**
 * GST_HISTOGRAM_REGION_FRAME:
 *
 * The region type of a histogram of the full frame (id 0).
 *
 * Since: 0.1
 */
#define GST_HISTOGRAM_REGION_FRAME "frame"

/**
 * GstHistogramRegion:
 * @type: what the rectangle is: %GST_HISTOGRAM_REGION_FRAME for the full
 *   frame, else the region's type (`"region"`, `"zone"`, or a
 *   #GstVideoRegionOfInterestMeta's type); interned (g_intern_string()) in
 *   a region made by gst_histogram_region_new() or held by a
 *   #GstHistogramMeta
 * @id: which one of its type (0 for the full frame)
 * @x: left edge of the analysed rectangle, in pixels
 * @y: top edge of the analysed rectangle, in pixels
 * @width: width of the analysed rectangle, in pixels
 * @height: height of the analysed rectangle, in pixels
 *
 * The rectangle of the frame a histogram counts, clipped to the frame. A
 * plain value: it holds no memory of its own, and may be copied by
 * assignment.
 *
 * Since: 0.1
 */
typedef struct {
  const gchar *type;
  gint id;
  guint x;
  guint y;
  guint width;
  guint height;

  /*< private >*/
  gpointer _gst_reserved[GST_PADDING];
} GstHistogramRegion;

GST_CLHISTOGRAM_API
GType gst_histogram_region_get_type (void);
#define GST_TYPE_HISTOGRAM_REGION (gst_histogram_region_get_type ())

GST_CLHISTOGRAM_API
GstHistogramRegion *gst_histogram_region_new (const gchar *type, gint id,
    guint x, guint y, guint width, guint height);

GST_CLHISTOGRAM_API
GstHistogramRegion *gst_histogram_region_copy (
    const GstHistogramRegion *region);

GST_CLHISTOGRAM_API
void gst_histogram_region_free (GstHistogramRegion *region);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstHistogramRegion, gst_histogram_region_free)

/**
 * GstHistogramStatisticsFlags:
 * @GST_HISTOGRAM_STATISTICS_FLAG_NONE: only @samples, @below and @above
 *   are known
 * @GST_HISTOGRAM_STATISTICS_FLAG_SUMMARY: @min, @max, @mean, the
 *   percentiles, @clipped_low, @clipped_high and their levels
 *   (@clip_low_level, @clip_high_level) are known: `clhistogram`
 *   computes them for the modes `luma`, `channels` and `max` unless its
 *   `statistics` property is %FALSE
 * @GST_HISTOGRAM_STATISTICS_FLAG_LEGAL_RANGE: @below_legal and
 *   @above_legal are known: the summary of limited-range video (the caps'
 *   `colorimetry`)
 *
 * Which fields of a #GstHistogramStatistics hold values.
 *
 * Since: 0.1
 */
typedef enum {
  GST_HISTOGRAM_STATISTICS_FLAG_NONE = 0,
  GST_HISTOGRAM_STATISTICS_FLAG_SUMMARY = (1 << 0),
  GST_HISTOGRAM_STATISTICS_FLAG_LEGAL_RANGE = (1 << 1),
} GstHistogramStatisticsFlags;

GST_CLHISTOGRAM_API
GType gst_histogram_statistics_flags_get_type (void);
#define GST_TYPE_HISTOGRAM_STATISTICS_FLAGS \
  (gst_histogram_statistics_flags_get_type ())

/**
 * GstHistogramStatistics:
 * @flags: which of the fields below hold values
 * @samples: samples the channel examined: its plane's width x height in
 *   the region (for 4:2:0 chroma a quarter of the pixels), or the pixels
 *   for colour modes
 * @below: samples under the binned range (#GstHistogramInfo's
 *   `range_min`), in no bin
 * @above: samples over it (`range_max`), in no bin
 * @min: the smallest sample value (0 without samples)
 * @max: the largest sample value (0 without samples)
 * @mean: the exact mean of the sample values: their sum over @samples,
 *   not a mean of bin centres (0.0 without samples)
 * @clipped_low: samples at or below @clip_low_level (crushed)
 * @clipped_high: samples at or above @clip_high_level
 * @below_legal: samples under the legal range (16, scaled by
 *   2^(depth - 8))
 * @above_legal: samples over it (235 for luma, R, G, B; 240 for chroma;
 *   scaled)
 * @n_percentiles: percentiles computed when the frame was counted
 *   (`clhistogram`'s `percentiles`)
 * @percentile_points: (array length=n_percentiles): each p, 0..100
 * @percentiles: (array length=n_percentiles): the channel's value at each
 *   of @percentile_points: the smallest sample value v such that the
 *   samples <= v number at least `lrint (@samples * p / 100)` (FFmpeg
 *   signalstats' rule)
 * @clip_low_level: the code value @clipped_low counts up to: by default
 *   the channel's nominal black for the stream's range (limited range:
 *   16, scaled by 2^(depth - 8); full range: 0), moved by `clhistogram`'s
 *   `clip-low-level` (percent of the nominal range)
 * @clip_high_level: the code value @clipped_high counts from: by default
 *   the channel's nominal white (limited range: 235 for luma, R, G, B and
 *   240 for chroma, scaled; full range: 2^depth - 1; luma and max of RGB
 *   are 8-bit), moved by `clip-high-level`
 *
 * One channel's counts beside its bins and the summary of its sample
 * values, over every sample the channel examined whatever the bins and
 * the binned range. gst_histogram_meta_get_statistics() reads them;
 * gst_histogram_meta_set_statistics() records them.
 *
 * Since: 0.1
 */
typedef struct {
  GstHistogramStatisticsFlags flags;
  guint64 samples;
  guint64 below;
  guint64 above;
  guint min;
  guint max;
  gdouble mean;
  guint64 clipped_low;
  guint64 clipped_high;
  guint64 below_legal;
  guint64 above_legal;
  guint n_percentiles;
  gdouble *percentile_points;
  guint *percentiles;
  guint clip_low_level;
  guint clip_high_level;

  /*< private >*/
  gpointer _gst_reserved[GST_PADDING - 1];
} GstHistogramStatistics;

GST_CLHISTOGRAM_API
GType gst_histogram_statistics_get_type (void);
#define GST_TYPE_HISTOGRAM_STATISTICS (gst_histogram_statistics_get_type ())

GST_CLHISTOGRAM_API
GstHistogramStatistics *gst_histogram_statistics_copy (
    const GstHistogramStatistics *statistics);

GST_CLHISTOGRAM_API
void gst_histogram_statistics_free (GstHistogramStatistics *statistics);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstHistogramStatistics,
    gst_histogram_statistics_free)

/**
 * GstHistogramMeta:
 * @meta: parent #GstMeta
 * @info: the histogram's mode, channels, shape and sample range
 * @region: the rectangle counted
 * @pixels: pixels in @region (width x height)
 *
 * The histogram of (a rectangle of) the frame the buffer holds, as
 * `clhistogram` computed it; a buffer holds one per histogram counted.
 * The counts (`info.n_channels * info.n_bins` guint32, channel-major) are
 * read with gst_histogram_meta_get_counts(), each channel's statistics
 * with gst_histogram_meta_get_statistics(), and the frame's metering value
 * (on the meta gst_buffer_get_histogram_meta() returns) with
 * gst_histogram_meta_get_metering().
 * It survives buffer copies and is dropped by transforms that change the
 * pixels.
 *
 * Since: 0.1
 */
typedef struct {
  GstMeta meta;

  GstHistogramInfo info;
  GstHistogramRegion region;
  guint64 pixels;

  /*< private >*/
  guint32 *counts;
  GstHistogramStatistics *statistics;
  /* The metering value and its percent, or NULL. */
  gdouble *metering;
  gpointer _gst_reserved[GST_PADDING - 1];
} GstHistogramMeta;

GST_CLHISTOGRAM_API
GType gst_histogram_meta_api_get_type (void);
/**
 * GST_HISTOGRAM_META_API_TYPE:
 *
 * The #GType of the `"GstHistogramMetaAPI"` meta API.
 *
 * Since: 0.1
 */
#define GST_HISTOGRAM_META_API_TYPE (gst_histogram_meta_api_get_type ())

GST_CLHISTOGRAM_API
const GstMetaInfo *gst_histogram_meta_get_info (void);
/**
 * GST_HISTOGRAM_META_INFO:
 *
 * The #GstMetaInfo of #GstHistogramMeta.
 *
 * Since: 0.1
 */
#define GST_HISTOGRAM_META_INFO (gst_histogram_meta_get_info ())

GST_CLHISTOGRAM_API
GstHistogramMeta *gst_buffer_add_histogram_meta (GstBuffer *buffer,
    const GstHistogramInfo *info, const GstHistogramRegion *region,
    const guint32 *counts, gsize n_counts);

GST_CLHISTOGRAM_API
GstHistogramMeta *gst_buffer_get_histogram_meta (GstBuffer *buffer);

GST_CLHISTOGRAM_API
GstHistogramMeta *gst_buffer_get_histogram_meta_for_region (GstBuffer *buffer,
    const gchar *region_type, gint region_id);

GST_CLHISTOGRAM_API
GList *gst_buffer_get_histogram_metas (GstBuffer *buffer);

GST_CLHISTOGRAM_API
const guint32 *gst_histogram_meta_get_counts (GstHistogramMeta *meta,
    guint channel, guint *n_bins);

GST_CLHISTOGRAM_API
const gchar *gst_histogram_meta_get_channel_name (GstHistogramMeta *meta,
    guint channel);

GST_CLHISTOGRAM_API
const GstHistogramStatistics *gst_histogram_meta_get_statistics (
    GstHistogramMeta *meta, guint channel);

GST_CLHISTOGRAM_API
gboolean gst_histogram_meta_set_statistics (GstHistogramMeta *meta,
    guint channel, const GstHistogramStatistics *statistics);

GST_CLHISTOGRAM_API
gboolean gst_histogram_meta_get_percentile (GstHistogramMeta *meta,
    guint channel, gdouble p, guint *value);

GST_CLHISTOGRAM_API
void gst_histogram_meta_set_metering (GstHistogramMeta *meta, gdouble value,
    gdouble percent);

GST_CLHISTOGRAM_API
gboolean gst_histogram_meta_get_metering (GstHistogramMeta *meta,
    gdouble *value, gdouble *percent);

G_END_DECLS
