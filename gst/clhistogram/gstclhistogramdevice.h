/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clhistogram's device: the shared context, its own engine on it, and the
 * element errors that say what to do when the device fails. */
#pragma once

#include "gstclhistogram.h"

G_BEGIN_DECLS

gboolean gst_cl_histogram_open_device (GstClHistogram *self);
void gst_cl_histogram_close_device (GstClHistogram *self);
void gst_cl_histogram_post_engine_error (GstClHistogram *self,
    const GError *err);
void gst_cl_post_open_error (GstElement *self, const gchar *device_spec,
    const GError *err);

G_END_DECLS
