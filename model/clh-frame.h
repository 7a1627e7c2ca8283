/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clhistogram: what a histogram request is, shared by the OpenCL engine and the
 * golden reference. Plain C over GLib types: no OpenCL, no GStreamer. */
#pragma once

#include <glib.h>

#include "clh-kernel-abi.h"

G_BEGIN_DECLS

#define CLH_MAX_PLANES 4
#define CLH_MAX_COMPONENTS 4
/* Histograms one request produces (R, G, B, A or Y, U, V). */
#define CLH_MAX_CHANNELS 4
/* Counters in one channel: 65536 bins of a 16-bit component, or a joint
 * RGB histogram of 40^3. */
#define CLH_MAX_BINS 65536

/* Largest frame edge, in pixels. Counters are 32-bit: 16384 * 16384 = 2^28
 * samples per channel cannot wrap them. */
#define CLH_MAX_DIMENSION 16384

/* Regions one frame may be counted in besides the whole frame, and the
 * counters all of a frame's histograms may take (64 Mi: 256 MiB). */
#define CLH_MAX_REGIONS 4096
#define CLH_MAX_FRAME_COUNTERS ((gsize) 64 << 20)

/* Percentiles one request reports per channel. */
#define CLH_MAX_PERCENTILES 32

/**
 * ClhSampleType:
 * @CLH_SAMPLE_8: one byte per sample
 * @CLH_SAMPLE_16LE: 16-bit little-endian container
 * @CLH_SAMPLE_16BE: 16-bit big-endian container
 *
 * How a sample is stored.
 */
typedef enum {
  CLH_SAMPLE_8 = CLH_ABI_SAMPLE_8,
  CLH_SAMPLE_16LE = CLH_ABI_SAMPLE_16LE,
  CLH_SAMPLE_16BE = CLH_ABI_SAMPLE_16BE,
} ClhSampleType;

/**
 * ClhPlane:
 * @data: first byte of the plane's first row
 * @stride: bytes from the start of one row to the next
 */
typedef struct {
  const guint8 *data;
  gsize stride;
} ClhPlane;

/**
 * ClhComponent:
 * @plane: index of the plane holding the component
 * @offset: byte offset of the component's first sample in a row
 * @pixel_stride: bytes from one sample of the component to the next in a row
 * @shift: bits the stored value is shifted left by (P010: 6)
 * @w_sub: log2 of the horizontal subsampling (4:2:0 and 4:2:2 chroma: 1)
 * @h_sub: log2 of the vertical subsampling (4:2:0 chroma: 1)
 *
 * Where one component (R, G, B, A, Y, U or V) lives. A subsampled
 * component has `ceil (width / 2^w_sub) x ceil (height / 2^h_sub)`
 * samples; its value is `(stored >> shift) & (2^depth - 1)`.
 */
typedef struct {
  guint plane;
  guint offset;
  guint pixel_stride;
  guint shift;
  guint w_sub;
  guint h_sub;
} ClhComponent;

/**
 * ClhFrame:
 * @width: pixels per row, 1..%CLH_MAX_DIMENSION
 * @height: rows, 1..%CLH_MAX_DIMENSION
 * @sample: storage of every component's samples
 * @depth: significant bits per sample, 1..16 (8 for %CLH_SAMPLE_8)
 * @n_planes: planes in @planes
 * @planes: the planes, in host memory, read and not modified
 * @n_components: components in @components
 * @components: the components, in the format's order (R, G, B[, A] for RGB
 *   formats, Y[, U, V] for GRAY and YUV formats)
 *
 * One raw video frame in host memory.
 */
typedef struct {
  guint width;
  guint height;
  ClhSampleType sample;
  guint depth;
  guint n_planes;
  ClhPlane planes[CLH_MAX_PLANES];
  guint n_components;
  ClhComponent components[CLH_MAX_COMPONENTS];
} ClhFrame;

