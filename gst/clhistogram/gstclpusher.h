/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

typedef struct _GstClPusher GstClPusher;

/**
 * GstClPusherFunc:
 * @element: the element
 *
 * Pushes the frames of @element whose histograms are back, oldest first,
 * and notes what it still holds (gst_cl_pusher_note_held()); called with
 * the sink pad's stream lock held, from the pusher's thread.
 */
typedef void (*GstClPusherFunc) (GstElement *element);

GstClPusher *gst_cl_pusher_new (GstElement *element, GstPad *sinkpad,
    GstClPusherFunc func);
void gst_cl_pusher_free (GstClPusher *pusher);
void gst_cl_pusher_enter (GstClPusher *pusher);
gboolean gst_cl_pusher_leave (GstClPusher *pusher, gboolean held);
void gst_cl_pusher_note_held (GstClPusher *pusher, gboolean held);
void gst_cl_pusher_stop (GstClPusher *pusher);

G_END_DECLS
