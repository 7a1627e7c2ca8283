/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gst/gst.h>

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
 * @GST_HISTOGRAM_MODE_LUMA: one channel `Y`: the sample for GRAY8, BT.601
 *   luma for RGB formats (OpenCV 4's RGB->GRAY rounding,
 *   `Y = (9798 R + 19235 G + 3735 B + 16384) >> 15`)
 * @GST_HISTOGRAM_MODE_CHANNELS: one histogram per channel: `R`, `G`, `B`
 *   [, `A`] for RGB formats whatever their byte order, `Y` for GRAY8
 *
 * What a histogram counts.
 */
typedef enum {
  GST_HISTOGRAM_MODE_LUMA,
  GST_HISTOGRAM_MODE_CHANNELS,
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
 * @n_bins: bins per channel
 * @counts: (array): `n_channels * n_bins` counts, channel-major; read them
 *   with gst_histogram_meta_get_counts()
 * @pixels: pixels in the analysed rectangle (@width x @height)
 * @x: left edge of the analysed rectangle, in pixels
 * @y: top edge of the analysed rectangle, in pixels
 * @width: width of the analysed rectangle, in pixels
 * @height: height of the analysed rectangle, in pixels
 *
 * The histogram of (a rectangle of) the frame the buffer holds, as
 * `clhistogram` computed it. It survives buffer copies and is dropped by
 * transforms that change the pixels.
 */
typedef struct {
  GstMeta meta;

  GstHistogramMode mode;
  guint n_channels;
  gchar **channel_names;
  guint n_bins;
  guint32 *counts;
  guint64 pixels;
  guint x;
  guint y;
  guint width;
  guint height;
} GstHistogramMeta;

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
GstHistogramMeta *gst_buffer_get_histogram_meta (GstBuffer *buffer);

GST_CLHISTOGRAM_API
const guint32 *gst_histogram_meta_get_counts (GstHistogramMeta *meta,
    guint channel, guint *n_bins);

GST_CLHISTOGRAM_API
const gchar *gst_histogram_meta_get_channel_name (GstHistogramMeta *meta,
    guint channel);

GST_CLHISTOGRAM_API
const gchar *gst_histogram_mode_get_nick (GstHistogramMode mode);

G_END_DECLS
