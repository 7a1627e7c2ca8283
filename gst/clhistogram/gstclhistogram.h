/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>
#include <gst/clhistogram/clhistogram.h>

#include "clh-engine.h"
#include "gstclhistogramregions.h"
#include "gstclhistograminterval.h"
#include "gstclhistogramrequest.h"
#include "gstclhistogramstats.h"
#include "gstclposter.h"
#include "gstclpusher.h"

G_BEGIN_DECLS

#define GST_TYPE_CL_HISTOGRAM (gst_cl_histogram_get_type ())
G_DECLARE_FINAL_TYPE (GstClHistogram, gst_cl_histogram, GST, CL_HISTOGRAM,
    GstBaseTransform)

struct _GstClHistogram {
  GstBaseTransform parent;

  /* Properties and the negotiated format, under the object lock. */
  GstClHistogramSettings settings;
  gchar *device;
  gchar *device_name;
  guint max_frames_in_flight;
  GstVideoInfo info;
  /* The negotiated format's planes and components; plane pointers unset. */
  ClhFrame frame_format;
  /* Upstream answered the latency query as live when the caps came. */
  gboolean upstream_live;

  /* The shared device context, under the object lock: from set_context
   * (in any state) or NULL->READY, to READY->NULL. */
  ClhContext *context;
  /* From NULL->READY to READY->NULL: our own engine (queues, buffers) on
   * that context, and the allocator of the pool we propose. */
  ClhEngine *engine;
  GstAllocator *allocator;

  /* Streaming thread: frames submitted and not pushed yet, oldest first
   * (GstClPendingFrame), and how many the engine keeps now. */
  GQueue pending;
  guint in_flight;
  /* Pushes frames held for later ones when none come, and what its last
   * push returned (under the streaming lock), which the next frame
   * returns upstream. */
  GstClPusher *pusher;
  GstFlowReturn pushed_flow;
  /* Builds and posts the messages of frames counted in flight. */
  GstClPoster *poster;

  /* The last frame's histograms as the engine counted them and, with
   * statistics, as the request asked for them (streaming thread). */
  GstClHistogramSet counted;
  GstClHistogramSet results;
  /* What the messages of the current interval sum (streaming thread). */
  GstClHistogramInterval *interval;
  /* Zones and fixed regions reported outside the frame, under the object
   * lock. */
  GstClRegionReports reports;
  /* Why the last regions or zones value was ignored, until it is posted
   * (set from gst-launch, the element has no bus yet); under the object
   * lock. */
  gchar *settings_warning;
  /* Why the last caps were refused (streaming thread), so that the
   * retries of one negotiation post its error once. */
  gchar *refusal;
};

GST_ELEMENT_REGISTER_DECLARE (clhistogram);

G_END_DECLS