/**
 * ClhCount:
 * @CLH_COUNT_COMPONENTS: one histogram per listed component, uniform bins
 *   over [range_min, range_max]
 * @CLH_COUNT_LUMA: BT.601 luma of R, G, B with OpenCV 4's RGB->GRAY rounding,
 *   `Y = (9798 R + 19235 G + 3735 B + 16384) >> 15`, binned over the range
 * @CLH_COUNT_MAX: max (R, G, B[, A]), binned over the range
 * @CLH_COUNT_HUE: OpenCV's 8-bit HSV hue (0..179), @bins over [0, 180)
 * @CLH_COUNT_HUE_SATURATION: a 2-D histogram of hue x saturation, @bins per
 *   axis over [0, 180) and [0, 256), H-major
 * @CLH_COUNT_RGB: a joint 3-D histogram of R x G x B, @bins per axis over
 *   [0, 256), R-major
 *
 * What is counted. All but %CLH_COUNT_COMPONENTS read a colour per pixel
 * (see #ClhColor) and give one histogram.
 */
typedef enum {
  CLH_COUNT_COMPONENTS = CLH_ABI_COUNT_COMPONENTS,
  CLH_COUNT_LUMA = CLH_ABI_COUNT_LUMA,
  CLH_COUNT_MAX = CLH_ABI_COUNT_MAX,
  CLH_COUNT_HUE = CLH_ABI_COUNT_HUE,
  CLH_COUNT_HUE_SATURATION = CLH_ABI_COUNT_HUE_SATURATION,
  CLH_COUNT_RGB = CLH_ABI_COUNT_RGB,
} ClhCount;

/**
 * ClhColor:
 * @CLH_COLOR_RGB: @components name R, G, B[, A] of an 8-bit RGB format
 * @CLH_COLOR_YUV_BT601: @components name Y, U, V of an 8-bit YUV format;
 *   each pixel is converted to RGB with BT.601 limited-range coefficients as
 *   OpenCV's `COLOR_YUV2RGB_I420` does (20-bit fixed point, chroma of the
 *   pixel's subsampled position)
 *
 * Where colour-derived counts take R, G, B from.
 */
typedef enum {
  CLH_COLOR_RGB = CLH_ABI_COLOR_RGB,
  CLH_COLOR_YUV_BT601 = CLH_ABI_COLOR_YUV_BT601,
} ClhColor;

/**
 * ClhHistogramSpec:
 * @count: what is counted
 * @n_components: components listed in @components
 * @components: indices into the frame's components: the ones to count for
 *   %CLH_COUNT_COMPONENTS; R, G, B[, A] or Y, U, V for the others
 * @color: how the other counts read a colour
 * @bins: bins per axis
 * @range_min: smallest value counted (%CLH_COUNT_COMPONENTS, _LUMA, _MAX)
 * @range_max: largest value counted, inclusive; value v goes to bin
 *   `(v - range_min) * bins / (range_max - range_min + 1)`
 * @min_saturation: pixels of lower HSV saturation are not counted
 *   (%CLH_COUNT_HUE, _HUE_SATURATION)
 * @min_value: pixels of lower HSV value are not counted
 */
typedef struct {
  ClhCount count;
  guint n_components;
  guint components[CLH_MAX_COMPONENTS];
  ClhColor color;
  guint bins;
  guint range_min;
  guint range_max;
  guint min_saturation;
  guint min_value;
} ClhHistogramSpec;

/**
 * ClhHistogram:
 * @counts: (array): `n_channels * n_bins` counters, channel-major (see
 *   clh_histogram_spec_n_channels() and clh_histogram_spec_n_bins())
 * @samples: samples (pixels, for colour counts) each channel examined
 * @below: samples under range_min, not counted in any bin
 * @above: samples over range_max, not counted in any bin
 *
 * A result. The caller allocates @counts.
 */
typedef struct {
  guint32 *counts;
  guint64 samples[CLH_MAX_CHANNELS];
  guint64 below[CLH_MAX_CHANNELS];
  guint64 above[CLH_MAX_CHANNELS];
} ClhHistogram;

