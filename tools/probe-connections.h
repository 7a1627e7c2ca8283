/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The TCP connections a pipeline's RTSP source opened, so that a source
 * stuck in a reply without end can be cut loose. */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

typedef struct _ProbeConnections ProbeConnections;

ProbeConnections *probe_connections_new (void);
void probe_connections_watch (ProbeConnections *c, GstElement *source);
guint probe_connections_cut (ProbeConnections *c);
void probe_connections_unref (ProbeConnections *c);

G_END_DECLS
