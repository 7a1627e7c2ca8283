/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The frames an input's pipeline drops before they are counted, and
 * those counted late. */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

typedef struct _ProbeLosses ProbeLosses;

/* A frame this much past its time on the clock is late: a video sink
 * drops it (GstVideoSink's default max-lateness). */
#define PROBE_LOSSES_LATE_NS (20 * GST_MSECOND)

ProbeLosses *probe_losses_new (void);
void probe_losses_reset (ProbeLosses *l);
guint64 probe_losses_take_qos (ProbeLosses *l, GstMessage *msg,
    GstClockTime frame_duration);
gboolean probe_losses_is_late (ProbeLosses *l, GstElement *sink,
    GstSample *sample);
void probe_losses_free (ProbeLosses *l);

G_END_DECLS
