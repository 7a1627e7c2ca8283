/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "clh-reference-layout.h"

#include <string.h>

typedef struct {
  const gchar *format;
  ClhFormatClass klass;
  ClhSampleType sample;
  guint depth;
  guint n_planes;
  guint n_components;
  /* plane, offset, pixel stride, shift, w_sub, h_sub per component, in
   * the order R, G, B[, A] or Y, U, V */
  ClhComponent components[CLH_MAX_COMPONENTS];
} Layout;

#define GRAY CLH_FORMAT_GRAY
#define RGB CLH_FORMAT_RGB
#define YUV CLH_FORMAT_YUV
#define S8 CLH_SAMPLE_8
#define LE CLH_SAMPLE_16LE
#define BE CLH_SAMPLE_16BE

static const Layout layouts[] = {
  {"GRAY8", GRAY, S8, 8, 1, 1, {{0, 0, 1}}},
  {"GRAY16_LE", GRAY, LE, 16, 1, 1, {{0, 0, 2}}},
  {"GRAY16_BE", GRAY, BE, 16, 1, 1, {{0, 0, 2}}},

  {"RGB", RGB, S8, 8, 1, 3, {{0, 0, 3}, {0, 1, 3}, {0, 2, 3}}},
  {"BGR", RGB, S8, 8, 1, 3, {{0, 2, 3}, {0, 1, 3}, {0, 0, 3}}},
  {"RGBA", RGB, S8, 8, 1, 4, {{0, 0, 4}, {0, 1, 4}, {0, 2, 4}, {0, 3, 4}}},
  {"BGRA", RGB, S8, 8, 1, 4, {{0, 2, 4}, {0, 1, 4}, {0, 0, 4}, {0, 3, 4}}},
  {"ARGB", RGB, S8, 8, 1, 4, {{0, 1, 4}, {0, 2, 4}, {0, 3, 4}, {0, 0, 4}}},
  {"ABGR", RGB, S8, 8, 1, 4, {{0, 3, 4}, {0, 2, 4}, {0, 1, 4}, {0, 0, 4}}},
  {"RGBx", RGB, S8, 8, 1, 3, {{0, 0, 4}, {0, 1, 4}, {0, 2, 4}}},
  {"BGRx", RGB, S8, 8, 1, 3, {{0, 2, 4}, {0, 1, 4}, {0, 0, 4}}},
  {"xRGB", RGB, S8, 8, 1, 3, {{0, 1, 4}, {0, 2, 4}, {0, 3, 4}}},
  {"xBGR", RGB, S8, 8, 1, 3, {{0, 3, 4}, {0, 2, 4}, {0, 1, 4}}},

  /* Planar: Y, U, V planes (YV12 and YVU9 store V before U). */
  {"I420", YUV, S8, 8, 3, 3, {{0, 0, 1}, {1, 0, 1, 0, 1, 1}, {2, 0, 1, 0, 1, 1}}},
  {"YV12", YUV, S8, 8, 3, 3, {{0, 0, 1}, {2, 0, 1, 0, 1, 1}, {1, 0, 1, 0, 1, 1}}},
  {"Y41B", YUV, S8, 8, 3, 3, {{0, 0, 1}, {1, 0, 1, 0, 2, 0}, {2, 0, 1, 0, 2, 0}}},
  {"Y42B", YUV, S8, 8, 3, 3, {{0, 0, 1}, {1, 0, 1, 0, 1, 0}, {2, 0, 1, 0, 1, 0}}},
  {"Y444", YUV, S8, 8, 3, 3, {{0, 0, 1}, {1, 0, 1}, {2, 0, 1}}},
  {"YUV9", YUV, S8, 8, 3, 3, {{0, 0, 1}, {1, 0, 1, 0, 2, 2}, {2, 0, 1, 0, 2, 2}}},
  {"YVU9", YUV, S8, 8, 3, 3, {{0, 0, 1}, {2, 0, 1, 0, 2, 2}, {1, 0, 1, 0, 2, 2}}},

  /* Semi-planar: Y plane, interleaved chroma plane. */
  {"NV12", YUV, S8, 8, 2, 3, {{0, 0, 1}, {1, 0, 2, 0, 1, 1}, {1, 1, 2, 0, 1, 1}}},
  {"NV21", YUV, S8, 8, 2, 3, {{0, 0, 1}, {1, 1, 2, 0, 1, 1}, {1, 0, 2, 0, 1, 1}}},
  {"NV16", YUV, S8, 8, 2, 3, {{0, 0, 1}, {1, 0, 2, 0, 1, 0}, {1, 1, 2, 0, 1, 0}}},
  {"NV61", YUV, S8, 8, 2, 3, {{0, 0, 1}, {1, 1, 2, 0, 1, 0}, {1, 0, 2, 0, 1, 0}}},
  {"NV24", YUV, S8, 8, 2, 3, {{0, 0, 1}, {1, 0, 2}, {1, 1, 2}}},

  /* Packed 4:2:2: two pixels in four bytes. */
  {"YUY2", YUV, S8, 8, 1, 3, {{0, 0, 2}, {0, 1, 4, 0, 1, 0}, {0, 3, 4, 0, 1, 0}}},
  {"UYVY", YUV, S8, 8, 1, 3, {{0, 1, 2}, {0, 0, 4, 0, 1, 0}, {0, 2, 4, 0, 1, 0}}},
  {"YVYU", YUV, S8, 8, 1, 3, {{0, 0, 2}, {0, 3, 4, 0, 1, 0}, {0, 1, 4, 0, 1, 0}}},
  {"VYUY", YUV, S8, 8, 1, 3, {{0, 1, 2}, {0, 2, 4, 0, 1, 0}, {0, 0, 4, 0, 1, 0}}},

  /* High bit depth, in 16-bit containers. */
  {"I420_10LE", YUV, LE, 10, 3, 3, {{0, 0, 2}, {1, 0, 2, 0, 1, 1}, {2, 0, 2, 0, 1, 1}}},
  {"I420_10BE", YUV, BE, 10, 3, 3, {{0, 0, 2}, {1, 0, 2, 0, 1, 1}, {2, 0, 2, 0, 1, 1}}},
  {"I420_12LE", YUV, LE, 12, 3, 3, {{0, 0, 2}, {1, 0, 2, 0, 1, 1}, {2, 0, 2, 0, 1, 1}}},
  {"I422_10LE", YUV, LE, 10, 3, 3, {{0, 0, 2}, {1, 0, 2, 0, 1, 0}, {2, 0, 2, 0, 1, 0}}},
  {"I422_12LE", YUV, LE, 12, 3, 3, {{0, 0, 2}, {1, 0, 2, 0, 1, 0}, {2, 0, 2, 0, 1, 0}}},
  {"Y444_10LE", YUV, LE, 10, 3, 3, {{0, 0, 2}, {1, 0, 2}, {2, 0, 2}}},
  {"Y444_10BE", YUV, BE, 10, 3, 3, {{0, 0, 2}, {1, 0, 2}, {2, 0, 2}}},
  {"Y444_12LE", YUV, LE, 12, 3, 3, {{0, 0, 2}, {1, 0, 2}, {2, 0, 2}}},
  {"Y444_16LE", YUV, LE, 16, 3, 3, {{0, 0, 2}, {1, 0, 2}, {2, 0, 2}}},
  /* MSB-aligned: 10 or 12 significant bits at the top of 16. */
  {"P010_10LE", YUV, LE, 10, 2, 3, {{0, 0, 2, 6}, {1, 0, 4, 6, 1, 1}, {1, 2, 4, 6, 1, 1}}},
  {"P012_LE", YUV, LE, 12, 2, 3, {{0, 0, 2, 4}, {1, 0, 4, 4, 1, 1}, {1, 2, 4, 4, 1, 1}}},
  {"P016_LE", YUV, LE, 16, 2, 3, {{0, 0, 2}, {1, 0, 4, 0, 1, 1}, {1, 2, 4, 0, 1, 1}}},
};

