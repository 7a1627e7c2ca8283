/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The options one input is probed with: given on the command line for
 * every input, or in an input's group of an --inputs key file for that
 * input alone. */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

typedef struct
{
  /* The element's properties, as text. */
  gchar *mode;
  gchar *bins;
  gchar *range_min;
  gchar *range_max;
  gchar *interval;
  gchar *regions;
  gchar *zones;
  gchar *percentiles;
  gchar *clip_low_level;
  gchar *clip_high_level;
  gchar *metering;
  gchar *metering_weights;
  gchar *alert_clipped;
  gchar *alert_crushed;
  gchar *alert_hysteresis;
  gchar *alert_hold;
  gchar *device;
  /* What comes before the element. */
  gchar *format;
  gint width;
  gint height;
  gboolean as_decoded;
  /* What the probe does with the frames and messages. */
  gboolean no_counts;
  gboolean no_statistics;
  gboolean check;
  gint max_frames;
  gint expect_frames;
  gboolean sync;
  /* A live input's retries, in seconds. */
  gint stall_timeout;
  gint retry_max;
  /* Its monitor picture's period, seconds as text; NULL or 0: none. */
  gchar *monitor_pictures;
} ProbeSettings;

void probe_settings_init (ProbeSettings *s);
void probe_settings_copy (ProbeSettings *dest, const ProbeSettings *src);
void probe_settings_clear (ProbeSettings *s);
gboolean probe_settings_equal (const ProbeSettings *a,
    const ProbeSettings *b);
GOptionEntry *probe_settings_option_entries (ProbeSettings *s);
gboolean probe_settings_set_key (ProbeSettings *s, GKeyFile *file,
    const gchar *group, const gchar *key, GError **error);
gchar *probe_settings_key_names (void);
gboolean probe_settings_apply (const ProbeSettings *s, GstElement *histogram,
    GError **error);
gboolean probe_settings_get_picture_period (const ProbeSettings *s,
    gint64 *period_us, GError **error);

G_END_DECLS
