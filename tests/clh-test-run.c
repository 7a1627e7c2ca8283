/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <string.h>

#include "clh-test-run.h"

/* One format of each way of laying out samples: gray 8 and 16-bit
 * (byte-swapped), packed RGB of 3 and 4 bytes (alpha first, padding),
 * planar 4:2:0, 4:1:0 and 4:4:4, semi-planar with swapped chroma, packed
 * 4:2:2 in both orders, 10-bit planar, MSB-aligned 16-bit semi-planar and
 * 16-bit planar. Every kernel and path is reached by one of them; the
 * thorough run takes every format. */
static const gchar *const quick_formats[] = {
  "GRAY8", "GRAY16_BE", "RGB", "ARGB", "BGRx", "I420", "YUV9", "Y444",
  "NV21", "YUY2", "UYVY", "I420_10LE", "P010_10LE", "Y444_16LE",
};

/**
 * clh_test_thorough:
 *
 * Returns: whether this is the thorough run: `CLH_TEST_THOROUGH=1` in the
 *   environment (as meson sets it for the tests of suite `slow`).
 */
gboolean
clh_test_thorough (void)
{
  return g_strcmp0 (g_getenv ("CLH_TEST_THOROUGH"), "1") == 0;
}

/**
 * clh_test_format_in_run:
 * @format: a GStreamer video format name
 *
 * Returns: whether this run tests @format: every format in the thorough
 *   run, one of each layout in the quick one.
 */
gboolean
clh_test_format_in_run (const gchar *format)
{
  guint i;

  if (clh_test_thorough ())
    return TRUE;
  for (i = 0; i < G_N_ELEMENTS (quick_formats); i++)
    if (strcmp (quick_formats[i], format) == 0)
      return TRUE;
  return FALSE;
}
