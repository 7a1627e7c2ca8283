/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

typedef struct _GstClIdleDrain GstClIdleDrain;

/**
 * GstClIdleDrainFunc:
 * @element: the element
 *
 * Pushes the frames @element holds; called with its sink pad's stream lock
 * held, from the idle-drain thread.
 */
typedef void (*GstClIdleDrainFunc) (GstElement *element);

GstClIdleDrain *gst_cl_idle_drain_new (GstElement *element, GstPad *sinkpad,
    GstClockTime delay, GstClIdleDrainFunc func);
void gst_cl_idle_drain_free (GstClIdleDrain *idle);
gboolean gst_cl_idle_drain_note (GstClIdleDrain *idle, gboolean held);
void gst_cl_idle_drain_stop (GstClIdleDrain *idle);

G_END_DECLS
