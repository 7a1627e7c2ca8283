/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the elements on the engine share (gstclbaseutils.c). */
#pragma once

#include <gst/video/video.h>

#include "clh-frame.h"
#include "gstclbasecontext.h"

G_BEGIN_DECLS

gboolean gst_cl_frame_format (const GstVideoInfo *info, ClhFrame *format);
void gst_cl_post_open_error (GstElement *self, const gchar *device_spec,
    const GError *err);

G_END_DECLS
