/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A `histogram` or `exposure` message as one line of JSON. */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

gchar *probe_json_of_message (const GstStructure *s, const gchar *kind,
    const gchar *skip_field);

G_END_DECLS
