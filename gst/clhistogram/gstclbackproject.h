/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "gstcltrackerfilter.h"

G_BEGIN_DECLS

/**
 * GstBackprojectMode:
 * @GST_BACKPROJECT_MODE_HUE: HSV hue, 0..179 (OpenCV's 8-bit HSV)
 * @GST_BACKPROJECT_MODE_HUE_SATURATION: hue x saturation, hue-major
 * @GST_BACKPROJECT_MODE_RGB: R x G x B, R-major
 * @GST_BACKPROJECT_MODE_LUMA: BT.601 luma (the Y plane of YUV formats)
 *
 * The colour space of a clbackproject model, as clhistogram's modes of the
 * same nicks count it.
 */
typedef enum {
  GST_BACKPROJECT_MODE_HUE,
  GST_BACKPROJECT_MODE_HUE_SATURATION,
  GST_BACKPROJECT_MODE_RGB,
  GST_BACKPROJECT_MODE_LUMA,
} GstBackprojectMode;

#define GST_TYPE_BACKPROJECT_MODE (gst_backproject_mode_get_type ())
GType gst_backproject_mode_get_type (void);

#define GST_TYPE_CL_BACKPROJECT (gst_cl_backproject_get_type ())
G_DECLARE_FINAL_TYPE (GstClBackproject, gst_cl_backproject, GST,
    CL_BACKPROJECT, GstClTrackerFilter)

GST_ELEMENT_REGISTER_DECLARE (clbackproject);

G_END_DECLS
