/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The inputs one probe counts: NAME=FILE-OR-URI arguments and the groups
 * of an --inputs key file, each with its name and its settings. */
#pragma once

#include <gst/gst.h>

#include "probe-settings.h"

G_BEGIN_DECLS

typedef struct
{
  /* Unique among the probe's inputs; the JSON lines' "input". */
  gchar *name;
  /* A file name, a URI or a device node, as given. */
  gchar *location;
  /* Where a key file gave the input, "FILE: [GROUP]"; NULL for the
   * command line's. */
  gchar *origin;
  /* The name was given (NAME=..., a key file's group), not taken from
   * the location. */
  gboolean named;
  /* Not a local file: a stream that can come back, retried when it
   * fails, ends or stalls. */
  gboolean live;
  ProbeSettings settings;
} ProbeInputSpec;

GPtrArray *probe_inputs_parse (gchar **args, const gchar *key_file,
    const ProbeSettings *defaults, GError **error);
GPtrArray *probe_inputs_read (const gchar *key_file,
    const ProbeSettings *defaults, GPtrArray *others, GError **error);
void probe_inputs_spec_free (gpointer data);
gboolean probe_inputs_spec_equal (const ProbeInputSpec *a,
    const ProbeInputSpec *b);
gboolean probe_inputs_name_is_valid (const gchar *name);

G_END_DECLS
