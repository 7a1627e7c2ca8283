/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gst-check helpers shared by the element tests. */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

void clh_check_expect_error (GstBus *bus, GQuark domain, gint code,
    const gchar *in_message, const gchar *in_debug);

G_END_DECLS