/**
 * ClhStats:
 * @samples: samples the channel examined
 * @min: the smallest sample value, 0 without samples
 * @max: the largest, 0 without samples
 * @sum: the sum of the sample values (the mean is @sum / @samples)
 * @clipped_low: samples at or below the clip-low level (ClhStatsSpec)
 * @clipped_high: samples at or above the clip-high level
 * @below_legal: samples under the legal range's low end
 * @above_legal: samples over its high end
 * @percentiles: for each p asked for, the smallest sample value v such
 *   that the samples <= v number at least `lrint (samples * p / 100)`
 *   (FFmpeg signalstats' rule; a rank of 0 gives the smallest sample)
 *
 * One channel's statistics, exact: every field is a count or a value of
 * the samples, never of bin centres. The engine reads them off a value
 * histogram (clh_stats_from_values()), the golden reference off the
 * sorted samples.
 */
typedef struct {
  guint64 samples;
  guint min;
  guint max;
  guint64 sum;
  guint64 clipped_low;
  guint64 clipped_high;
  guint64 below_legal;
  guint64 above_legal;
  guint percentiles[CLH_MAX_PERCENTILES];
} ClhStats;

/* The mean sample value of @stats, 0.0 without samples. */
static inline gdouble
clh_stats_mean (const ClhStats *stats)
{
  return stats->samples ? (gdouble) stats->sum / (gdouble) stats->samples :
      0.0;
}

#define CLH_SPEC_ERROR (clh_spec_error_quark ())

/**
 * ClhSpecError:
 * @CLH_SPEC_ERROR_UNSUPPORTED: the request does not fit the frame; the
 *   message says which part and why
 */
typedef enum {
  CLH_SPEC_ERROR_UNSUPPORTED,
} ClhSpecError;

GQuark clh_spec_error_quark (void);

guint clh_sub_scale (guint size, guint sub);
guint clh_component_width (const ClhFrame *frame, guint component);
guint clh_component_height (const ClhFrame *frame, guint component);
guint clh_frame_sample_bytes (const ClhFrame *frame);
gsize clh_frame_plane_span (const ClhFrame *frame, guint plane);
gsize clh_frame_plane_row_bytes (const ClhFrame *frame, guint plane);
guint clh_frame_plane_rows (const ClhFrame *frame, guint plane);
guint clh_frame_plane_h_sub (const ClhFrame *frame, guint plane);
/**
 * ClhRect:
 * @x: left edge, pixels (may lie outside the frame before clipping)
 * @y: top edge, pixels
 * @width: pixels
 * @height: rows
 *
 * A rectangle of the frame, in the pixels of its caps: a region whose
 * histogram is counted.
 */
typedef struct {
  gint x;
  gint y;
  gint width;
  gint height;
} ClhRect;

gboolean clh_frame_is_valid (const ClhFrame *frame);
void clh_rect_clip (ClhRect *rect, guint width, guint height);
void clh_zone_rect (guint width, guint height, guint cols, guint rows,
    guint i, guint j, ClhRect *rect);

/* Bytes a zone's position name takes at most, its NUL included
 * ("bottom-right", "r63c63"). */
#define CLH_ZONE_POSITION_SIZE 16

void clh_zone_position (guint cols, guint rows, guint i, guint j,
    gchar *position, gsize size);
gboolean clh_frame_crop (ClhFrame *frame, guint x, guint y, guint width,
    guint height, const ClhHistogramSpec *spec, GError **error);

guint clh_histogram_spec_n_channels (const ClhHistogramSpec *spec);
guint clh_histogram_spec_n_bins (const ClhHistogramSpec *spec);
void clh_histogram_spec_set_first_components (ClhHistogramSpec *spec,
    guint n);
gboolean clh_histogram_spec_is_valid (const ClhHistogramSpec *spec,
    const ClhFrame *frame, GError **error);
void clh_histogram_set_samples (ClhHistogram *histogram,
    const ClhHistogramSpec *spec, const ClhFrame *frame);
void clh_histogram_set_region_samples (ClhHistogram *histogram,
    const ClhHistogramSpec *spec, const ClhFrame *frame,
    const ClhRect *region);

G_END_DECLS
