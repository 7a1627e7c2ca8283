/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Frames of any format for the engine tests, built from the oracle's
 * format table, with their own plane memory. */
#pragma once

#include "clh-reference-layout.h"
#include "clh-test-util.h"

G_BEGIN_DECLS

typedef struct {
  ClhFrame frame;
  ClhFormatClass klass;
  guint8 *memory[CLH_MAX_PLANES];
} ClhTestFrame;

ClhTestFrame *clh_test_frame_new (const gchar *format, guint width,
    guint height, guint extra_stride, ClhTestContent content, guint32 seed);
void clh_test_frame_free (ClhTestFrame *frame);
guint clh_test_max_bins (const gchar *mode, guint depth);
gboolean clh_test_host_can_count (const ClhFrame *frame,
    const ClhHistogramSpec *spec);

G_END_DECLS
