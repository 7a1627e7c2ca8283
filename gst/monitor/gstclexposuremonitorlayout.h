/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clexposuremonitor's picture: where the frame and the scopes lie, made
 * from the input's size alone so that a test can check it without a
 * pipeline. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* clscope's picture sizes (docs/scopes.md). */
#define GST_CL_EXPOSURE_MONITOR_MIN_SCOPES 16
#define GST_CL_EXPOSURE_MONITOR_MAX_SCOPES_WIDTH 8192
#define GST_CL_EXPOSURE_MONITOR_MAX_SCOPES_HEIGHT 4096

typedef struct {
  guint x;
  guint y;
  guint width;
  guint height;
} GstClExposureMonitorRect;

typedef struct {
  /* The output picture, pixels. */
  guint width;
  guint height;
  /* The frame with its marks, zones and histogram panel. */
  GstClExposureMonitorRect frame;
  /* clscope's picture, under the frame. */
  GstClExposureMonitorRect scopes;
} GstClExposureMonitorLayout;

gboolean gst_cl_exposure_monitor_layout (guint width, guint height,
    guint shares, guint scopes_height, GstClExposureMonitorLayout *layout);

G_END_DECLS
