/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the elements on the engine share (gstclutils.c). */
#pragma once

#include <gst/video/video.h>

#include "clh-frame.h"
#include "gstclcontext.h"

G_BEGIN_DECLS

gboolean gst_cl_frame_format (const GstVideoInfo *info, ClhFrame *format);
void gst_cl_post_open_error (GstElement *self, const gchar *device_spec,
    const GError *err);

/* Makes an element's engine on a device context (clh_tracker_new(),
 * clh_scope_new(), ...). */
typedef gpointer (*GstClEngineNew) (ClhContext *context, GError **error);

gpointer gst_cl_open_engine (GstElement *element, gchar *const *device,
    GstClContextHandle **context, GstClEngineNew engine_new,
    gchar **device_name, const gchar *what);

G_END_DECLS
