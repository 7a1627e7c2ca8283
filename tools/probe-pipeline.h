/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The probe's pipeline: a decoded file, URI or camera, optionally
 * converted and scaled, into clhistogram and an appsink. */
#pragma once

#include <gst/gst.h>

#include "probe-connections.h"
#include "probe-picture.h"

G_BEGIN_DECLS

typedef struct {
  GstElement *pipeline;
  GstElement *histogram;
  GstElement *sink;
  /*< private >*/
  GstElement *head;             /* where decoded video goes in */
  guint max_frames;
  guint frames_in;
  gint linked;
  /* The caps last offered to the histogram, and the decoder's pad linked
   * to it, under @lock. */
  GMutex lock;
  GstCaps *offered;
  GstPad *decoded;
  /* A URI's source: its user information, taken out of the URI (@user
   * NULL: none), its timeout, its connections. */
  gchar *uri;
  gchar *user;
  gchar *password;
  guint source_timeout_s;
  ProbeConnections *connections;
  /* The monitor picture's branch; NULL without. */
  ProbePicture *picture;
} ProbePipeline;

ProbePipeline *probe_pipeline_new (GError **error);
gboolean probe_pipeline_convert (ProbePipeline *p, const gchar *format,
    gint width, gint height, GError **error);
gboolean probe_pipeline_set_input (ProbePipeline *p, const gchar *input,
    GError **error);
void probe_pipeline_limit_frames (ProbePipeline *p, guint max_frames);
gboolean probe_pipeline_limit_reached (ProbePipeline *p);
void probe_pipeline_set_sync (ProbePipeline *p, gboolean sync);
void probe_pipeline_set_source_timeout (ProbePipeline *p, guint seconds);
gboolean probe_pipeline_add_picture (ProbePipeline *p,
    const ProbeSettings *settings, gint64 period_us, GError **error);
guint probe_pipeline_cut_connections (ProbePipeline *p);
gchar *probe_pipeline_explain_refusal (ProbePipeline *p);
void probe_pipeline_free (ProbePipeline *p);

G_END_DECLS
