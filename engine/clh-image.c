/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "clh-image.h"

/**
 * clh_image_is_valid:
 * @image: the image
 *
 * Returns: %TRUE if @image has data, a size within 1..%CLH_MAX_DIMENSION, a
 *   pixel stride of 1 or 4 and rows that do not overlap.
 */
gboolean
clh_image_is_valid (const ClhImage *image)
{
  return image->data != NULL
      && image->width >= 1 && image->width <= CLH_MAX_DIMENSION
      && image->height >= 1 && image->height <= CLH_MAX_DIMENSION
      && (image->pixel_stride == 1 || image->pixel_stride == 4)
      && image->stride >= (gsize) image->width * image->pixel_stride;
}

/**
 * clh_histogram_spec_is_valid:
 * @spec: the request
 * @pixel_stride: bytes per pixel of the image it will be applied to
 *
 * Returns: %TRUE if @spec names 1..256 bins, a channel count its mode
 *   allows and offsets inside a pixel of @pixel_stride bytes.
 */
gboolean
clh_histogram_spec_is_valid (const ClhHistogramSpec *spec, guint pixel_stride)
{
  guint needed, i;

  if (spec->bins < 1 || spec->bins > 256)
    return FALSE;

  switch (spec->count) {
    case CLH_COUNT_SAMPLES:
      if (spec->n_channels < 1 || spec->n_channels > CLH_MAX_CHANNELS)
        return FALSE;
      needed = spec->n_channels;
      break;
    case CLH_COUNT_LUMA_RGB:
      if (spec->n_channels != 1 || pixel_stride < 3)
        return FALSE;
      needed = 3;
      break;
    default:
      return FALSE;
  }

  for (i = 0; i < needed; i++)
    if (spec->offsets[i] >= pixel_stride)
      return FALSE;
  return TRUE;
}

/**
 * clh_image_span:
 * @image: a valid image
 *
 * Returns: the bytes from @image->data to one past the last sample read.
 */
gsize
clh_image_span (const ClhImage *image)
{
  return image->stride * (image->height - 1)
      + (gsize) image->width * image->pixel_stride;
}
