/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* An input's monitor picture (--monitor-pictures): a branch of its
 * pipeline that makes a PNG of the frames the histogram counts through
 * clexposuremonitor, at most once a period. */
#pragma once

#include <gst/gst.h>

#include "probe-settings.h"

G_BEGIN_DECLS

typedef struct _ProbePicture ProbePicture;

/* A picture made, on the branch's streaming thread: @png, a PNG of
 * @width x @height pixels, is the callee's to reference. */
typedef void (*ProbePictureFunc) (GBytes *png, guint width, guint height,
    gpointer data);
/* The branch failed: @reason says why, one line. */
typedef void (*ProbePictureErrorFunc) (const gchar *reason, gpointer data);

ProbePicture *probe_picture_new (GstElement *pipeline, GstElement *histogram,
    const ProbeSettings *settings, gint64 period_us, GError **error);
void probe_picture_set_callbacks (ProbePicture *picture,
    ProbePictureFunc func, ProbePictureErrorFunc error_func, gpointer data);
void probe_picture_free (ProbePicture *picture);

G_END_DECLS
