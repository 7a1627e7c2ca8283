/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* How SIGINT and SIGTERM end the probe, whatever it is doing, and how
 * SIGHUP reloads its inputs. */
#pragma once

#include <gst/gst.h>

#include "probe-output.h"

G_BEGIN_DECLS

void probe_stop_init (GSourceFunc on_request, gpointer data);
void probe_stop_set_timeout (guint seconds);
void probe_stop_set_reload (GSourceFunc on_reload, gpointer data);
void probe_stop_watch_output (ProbeOutput *out);
void probe_stop_running (GstElement *pipeline);
void probe_stop_forget (GstElement *pipeline);
void probe_stop_leave_start_up (void);
gboolean probe_stop_requested (void);
void probe_stop_ending (void);

G_END_DECLS
