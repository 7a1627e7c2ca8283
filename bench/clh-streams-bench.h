/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What clh-streams-bench's throughput rows (clh-streams-bench.c) and its
 * start-up measurement (clh-streams-startup.c) share. */
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

#define WIDTH 600
#define HEIGHT 480
/* A fresh process's warm start on PoCL, ms. */
#define TARGET_WARM_MS 50.0

/* One start-up configuration: CLHISTOGRAM_CACHE_DIR and whether the
 * driver's own kernel cache is on. */
typedef struct {
  const gchar *cache;           /* cold, warm or off */
  gboolean driver_cache_off;
  GArray *ms;
  guint cache_files;            /* in the directory after the cold runs */
} Startup;

/* clh-streams-bench.c */
void die (const gchar *what) G_GNUC_NORETURN;
void print_error_message (GstMessage *msg, const gchar *where);
GstCaps *caps_for (GstVideoFormat format);
void stamp (GstBuffer *buf, guint index);
void json_doubles (GString *json, GArray *values);

/* clh-streams-startup.c */
int startup_child (void);
guint run_startup (Startup st[6], guint runs, const gchar *platform);
void json_startup (GString *json, const Startup *st, guint n);

G_END_DECLS
