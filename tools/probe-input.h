/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One input of the probe: its pipeline's life, from start to end, and a
 * live input's retries. */
#pragma once

#include <gst/gst.h>

#include "probe-inputs.h"
#include "probe-metrics.h"
#include "probe-output.h"

G_BEGIN_DECLS

typedef struct _ProbeInput ProbeInput;

/* What every input of a probe shares. */
typedef struct
{
  /* The JSON's writer, every input's lines in one stream; NULL with
   * --quiet. */
  ProbeOutput *out;
  /* --metrics' values, every input's; NULL without. */
  ProbeMetrics *metrics;
  /* --metrics was given (its server may not have started yet): an
   * input's monitor pictures have somewhere to be served. */
  gboolean serving;
  /* Called on the default main context, once, when an input has ended
   * for good (its pipeline down and no retry to come). */
  void (*ended) (ProbeInput *input, gpointer data);
  gpointer data;
} ProbeInputShared;

ProbeInput *probe_input_new (ProbeInputSpec *spec,
    const ProbeInputShared *shared, GError **error);
void probe_input_add_metrics (ProbeInput *input);
void probe_input_start (ProbeInput *input);
void probe_input_end (ProbeInput *input);
void probe_input_abort (ProbeInput *input);
void probe_input_stop (ProbeInput *input, guint timeout_s);
const gchar *probe_input_get_name (const ProbeInput *input);
const ProbeInputSpec *probe_input_get_spec (const ProbeInput *input);
guint probe_input_get_frames (ProbeInput *input);
gboolean probe_input_is_checking (const ProbeInput *input);
gboolean probe_input_conclude (ProbeInput *input);
void probe_input_free (ProbeInput *input);

G_END_DECLS
