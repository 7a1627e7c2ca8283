/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "gstcltrackfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CL_BACKPROJECT (gst_cl_backproject_get_type ())
G_DECLARE_FINAL_TYPE (GstClBackproject, gst_cl_backproject, GST,
    CL_BACKPROJECT, GstClTrackerFilter)

GST_ELEMENT_REGISTER_DECLARE (clbackproject);

G_END_DECLS
