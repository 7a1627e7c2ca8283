/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A device's submission thread (clh-submitter.c): the engines of a context
 * hand it their submissions and sleep until their readbacks are done. */
#pragma once

#include "clh-cl.h"

G_BEGIN_DECLS

typedef struct _ClhSubmitter ClhSubmitter;

typedef gboolean (*ClhSubmitFunc) (gpointer data, GError **error);

/**
 * ClhWatch:
 * @done: set (atomically) once the readback is done
 * @status: then CL_COMPLETE, or the negative error the device reported
 * @lock: the owner's lock, held while @done is set
 * @cond: broadcast when @done is set
 *
 * What a frame's owner waits on.
 */
typedef struct {
  gint done;
  cl_int status;
  GMutex *lock;
  GCond *cond;
} ClhWatch;

ClhSubmitter *clh_submitter_new (void);
void clh_submitter_free (ClhSubmitter *s);
gboolean clh_submitter_run (ClhSubmitter *s, ClhSubmitFunc func,
    gpointer data, GError **error);
void clh_submitter_watch (ClhSubmitter *s, cl_event event, ClhWatch *watch);
void clh_submitter_forget (ClhSubmitter *s, ClhWatch *watch);

G_END_DECLS
