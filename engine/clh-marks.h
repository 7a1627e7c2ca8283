/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The marks engine: zebra stripes, false colour and BRNG written into a
 * frame on an OpenCL device (kernels/marks.cl), over the same device
 * context (and compiled program) as the histogram engine. What the
 * elements see of it: no OpenCL and no GStreamer types. */
#pragma once

#include "clh-context.h"
#include "clh-marks-spec.h"

G_BEGIN_DECLS

typedef struct _ClhMarks ClhMarks;

ClhMarks *clh_marks_new (ClhContext *context, GError **error);
void clh_marks_free (ClhMarks *marks);

gboolean clh_marks_draw (ClhMarks *marks, const ClhFrame *frame,
    const ClhMarksSpec *spec, guint8 *const *dest, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ClhMarks, clh_marks_free)

G_END_DECLS
