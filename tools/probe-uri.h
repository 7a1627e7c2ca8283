/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A camera's credentials in its URI (rtsp://user:password@host/...):
 * kept out of what the probe prints and out of the URI GStreamer sees. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gchar *probe_uri_redact (const gchar *text);
gboolean probe_uri_take_credentials (const gchar *uri, gchar **bare,
    gchar **user, gchar **password);
gboolean probe_uri_has_password (const gchar *uri);

G_END_DECLS
