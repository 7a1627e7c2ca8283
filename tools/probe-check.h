/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Every histogram meta of every frame against the golden reference. */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

typedef struct _ProbeCheck ProbeCheck;

ProbeCheck *probe_check_new (GstElement *histogram);
void probe_check_sample (ProbeCheck *check, GstSample *sample);
guint probe_check_get_frames (const ProbeCheck *check);
guint probe_check_get_differing (const ProbeCheck *check);
gchar *probe_check_summary (const ProbeCheck *check, const gchar *input,
    const gchar *device_name);
void probe_check_free (ProbeCheck *check);

G_END_DECLS