/**
 * clh_reference_formats:
 *
 * Returns: (transfer none): the names of every format the table knows,
 *   %NULL-terminated
 */
const gchar *const *
clh_reference_formats (void)
{
  static const gchar *names[G_N_ELEMENTS (layouts) + 1];
  guint i;

  for (i = 0; i < G_N_ELEMENTS (layouts); i++)
    names[i] = layouts[i].format;
  return names;
}

/**
 * clh_reference_layout:
 * @format: a GStreamer video format name, e.g. `"NV12"`
 * @frame: (out): its sample type, depth, planes and components; size and
 *   plane pointers are left to the caller
 * @klass: (out): whether it is gray, RGB or YUV
 *
 * Returns: %FALSE if @format is not in the table.
 */
gboolean
clh_reference_layout (const gchar *format, ClhFrame *frame,
    ClhFormatClass *klass)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (layouts); i++) {
    const Layout *l = &layouts[i];

    if (strcmp (l->format, format) != 0)
      continue;
    frame->sample = l->sample;
    frame->depth = l->depth;
    frame->n_planes = l->n_planes;
    frame->n_components = l->n_components;
    memcpy (frame->components, l->components, sizeof (l->components));
    *klass = l->klass;
    return TRUE;
  }
  return FALSE;
}

/* Has @spec read the frame's first @n components, in the format's order. */
static void
first_components (ClhHistogramSpec *spec, guint n)
{
  guint i;

  spec->n_components = n;
  for (i = 0; i < n; i++)
    spec->components[i] = i;
}

