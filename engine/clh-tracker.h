/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The tracking engine: OpenCV's calcBackProject() and CamShift() on an
 * OpenCL device, over the same device context (and compiled program) as
 * the histogram engine. What the elements see of it: no OpenCL and no
 * GStreamer types. */
#pragma once

#include "clh-context.h"
#include "clh-track.h"

G_BEGIN_DECLS

typedef struct _ClhTracker ClhTracker;

ClhTracker *clh_tracker_new (ClhContext *context, GError **error);
void clh_tracker_free (ClhTracker *tracker);

gboolean clh_tracker_backproject (ClhTracker *tracker, const ClhFrame *frame,
    const ClhHostBlock *block, const ClhBackprojectSpec *spec, guint8 *dest,
    gsize dest_stride, GError **error);

gboolean clh_tracker_set_frame (ClhTracker *tracker, const ClhFrame *frame,
    const ClhHostBlock *block, const ClhBackprojectSpec *spec,
    GError **error);
gboolean clh_tracker_window_histograms (ClhTracker *tracker,
    const ClhRect *windows, guint n_windows, guint32 *counts,
    GError **error);
gboolean clh_tracker_camshift (ClhTracker *tracker, const gfloat *models,
    ClhRect *windows, guint n_windows, const ClhCamShiftCriteria *criteria,
    ClhRotatedBox *boxes, ClhCamShiftMass *masses, GError **error);

void clh_camshift_model_normalize (const guint32 *counts, guint bins,
    gfloat *model);
gboolean clh_camshift_finish (const ClhMoments *m, ClhRect *window,
    guint width, guint height, ClhRotatedBox *box);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ClhTracker, clh_tracker_free)

G_END_DECLS
