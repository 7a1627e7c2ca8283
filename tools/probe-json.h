/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The probe's JSON lines: a `histogram` or `exposure` message, an input
 * that went down or came up, a reload. */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

gchar *probe_json_of_message (const gchar *input, const GstStructure *s,
    const gchar *kind, const gchar *skip_field);
gchar *probe_json_of_input_down (const gchar *input, const gchar *reason,
    guint retry_in, guint downs);
gchar *probe_json_of_input_up (const gchar *input, guint reconnects);
gchar *probe_json_of_reload (const gchar *file, GPtrArray *added,
    GPtrArray *removed, GPtrArray *changed, GPtrArray *unchanged);
gchar *probe_json_of_reload_failure (const gchar *file, const gchar *reason);

G_END_DECLS
