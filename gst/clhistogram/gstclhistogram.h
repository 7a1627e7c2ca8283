/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>
#include <gst/clhistogram/clhistogram.h>

#include "clh-engine.h"

G_BEGIN_DECLS

#define GST_TYPE_CL_HISTOGRAM (gst_cl_histogram_get_type ())
G_DECLARE_FINAL_TYPE (GstClHistogram, gst_cl_histogram, GST, CL_HISTOGRAM,
    GstBaseTransform)

struct _GstClHistogram {
  GstBaseTransform parent;

  /* Properties, under the object lock. */
  GstHistogramMode mode;
  guint bins;
  gboolean post_messages;
  gboolean attach_meta;
  gchar *device;
  gchar *device_name;

  /* From NULL->READY to READY->NULL; used by the streaming thread. */
  ClhEngine *engine;

  /* Negotiated format. */
  GstVideoInfo info;

  /* The last frame's histogram, CLH_MAX_CHANNELS * 256 counts. */
  guint32 counts[CLH_MAX_CHANNELS * 256];
};

GST_ELEMENT_REGISTER_DECLARE (clhistogram);

G_END_DECLS