/**
 * clh_reference_spec:
 * @klass: the format's class
 * @frame: the format's layout
 * @mode: a mode nick: `luma`, `channels`, `max`, `hue`, `hue-saturation`,
 *   `rgb`
 * @bins: bins per axis
 * @spec: (out): what clhistogram counts in that mode, over the full range
 *   of the samples, with no saturation or value mask
 *
 * Returns: %FALSE if the mode does not apply to the class.
 */
gboolean
clh_reference_spec (ClhFormatClass klass, const ClhFrame *frame,
    const gchar *mode, guint bins, ClhHistogramSpec *spec)
{
  memset (spec, 0, sizeof (*spec));
  spec->bins = bins;
  spec->range_max = (1u << frame->depth) - 1;
  spec->color = klass == CLH_FORMAT_YUV ? CLH_COLOR_YUV_BT601 : CLH_COLOR_RGB;

  if (g_str_equal (mode, "channels")) {
    spec->count = CLH_COUNT_COMPONENTS;
    first_components (spec, frame->n_components);
  } else if (g_str_equal (mode, "luma")) {
    spec->count = klass == CLH_FORMAT_RGB ? CLH_COUNT_LUMA :
        CLH_COUNT_COMPONENTS;
    first_components (spec, klass == CLH_FORMAT_RGB ? 3 : 1);
  } else if (klass == CLH_FORMAT_GRAY || frame->depth != 8) {
    return FALSE;
  } else if (g_str_equal (mode, "max") && klass == CLH_FORMAT_RGB) {
    spec->count = CLH_COUNT_MAX;
    first_components (spec, frame->n_components);
  } else if (g_str_equal (mode, "rgb") && klass == CLH_FORMAT_RGB) {
    spec->count = CLH_COUNT_RGB;
    first_components (spec, 3);
  } else if (g_str_equal (mode, "hue")) {
    spec->count = CLH_COUNT_HUE;
    first_components (spec, 3);
  } else if (g_str_equal (mode, "hue-saturation")) {
    spec->count = CLH_COUNT_HUE_SATURATION;
    first_components (spec, 3);
  } else {
    return FALSE;
  }
  return TRUE;
}
