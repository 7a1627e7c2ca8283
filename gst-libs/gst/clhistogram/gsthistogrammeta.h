/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

#ifndef GST_CLHISTOGRAM_API
# ifdef BUILDING_GST_CLHISTOGRAM
#  define GST_CLHISTOGRAM_API __attribute__ ((visibility ("default"))) extern
# else
#  define GST_CLHISTOGRAM_API extern
# endif
#endif

/**
 * GstHistogramMode:
 * @GST_HISTOGRAM_MODE_LUMA: one channel `Y`: the sample for GRAY formats,
 *   the Y plane as stored for YUV formats, BT.601 luma for RGB formats
 *   (OpenCV 4's RGB->GRAY rounding,
 *   `Y = (9798 R + 19235 G + 3735 B + 16384) >> 15`)
 * @GST_HISTOGRAM_MODE_CHANNELS: one histogram per channel: `R`, `G`, `B`
 *   [, `A`] for RGB formats whatever their byte order, `Y` for GRAY
 *   formats, `Y`, `U`, `V` for YUV formats, each plane at its own resolution
 * @GST_HISTOGRAM_MODE_MAX: one channel `max`: max (R, G, B[, A]) of each
 *   pixel; RGB formats only
 * @GST_HISTOGRAM_MODE_HUE: one channel `hue`: OpenCV's 8-bit HSV hue
 *   (0..179, `cv2.cvtColor (..., COLOR_RGB2HSV)`); 8-bit RGB and YUV formats
 * @GST_HISTOGRAM_MODE_HUE_SATURATION: one channel `hue-saturation`: a 2-D
 *   histogram of hue x saturation, `bins` per axis, H-major
 * @GST_HISTOGRAM_MODE_RGB: one channel `rgb`: a joint 3-D histogram of
 *   R x G x B, `bins` per axis, R-major; RGB formats only
 *
 * What a histogram counts.
 */
typedef enum {
  GST_HISTOGRAM_MODE_LUMA,
  GST_HISTOGRAM_MODE_CHANNELS,
  GST_HISTOGRAM_MODE_MAX,
  GST_HISTOGRAM_MODE_HUE,
  GST_HISTOGRAM_MODE_HUE_SATURATION,
  GST_HISTOGRAM_MODE_RGB,
} GstHistogramMode;

GST_CLHISTOGRAM_API
GType gst_histogram_mode_get_type (void);
#define GST_TYPE_HISTOGRAM_MODE (gst_histogram_mode_get_type ())

/**
 * GstHistogramMeta:
 * @meta: parent #GstMeta
 * @mode: what was counted
 * @n_channels: number of histograms
 * @channel_names: (array length=n_channels): name of each channel, in order
 *   (e.g. `R`, `G`, `B`, `A`); read them with
 *   gst_histogram_meta_get_channel_name()
 * @n_bins: counters per channel (for multi-dimensional modes the
 *   flattened array: the product of @shape)
 * @counts: `n_channels * n_bins` counts, channel-major; from C as is, from
 *   any language with gst_histogram_meta_get_counts()
 * @pixels: pixels in the analysed rectangle (@width x @height)
 * @x: left edge of the analysed rectangle, in pixels
 * @y: top edge of the analysed rectangle, in pixels
 * @width: width of the analysed rectangle, in pixels
 * @height: height of the analysed rectangle, in pixels
 * @samples: (array length=n_channels): samples each channel examined (a
 *   quarter of the pixels for 4:2:0 chroma); also
 *   gst_histogram_meta_get_samples()
 * @below: (array length=n_channels): samples of each channel under
 *   @range_min, in no bin
 * @above: (array length=n_channels): samples of each channel over
 *   @range_max, in no bin
 * @depth: significant bits per sample of the frame (8, 10, 12, 16)
 * @video_range: the caps' colour range (full or limited)
 * @range_min: smallest value binned (first axis)
 * @range_max: largest value binned (first axis), inclusive
 * @n_dims: dimensions of each channel's histogram: 1, 2 (hue-saturation)
 *   or 3 (rgb)
 * @shape: (array fixed-size=3): bins along each dimension, unused ones 0;
 *   also gst_histogram_meta_get_shape()
 * @region_type: what the rectangle is: `"frame"` for the full frame, else
 *   the region's type (`"region"`, `"zone"`, or a
 *   #GstVideoRegionOfInterestMeta's type)
 * @region_id: which one of its type (0 for the full frame)
 *
 * The statistics of the 1-D modes (minimum, maximum, mean, percentiles,
 * clipped and out-of-legal-range samples) are read with
 * gst_histogram_meta_has_statistics(), gst_histogram_meta_get_mean(),
 * gst_histogram_meta_get_percentile() and the functions beside them.
 *
 * The histogram of (a rectangle of) the frame the buffer holds, as
 * `clhistogram` computed it; a buffer holds one per histogram counted.
 * It survives buffer copies and is dropped by transforms that change the
 * pixels.
 */
