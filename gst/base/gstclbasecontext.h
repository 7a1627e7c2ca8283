/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gst/gst.h>

#include "clh-context.h"

G_BEGIN_DECLS

/**
 * GST_CL_CONTEXT_TYPE:
 *
 * The #GstContext type that carries a #ClhContext: one OpenCL device with
 * its cl_context and compiled kernels, shared by every element on that
 * device.
 */
#define GST_CL_CONTEXT_TYPE "gst.opencl.context"

/**
 * GstClContextHandle:
 *
 * A #ClhContext as a boxed type: copying takes a reference, freeing drops
 * it.
 */
typedef ClhContext GstClContextHandle;

#define GST_TYPE_CL_CONTEXT_HANDLE (gst_cl_context_handle_get_type ())
GType gst_cl_context_handle_get_type (void);

GstClContextHandle *gst_cl_context_handle_ref (GstClContextHandle *handle);
void gst_cl_context_handle_unref (GstClContextHandle *handle);

GstContext *gst_context_new_cl_context (ClhContext *context);
ClhContext *gst_context_get_cl_context (GstContext *context);

gboolean gst_cl_handle_set_context (GstElement *element, GstContext *context,
    gchar *const *device, ClhContext **context_ptr);
gboolean gst_cl_handle_context_query (GstElement *element, GstQuery *query,
    ClhContext *context);
gboolean gst_cl_ensure_element_context (GstElement *element,
    const gchar *device_spec, ClhContext **context_ptr, GError **error);

G_END_DECLS
