/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "clh-test-util.h"

#include <string.h>

const gchar *
clh_test_content_name (ClhTestContent content)
{
  static const gchar *const names[] = { "random", "zero", "max", "gradient" };
  return names[content];
}

/**
 * clh_test_fill:
 * @data: the buffer's bytes
 * @size: bytes in @data
 * @offset: where the first row starts
 * @stride: bytes from one row to the next
 * @row_bytes: bytes of image in a row
 * @height: rows
 * @content: what the image holds
 * @seed: seed of %CLH_TEST_RANDOM
 *
 * Fills the image rows with @content and every other byte of @data (the
 * offset, row padding and tail) with %CLH_TEST_PADDING.
 */
void
clh_test_fill (guint8 *data, gsize size, gsize offset, gsize stride,
    gsize row_bytes, guint height, ClhTestContent content, guint32 seed)
{
  GRand *rand = g_rand_new_with_seed (seed);
  guint y;
  gsize i;

  memset (data, CLH_TEST_PADDING, size);
  for (y = 0; y < height; y++) {
    guint8 *row = data + offset + stride * y;

    switch (content) {
      case CLH_TEST_RANDOM:
        for (i = 0; i < row_bytes; i++)
          row[i] = g_rand_int (rand) & 0xff;
        break;
      case CLH_TEST_ZERO:
        memset (row, 0, row_bytes);
        break;
      case CLH_TEST_MAX:
        memset (row, 0xff, row_bytes);
        break;
      default:
        for (i = 0; i < row_bytes; i++)
          row[i] = (i + 3 * y) & 0xff;
        break;
    }
  }
  g_rand_free (rand);
}
