/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "clh-test-frame.h"

/**
 * clh_test_frame_new:
 * @format: a format of the oracle's table
 * @width: pixels
 * @height: rows
 * @extra_stride: bytes each plane's rows are longer than they need be
 *   (rounded up to the sample size)
 * @content: what the rows hold
 * @seed: seed of %CLH_TEST_RANDOM
 *
 * Returns: (transfer full): the frame; its padding holds %CLH_TEST_PADDING
 */
ClhTestFrame *
clh_test_frame_new (const gchar *format, guint width, guint height,
    guint extra_stride, ClhTestContent content, guint32 seed)
{
  ClhTestFrame *t = g_new0 (ClhTestFrame, 1);
  ClhFrame *f = &t->frame;
  guint p;

  g_assert_true (clh_reference_layout (format, f, &t->klass));
  f->width = width;
  f->height = height;
  for (p = 0; p < f->n_planes; p++) {
    const gsize bytes = clh_frame_sample_bytes (f);
    gsize row = clh_frame_plane_row_bytes (f, p);
    gsize stride = (row + extra_stride + bytes - 1) / bytes * bytes;
    guint rows = clh_frame_plane_rows (f, p);
    gsize size = stride * rows;

    t->memory[p] = g_malloc (size);
    clh_test_fill (t->memory[p], size, 0, stride, row, rows, content,
        seed * 31 + p);
    f->planes[p].data = t->memory[p];
    f->planes[p].stride = stride;
  }
  g_assert_true (clh_frame_is_valid (f));
  return t;
}

void
clh_test_frame_free (ClhTestFrame *frame)
{
  guint p;

  for (p = 0; p < CLH_MAX_PLANES; p++)
    g_free (frame->memory[p]);
  g_free (frame);
}

/* Most bins @mode allows for samples of @depth bits. */
guint
clh_test_max_bins (const gchar *mode, guint depth)
{
  if (g_str_equal (mode, "hue") || g_str_equal (mode, "hue-saturation"))
    return 180;
  if (g_str_equal (mode, "rgb"))
    return 40;
  if (depth <= 8)
    return 256;
  return depth <= 12 ? 4096 : 65536;
}

/* Whether the engine's host counting (engine/clh-engine-host.c) takes
 * @spec of @frame, as it documents: 8-bit components, and the luma or
 * maximum of 8-bit RGB. Written out here so that a test notices when the
 * engine's choice moves. */
gboolean
clh_test_host_can_count (const ClhFrame *frame, const ClhHistogramSpec *spec)
{
  return frame->sample == CLH_SAMPLE_8
      && (spec->count == CLH_COUNT_COMPONENTS
      || ((spec->count == CLH_COUNT_LUMA || spec->count == CLH_COUNT_MAX)
          && spec->color == CLH_COLOR_RGB));
}
