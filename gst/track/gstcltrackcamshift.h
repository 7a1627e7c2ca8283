/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "gstcltrackfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CL_CAMSHIFT (gst_cl_camshift_get_type ())
G_DECLARE_FINAL_TYPE (GstClCamShift, gst_cl_camshift, GST, CL_CAMSHIFT,
    GstClTrackerFilter)

GST_ELEMENT_REGISTER_DECLARE (clcamshift);

G_END_DECLS
