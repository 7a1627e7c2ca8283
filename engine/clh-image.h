/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clhistogram: what a histogram request is, shared by the OpenCL engine and the
 * golden reference. Plain C over GLib types: no OpenCL, no GStreamer. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Most histograms one request produces (R, G, B, A). */
#define CLH_MAX_CHANNELS 4

/* Largest frame edge, in pixels. Counters are 32-bit: 16384 * 16384 = 2^28
 * samples per channel cannot wrap them. */
#define CLH_MAX_DIMENSION 16384

/**
 * ClhImage:
 * @data: first byte of the first row
 * @stride: bytes from the start of one row to the next, at least
 *   @width * @pixel_stride
 * @width: pixels per row, 1..%CLH_MAX_DIMENSION
 * @height: rows, 1..%CLH_MAX_DIMENSION
 * @pixel_stride: bytes per pixel: 1 (one 8-bit sample) or 4 (four 8-bit
 *   samples, as RGBA and its byte orders)
 *
 * One packed plane of 8-bit samples in host memory. Only
 * `stride * (height - 1) + width * pixel_stride` bytes from @data are read.
 */
typedef struct {
  const guint8 *data;
  gsize stride;
  guint width;
  guint height;
  guint pixel_stride;
} ClhImage;

/**
 * ClhCount:
 * @CLH_COUNT_SAMPLES: one histogram per listed sample offset
 * @CLH_COUNT_LUMA_RGB: one histogram of BT.601 luma computed from the
 *   samples at offsets R, G, B with OpenCV 4's RGB->GRAY integer rounding:
 *   `Y = (9798 R + 19235 G + 3735 B + 16384) >> 15`
 *
 * What is counted for each pixel.
 */
typedef enum {
  CLH_COUNT_SAMPLES,
  CLH_COUNT_LUMA_RGB,
} ClhCount;

/**
 * ClhHistogramSpec:
 * @count: what is counted
 * @n_channels: histograms produced: 1..%CLH_MAX_CHANNELS for
 *   %CLH_COUNT_SAMPLES, 1 for %CLH_COUNT_LUMA_RGB
 * @offsets: byte offset inside a pixel of each counted sample, in output
 *   order; for %CLH_COUNT_LUMA_RGB the offsets of R, G and B
 * @bins: bins per channel, 1..256; 8-bit sample v goes to bin
 *   `v * bins / 256` (integer division), as CUB HistogramEven over [0, 256)
 *
 * The output is `n_channels * bins` guint32 counts, channel-major.
 */
typedef struct {
  ClhCount count;
  guint n_channels;
  guint offsets[CLH_MAX_CHANNELS];
  guint bins;
} ClhHistogramSpec;

gboolean clh_image_is_valid (const ClhImage *image);
gboolean clh_histogram_spec_is_valid (const ClhHistogramSpec *spec,
    guint pixel_stride);
gsize clh_image_span (const ClhImage *image);

G_END_DECLS