typedef struct {
  GstMeta meta;

  GstHistogramMode mode;
  guint n_channels;
  gchar **channel_names;
  guint n_bins;
  /*< private >*/
  guint32 *counts;
  /*< public >*/
  guint64 pixels;
  guint x;
  guint y;
  guint width;
  guint height;

  guint64 *samples;
  guint64 *below;
  guint64 *above;
  guint depth;
  GstVideoColorRange video_range;
  guint range_min;
  guint range_max;
  guint n_dims;
  guint shape[3];
  gchar *region_type;
  gint region_id;

  /*< private >*/
  gboolean has_statistics;
  gboolean has_legal;
  guint n_percentiles;
  gdouble *percentile_points;
  /* n_channels each; percentiles n_channels * n_percentiles. */
  guint *min;
  guint *max;
  gdouble *mean;
  guint *percentiles;
  guint64 *clipped_low;
  guint64 *clipped_high;
  guint64 *below_legal;
  guint64 *above_legal;
} GstHistogramMeta;

/**
 * GstHistogramTail:
 * @GST_HISTOGRAM_TAIL_CLIPPED_LOW: samples equal to 0
 * @GST_HISTOGRAM_TAIL_CLIPPED_HIGH: samples equal to 2^depth - 1
 * @GST_HISTOGRAM_TAIL_BELOW_LEGAL: samples under the legal range (16,
 *   scaled by 2^(depth - 8)); only for limited-range video
 * @GST_HISTOGRAM_TAIL_ABOVE_LEGAL: samples over it (235 for luma, R, G, B;
 *   240 for chroma; scaled); only for limited-range video
 * @GST_HISTOGRAM_TAIL_BELOW_RANGE: samples under the binned range
 *   (`below`)
 * @GST_HISTOGRAM_TAIL_ABOVE_RANGE: samples over it (`above`)
 *
 * Samples at or past an end of the sample range, counted apart from the
 * bins; gst_histogram_meta_get_fraction() gives their share.
 */
typedef enum {
  GST_HISTOGRAM_TAIL_CLIPPED_LOW,
  GST_HISTOGRAM_TAIL_CLIPPED_HIGH,
  GST_HISTOGRAM_TAIL_BELOW_LEGAL,
  GST_HISTOGRAM_TAIL_ABOVE_LEGAL,
  GST_HISTOGRAM_TAIL_BELOW_RANGE,
  GST_HISTOGRAM_TAIL_ABOVE_RANGE,
} GstHistogramTail;

GST_CLHISTOGRAM_API
GType gst_histogram_tail_get_type (void);
#define GST_TYPE_HISTOGRAM_TAIL (gst_histogram_tail_get_type ())

GST_CLHISTOGRAM_API
GType gst_histogram_meta_api_get_type (void);
#define GST_HISTOGRAM_META_API_TYPE (gst_histogram_meta_api_get_type ())

GST_CLHISTOGRAM_API
const GstMetaInfo *gst_histogram_meta_get_info (void);
#define GST_HISTOGRAM_META_INFO (gst_histogram_meta_get_info ())

GST_CLHISTOGRAM_API
GstHistogramMeta *gst_buffer_add_histogram_meta (GstBuffer *buffer,
    GstHistogramMode mode, guint n_channels,
    const gchar * const *channel_names, guint n_bins, const guint32 *counts,
    guint x, guint y, guint width, guint height);

GST_CLHISTOGRAM_API
GstHistogramMeta *gst_buffer_add_histogram_meta_full (GstBuffer *buffer,
    GstHistogramMode mode, guint n_channels,
    const gchar * const *channel_names, guint n_bins, const guint32 *counts,
    const guint64 *samples, const guint64 *below, const guint64 *above,
    const gchar *region_type, gint region_id, guint x, guint y, guint width,
    guint height, guint depth, GstVideoColorRange video_range,
    guint range_min, guint range_max, guint n_dims, const guint *shape);

