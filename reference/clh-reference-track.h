/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The trackers' golden reference: OpenCV's calcBackProject(), the model of
 * OpenCV's CamShift sample (samples/python/camshift.py), meanShift() and
 * CamShift() as plain sequential C, equal to OpenCV 4.6 on x86-64 bit for
 * bit (tests/test_track_opencv.py proves it). */
#pragma once

#include "clh-track.h"

G_BEGIN_DECLS

gint clh_reference_axis_bin (guint value, guint bins, guint axis_size);
guint8 clh_reference_saturate_u8 (gfloat value);

void clh_reference_backproject (const ClhFrame *frame,
    const ClhBackprojectSpec *spec, guint8 *dest, gsize dest_stride);
void clh_reference_camshift_model (const ClhFrame *frame,
    const ClhBackprojectSpec *spec, const ClhRect *window, gfloat *model);

void clh_reference_moments (const guint8 *prob, gsize stride,
    const ClhRect *window, ClhMoments *m);
void clh_reference_central_moments (const ClhMoments *m, gdouble *mu20,
    gdouble *mu11, gdouble *mu02);
guint clh_reference_mean_shift (const guint8 *prob, gsize stride,
    guint width, guint height, ClhRect *window,
    const ClhCamShiftCriteria *criteria);
gboolean clh_reference_camshift (const guint8 *prob, gsize stride,
    guint width, guint height, ClhRect *window,
    const ClhCamShiftCriteria *criteria, ClhRotatedBox *box,
    ClhCamShiftMass *mass);

G_END_DECLS
