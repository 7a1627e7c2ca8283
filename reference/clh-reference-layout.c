/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "clh-reference-layout.h"

#include <string.h>

typedef struct {
  const gchar *format;
  guint pixel_stride;
  guint n_channels;
  guint offsets[CLH_MAX_CHANNELS];      /* R, G, B[, A], or Y */
} Layout;

static const Layout layouts[] = {
  {"GRAY8", 1, 1, {0}},
  {"RGBA", 4, 4, {0, 1, 2, 3}},
  {"BGRA", 4, 4, {2, 1, 0, 3}},
  {"ARGB", 4, 4, {1, 2, 3, 0}},
  {"ABGR", 4, 4, {3, 2, 1, 0}},
  {"RGBx", 4, 3, {0, 1, 2}},
  {"BGRx", 4, 3, {2, 1, 0}},
  {"xRGB", 4, 3, {1, 2, 3}},
  {"xBGR", 4, 3, {3, 2, 1}},
};

/**
 * clh_reference_layout:
 * @format: a GStreamer video format name, e.g. `"BGRx"`
 * @luma: %TRUE for mode `luma`, %FALSE for `channels`
 * @bins: bins per channel
 * @spec: (out): what clhistogram counts for @format in that mode
 * @pixel_stride: (out): bytes per pixel of @format
 *
 * Returns: %FALSE if @format is not one the element supports.
 */
gboolean
clh_reference_layout (const gchar *format, gboolean luma, guint bins,
    ClhHistogramSpec *spec, guint *pixel_stride)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (layouts); i++) {
    const Layout *l = &layouts[i];

    if (strcmp (l->format, format) != 0)
      continue;
    memset (spec, 0, sizeof (*spec));
    memcpy (spec->offsets, l->offsets, sizeof (l->offsets));
    spec->bins = bins;
    spec->n_channels = luma ? 1 : l->n_channels;
    spec->count = luma && l->n_channels > 1 ? CLH_COUNT_LUMA_RGB :
        CLH_COUNT_SAMPLES;
    *pixel_stride = l->pixel_stride;
    return TRUE;
  }
  return FALSE;
}
