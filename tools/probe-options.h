/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The probe's options as the element's properties, checked against what
 * the element says is valid. */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

gboolean probe_set_property (GstElement *element, const gchar *property,
    const gchar *text, GError **error);
gboolean probe_set_boolean (GstElement *element, const gchar *property,
    gboolean value, GError **error);
gboolean probe_set_doubles (GstElement *element, const gchar *property,
    const gchar *text, const gchar *example, GError **error);
gboolean probe_set_percentiles (GstElement *element, const gchar *text,
    GError **error);
gboolean probe_set_regions (GstElement *element, const gchar *text,
    GError **error);
gboolean probe_check_format (const gchar *format, GError **error);
gboolean probe_check_size (const gchar *option, gint pixels,
    GError **error);

G_END_DECLS
