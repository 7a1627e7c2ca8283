/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The probe's JSON lines: a `histogram` or `exposure` message, an input
 * that went down or came up. */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

gchar *probe_json_of_message (const gchar *input, const GstStructure *s,
    const gchar *kind, const gchar *skip_field);
gchar *probe_json_of_input_down (const gchar *input, const gchar *reason,
    guint retry_in, guint downs);
gchar *probe_json_of_input_up (const gchar *input, guint reconnects);

G_END_DECLS
