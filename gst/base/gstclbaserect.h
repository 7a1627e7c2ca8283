/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Rectangles as GStreamer values (gstclbaserect.c). */
#pragma once

#include <gst/gst.h>

#include "clh-frame.h"

G_BEGIN_DECLS

gboolean gst_cl_rect_from_value (const GValue *value, ClhRect *rect);
void gst_cl_rect_to_value (const ClhRect *rect, GValue *value);

G_END_DECLS
