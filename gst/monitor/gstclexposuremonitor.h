/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_TYPE_CL_EXPOSURE_MONITOR (gst_cl_exposure_monitor_get_type ())
G_DECLARE_FINAL_TYPE (GstClExposureMonitor, gst_cl_exposure_monitor, GST,
    CL_EXPOSURE_MONITOR, GstBin)

GST_ELEMENT_REGISTER_DECLARE (clexposuremonitor);

G_END_DECLS
