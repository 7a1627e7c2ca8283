/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "clh-reference.h"

#include <string.h>

/**
 * clh_reference_luma:
 * @r: red sample
 * @g: green sample
 * @b: blue sample
 *
 * BT.601 luma with the fixed-point rounding of OpenCV 4's RGB->GRAY
 * (`cv::cvtColor (..., COLOR_RGB2GRAY)`, 15-bit coefficients).
 *
 * Returns: `(9798 R + 19235 G + 3735 B + 16384) >> 15`
 */
guint8
clh_reference_luma (guint8 r, guint8 g, guint8 b)
{
  return (guint8) ((9798u * r + 19235u * g + 3735u * b + 16384u) >> 15);
}

static guint
bin_of (guint8 v, guint bins)
{
  return (guint) v * bins / 256;
}

/**
 * clh_reference_histogram:
 * @image: a valid image (clh_image_is_valid())
 * @spec: a request valid for @image (clh_histogram_spec_is_valid())
 * @counts: (out caller-allocates) (array): `spec->n_channels * spec->bins`
 *   counts, channel-major, overwritten
 *
 * Counts @image one pixel at a time.
 */
void
clh_reference_histogram (const ClhImage *image, const ClhHistogramSpec *spec,
    guint32 *counts)
{
  guint x, y, c;

  memset (counts, 0, sizeof (guint32) * spec->n_channels * spec->bins);

  for (y = 0; y < image->height; y++) {
    const guint8 *row = image->data + image->stride * y;

    for (x = 0; x < image->width; x++) {
      const guint8 *px = row + (gsize) x * image->pixel_stride;

      if (spec->count == CLH_COUNT_LUMA_RGB) {
        guint8 luma = clh_reference_luma (px[spec->offsets[0]],
            px[spec->offsets[1]], px[spec->offsets[2]]);
        counts[bin_of (luma, spec->bins)]++;
      } else {
        for (c = 0; c < spec->n_channels; c++)
          counts[c * spec->bins + bin_of (px[spec->offsets[c]], spec->bins)]++;
      }
    }
  }
}
