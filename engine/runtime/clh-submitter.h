/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A device's submission thread (clh-submitter.c): the engines of a context
 * post it their frames and sleep until their readbacks are done. */
#pragma once

#include "clh-cl.h"

G_BEGIN_DECLS

typedef struct _ClhSubmitter ClhSubmitter;
/* The device's batcher (clh-batch.h), which its submitter owns. */
typedef struct _ClhBatcher ClhBatcher;

/**
 * ClhSubmission:
 * @CLH_SUBMISSION_AUTO: through the device's submission thread while other
 *   engines of the context submit too, else on the caller's thread
 * @CLH_SUBMISSION_THREAD: always through the submission thread
 * @CLH_SUBMISSION_CALLER: always on the caller's thread
 *
 * Which thread makes the driver calls for a frame counted on the device
 * (clh-submitter.c). Without profiling, every engine of a context uses the
 * context's shared queues either way.
 */
typedef enum {
  CLH_SUBMISSION_AUTO,
  CLH_SUBMISSION_THREAD,
  CLH_SUBMISSION_CALLER,
} ClhSubmission;

typedef gboolean (*ClhSubmitFunc) (gpointer data, GError **error);
typedef void (*ClhJobFunc) (gpointer data);

/**
 * ClhJob:
 * @func: what the thread runs
 * @data: @func's data
 * @link: the thread's list of jobs; the submitter's
 *
 * Work posted to the submission thread (clh_submitter_post()), held by its
 * poster until @func has run.
 */
typedef struct {
  ClhJobFunc func;
  gpointer data;
  GList link;
} ClhJob;

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

/**
 * ClhSubmitterStats:
 * @n_jobs: jobs run
 * @n_batches: times the thread took the jobs posted and ran them, with one
 *   flush of the deferred queues after them
 * @max_batch: the most jobs one batch ran
 * @n_waiting: jobs posted and not yet taken
 *
 * What the thread did since it started, and what waits for it.
 */
typedef struct {
  guint64 n_jobs;
  guint64 n_batches;
  guint max_batch;
  guint n_waiting;
} ClhSubmitterStats;

ClhSubmitter *clh_submitter_new (void);
void clh_submitter_free (ClhSubmitter *s);
void clh_submitter_post (ClhSubmitter *s, ClhJob *job);
gboolean clh_submitter_run (ClhSubmitter *s, ClhSubmitFunc func,
    gpointer data, GError **error);
gboolean clh_submitter_in_thread (const ClhSubmitter *s);
void clh_submitter_defer_flush (ClhSubmitter *s, cl_command_queue queue);
void clh_submitter_watch (ClhSubmitter *s, cl_event event, ClhWatch *watch);
void clh_submitter_watch_copy (ClhSubmitter *s, cl_event event,
    ClhWatch *watch, void *dst, const void *src, gsize size, gint *holds);
void clh_submitter_set_before_flush (ClhSubmitter *s, ClhJobFunc func,
    gpointer data);
void clh_submitter_flush_now (ClhSubmitter *s);
void clh_submitter_poll (ClhSubmitter *s);
void clh_submitter_forget (ClhSubmitter *s, ClhWatch *watch);
void clh_submitter_get_stats (ClhSubmitter *s, ClhSubmitterStats *stats);
ClhBatcher *clh_submitter_get_batcher (ClhSubmitter *s, gboolean *refused);
void clh_submitter_adopt_batcher (ClhSubmitter *s, ClhBatcher *batcher,
    GDestroyNotify free_batcher);

void clh_watch_reset (ClhWatch *watch);
void clh_watch_notify (ClhWatch *watch, cl_int status);
cl_int clh_watch_wait (ClhWatch *watch);

G_END_DECLS
