/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "gstclscopebase.h"

G_BEGIN_DECLS

/**
 * GstClScopeCorner:
 * @GST_CL_SCOPE_CORNER_TOP_LEFT: the frame's top-left corner
 * @GST_CL_SCOPE_CORNER_TOP_RIGHT: its top-right corner
 * @GST_CL_SCOPE_CORNER_BOTTOM_LEFT: its bottom-left corner
 * @GST_CL_SCOPE_CORNER_BOTTOM_RIGHT: its bottom-right corner
 *
 * Where clscopeoverlay puts the scopes.
 */
typedef enum {
  GST_CL_SCOPE_CORNER_TOP_LEFT,
  GST_CL_SCOPE_CORNER_TOP_RIGHT,
  GST_CL_SCOPE_CORNER_BOTTOM_LEFT,
  GST_CL_SCOPE_CORNER_BOTTOM_RIGHT,
} GstClScopeCorner;

#define GST_TYPE_CL_SCOPE_CORNER (gst_cl_scope_corner_get_type ())
GType gst_cl_scope_corner_get_type (void);

#define GST_TYPE_CL_SCOPE_OVERLAY (gst_cl_scope_overlay_get_type ())
G_DECLARE_FINAL_TYPE (GstClScopeOverlay, gst_cl_scope_overlay, GST,
    CL_SCOPE_OVERLAY, GstClScopeBase)

GST_ELEMENT_REGISTER_DECLARE (clscopeoverlay);

G_END_DECLS
