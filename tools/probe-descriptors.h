/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The probe's file descriptors against its limit: raised at start, and
 * kept for each run that starts. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * ProbeDescriptorsRoom:
 * @PROBE_DESCRIPTORS_KEPT: the run may start: its descriptors are kept
 * @PROBE_DESCRIPTORS_WAIT: no room now, but once the runs starting now
 *   are up or down
 * @PROBE_DESCRIPTORS_FULL: no room even with no run starting: the limit
 *   is too low for one more
 */
typedef enum
{
  PROBE_DESCRIPTORS_KEPT,
  PROBE_DESCRIPTORS_WAIT,
  PROBE_DESCRIPTORS_FULL,
} ProbeDescriptorsRoom;

void probe_descriptors_raise_limit (void);
ProbeDescriptorsRoom probe_descriptors_reserve (gconstpointer who,
    gchar **reason);
void probe_descriptors_release (void);
void probe_descriptors_forget (gconstpointer who);

G_END_DECLS
