/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "base/gstclbasetransform.h"

G_BEGIN_DECLS

#define GST_TYPE_CL_HISTOGRAM (gst_cl_histogram_get_type ())
G_DECLARE_FINAL_TYPE (GstClHistogram, gst_cl_histogram, GST, CL_HISTOGRAM,
    GstClBaseTransform)

GST_ELEMENT_REGISTER_DECLARE (clhistogram);

G_END_DECLS