GST_CLHISTOGRAM_API
GstHistogramMeta *gst_buffer_get_histogram_meta (GstBuffer *buffer);

GST_CLHISTOGRAM_API
GstHistogramMeta *gst_buffer_get_histogram_meta_for_region (GstBuffer *buffer,
    const gchar *region_type, gint region_id);

GST_CLHISTOGRAM_API
GList *gst_buffer_get_histogram_metas (GstBuffer *buffer);

GST_CLHISTOGRAM_API
void gst_histogram_meta_set_region (GstHistogramMeta *meta,
    const gchar *region_type, gint region_id);

GST_CLHISTOGRAM_API
const guint32 *gst_histogram_meta_get_counts (GstHistogramMeta *meta,
    guint channel, guint *n_bins);

GST_CLHISTOGRAM_API
const gchar *gst_histogram_meta_get_channel_name (GstHistogramMeta *meta,
    guint channel);

GST_CLHISTOGRAM_API
guint64 gst_histogram_meta_get_samples (GstHistogramMeta *meta, guint channel);

GST_CLHISTOGRAM_API
guint64 gst_histogram_meta_get_below (GstHistogramMeta *meta, guint channel);

GST_CLHISTOGRAM_API
guint64 gst_histogram_meta_get_above (GstHistogramMeta *meta, guint channel);

GST_CLHISTOGRAM_API
const guint *gst_histogram_meta_get_shape (GstHistogramMeta *meta,
    guint *n_dims);

GST_CLHISTOGRAM_API
void gst_histogram_meta_set_channel_stats (GstHistogramMeta *meta,
    guint channel, guint64 samples, guint64 below, guint64 above);

GST_CLHISTOGRAM_API
void gst_histogram_meta_set_sample_format (GstHistogramMeta *meta,
    guint depth, GstVideoColorRange video_range, guint range_min,
    guint range_max);

GST_CLHISTOGRAM_API
void gst_histogram_meta_set_shape (GstHistogramMeta *meta, guint n_dims,
    const guint *shape);

GST_CLHISTOGRAM_API
const gchar *gst_histogram_mode_get_nick (GstHistogramMode mode);

GST_CLHISTOGRAM_API
void gst_histogram_meta_set_statistics (GstHistogramMeta *meta,
    guint n_percentiles, const gdouble *percentile_points,
    gboolean has_legal);

GST_CLHISTOGRAM_API
void gst_histogram_meta_set_channel_statistics (GstHistogramMeta *meta,
    guint channel, guint min, guint max, gdouble mean,
    const guint *percentiles, guint64 clipped_low, guint64 clipped_high,
    guint64 below_legal, guint64 above_legal);

GST_CLHISTOGRAM_API
gboolean gst_histogram_meta_has_statistics (GstHistogramMeta *meta);

GST_CLHISTOGRAM_API
gboolean gst_histogram_meta_has_legal_range (GstHistogramMeta *meta);

GST_CLHISTOGRAM_API
guint gst_histogram_meta_get_min (GstHistogramMeta *meta, guint channel);

GST_CLHISTOGRAM_API
guint gst_histogram_meta_get_max (GstHistogramMeta *meta, guint channel);

GST_CLHISTOGRAM_API
gdouble gst_histogram_meta_get_mean (GstHistogramMeta *meta, guint channel);

GST_CLHISTOGRAM_API
gboolean gst_histogram_meta_get_percentile (GstHistogramMeta *meta,
    guint channel, gdouble p, guint *value);

GST_CLHISTOGRAM_API
const gdouble *gst_histogram_meta_get_percentile_points (
    GstHistogramMeta *meta, guint *n_percentiles);

GST_CLHISTOGRAM_API
const guint *gst_histogram_meta_get_percentiles (GstHistogramMeta *meta,
    guint channel, guint *n_percentiles);

GST_CLHISTOGRAM_API
guint64 gst_histogram_meta_get_tail (GstHistogramMeta *meta, guint channel,
    GstHistogramTail tail);

GST_CLHISTOGRAM_API
gdouble gst_histogram_meta_get_fraction (GstHistogramMeta *meta,
    guint channel, GstHistogramTail tail);

G_END_DECLS
