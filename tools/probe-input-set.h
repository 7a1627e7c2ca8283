/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The inputs one probe runs, from start to end: started together, ended
 * together by a signal or a failed output, and replaced one by one by a
 * reload of the --inputs file. */
#pragma once

#include <gst/gst.h>

#include "probe-input.h"
#include "probe-inputs.h"

G_BEGIN_DECLS

typedef struct _ProbeInputSet ProbeInputSet;

/* Called once every input has ended. */
typedef void (*ProbeInputSetEnded) (gpointer data);

/* What a reload does, by the inputs' names (element-type utf8). */
typedef struct
{
  GPtrArray *added;
  GPtrArray *removed;
  GPtrArray *changed;
  GPtrArray *unchanged;
} ProbeInputChanges;

typedef void (*ProbeInputChangesFunc) (const ProbeInputChanges *changes,
    gpointer data);

ProbeInputSet *probe_input_set_new (ProbeInputShared *shared,
    ProbeInputSetEnded all_ended, gpointer data);
gboolean probe_input_set_add (ProbeInputSet *set, ProbeInputSpec *spec,
    GError **error);
void probe_input_set_start (ProbeInputSet *set);
void probe_input_set_end (ProbeInputSet *set);
void probe_input_set_abort (ProbeInputSet *set);
guint probe_input_set_get_running (ProbeInputSet *set);
GPtrArray *probe_input_set_get_inputs (ProbeInputSet *set);
GPtrArray *probe_input_set_get_fixed_specs (ProbeInputSet *set);
gboolean probe_input_set_update (ProbeInputSet *set, GPtrArray *specs,
    guint stop_timeout_s, ProbeInputChangesFunc announce, gpointer data,
    GError **error);
gboolean probe_input_set_conclude (ProbeInputSet *set);
void probe_input_set_free (ProbeInputSet *set);

G_END_DECLS
