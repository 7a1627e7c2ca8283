/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Frame contents the tests count: what degenerate, random, gradient and
 * padded frames look like. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  CLH_TEST_RANDOM,              /* uniform random bytes */
  CLH_TEST_ZERO,                /* every sample 0 */
  CLH_TEST_MAX,                 /* every sample 255 */
  CLH_TEST_GRADIENT,            /* byte i of row y: (i + 3 y) mod 256 */
  CLH_TEST_N_CONTENTS
} ClhTestContent;

/* Padding bytes get this value, so a kernel that counts them is caught. */
#define CLH_TEST_PADDING 0xA5

const gchar *clh_test_content_name (ClhTestContent content);

void clh_test_fill (guint8 *data, gsize size, gsize offset, gsize stride,
    gsize row_bytes, guint height, ClhTestContent content, guint32 seed);

G_END_DECLS
