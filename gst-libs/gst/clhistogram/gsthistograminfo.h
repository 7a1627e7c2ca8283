/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* GstHistogramMode and GstHistogramInfo: what a histogram counts and how
 * its bins are laid out. */
#pragma once

#include <gst/clhistogram/clhistogram-prelude.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

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
 * What a histogram counts: `clhistogram`'s `mode`, and `clbackproject`'s
 * (which takes `hue`, `hue-saturation`, `rgb` and `luma`).
 *
 * Since: 0.1
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

GST_CLHISTOGRAM_API
const gchar *gst_histogram_mode_get_nick (GstHistogramMode mode);

/**
 * GST_HISTOGRAM_INFO_MAX_CHANNELS:
 *
 * The most channels a #GstHistogramInfo describes.
 *
 * Since: 0.1
 */
#define GST_HISTOGRAM_INFO_MAX_CHANNELS 8

/**
 * GST_HISTOGRAM_INFO_MAX_DIMS:
 *
 * The most dimensions a channel's histogram has (R x G x B).
 *
 * Since: 0.1
 */
#define GST_HISTOGRAM_INFO_MAX_DIMS 3

/**
 * GstHistogramInfo:
 * @mode: what was counted
 * @n_channels: number of histograms, 1..%GST_HISTOGRAM_INFO_MAX_CHANNELS
 * @channel_names: (array fixed-size=8): name of each channel, in order
 *   (e.g. `R`, `G`, `B`, `A`), %NULL past @n_channels; interned strings
 *   (g_intern_string()) in an info made by gst_histogram_info_set_format()
 *   or held by a #GstHistogramMeta
 * @n_dims: dimensions of each channel's histogram: 1, 2 (hue-saturation)
 *   or 3 (rgb)
 * @shape: (array fixed-size=3): bins along each dimension, outermost first
 *   (hue then saturation; R, G, B), unused ones 0
 * @n_bins: counters per channel: the product of @shape, the length of
 *   each channel's flattened counts
 * @depth: significant bits per sample of the frame (8, 10, 12, 16)
 * @video_range: the frame's colour range, from its caps (full or limited)
 * @range_min: smallest sample value binned (first dimension)
 * @range_max: largest sample value binned (first dimension), inclusive
 *
 * How a frame's histograms are laid out, as #GstVideoInfo describes a
 * frame: the same for every frame of a stream and every region of a
 * frame. A plain value: it holds no memory of its own, and may be copied
 * by assignment. Set @mode, the channels and the shape with
 * gst_histogram_info_set_format(); @depth, @video_range, @range_min and
 * @range_max are set directly.
 *
 * Since: 0.1
 */
typedef struct {
  GstHistogramMode mode;
  guint n_channels;
  const gchar *channel_names[GST_HISTOGRAM_INFO_MAX_CHANNELS];
  guint n_dims;
  guint shape[GST_HISTOGRAM_INFO_MAX_DIMS];
  guint n_bins;
  guint depth;
  GstVideoColorRange video_range;
  guint range_min;
  guint range_max;

  /*< private >*/
  gpointer _gst_reserved[GST_PADDING];
} GstHistogramInfo;

GST_CLHISTOGRAM_API
GType gst_histogram_info_get_type (void);
#define GST_TYPE_HISTOGRAM_INFO (gst_histogram_info_get_type ())

GST_CLHISTOGRAM_API
GstHistogramInfo *gst_histogram_info_new (void);

GST_CLHISTOGRAM_API
void gst_histogram_info_init (GstHistogramInfo *info);

GST_CLHISTOGRAM_API
GstHistogramInfo *gst_histogram_info_copy (const GstHistogramInfo *info);

GST_CLHISTOGRAM_API
void gst_histogram_info_free (GstHistogramInfo *info);

GST_CLHISTOGRAM_API
gboolean gst_histogram_info_set_format (GstHistogramInfo *info,
    GstHistogramMode mode, guint n_channels,
    const gchar * const *channel_names, guint n_dims, const guint *shape);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstHistogramInfo, gst_histogram_info_free)

G_END_DECLS
