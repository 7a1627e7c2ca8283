/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The probe's JSON Lines: stdout on a descriptor of its own, written by a
 * thread of its own, a whole line at a time. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _ProbeOutput ProbeOutput;

gint probe_output_claim_stdout (void);
void probe_output_release_stdout (void);
ProbeOutput *probe_output_new (gint fd, GSourceFunc on_end, gpointer data);
gboolean probe_output_push (ProbeOutput *out, gchar *line);
gboolean probe_output_push_now (ProbeOutput *out, gchar *line);
void probe_output_finish (ProbeOutput *out);
gboolean probe_output_abort (ProbeOutput *out, gint64 wait_us);
guint64 probe_output_get_dropped (ProbeOutput *out);
gint probe_output_close (ProbeOutput *out);
gboolean probe_write_all (gint fd, const gchar *data, gsize size,
    gint *error);

G_END_DECLS
