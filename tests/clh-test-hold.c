/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A job that holds the submission thread: the jobs posted behind it wait,
 * and the thread takes them as one batch once it is released. */
#include "clh-test-hold.h"

struct _ClhTestHold {
  ClhJob job;
  ClhSubmitter *submitter;
  GMutex lock;
  GCond cond;
  gboolean held;
  gboolean released;
};

/* On the submission thread: waits to be released, then frees the hold,
 * which no one else touches once released. */
static void
hold_thread (gpointer data)
{
  ClhTestHold *hold = data;

  g_mutex_lock (&hold->lock);
  hold->held = TRUE;
  g_cond_broadcast (&hold->cond);
  while (!hold->released)
    g_cond_wait (&hold->cond, &hold->lock);
  g_mutex_unlock (&hold->lock);
  g_mutex_clear (&hold->lock);
  g_cond_clear (&hold->cond);
  g_free (hold);
}

/**
 * clh_test_hold:
 * @s: a submitter
 *
 * Posts a job to @s that holds its thread, and waits until it does.
 *
 * Returns: (transfer full): the hold, freed once released
 */
ClhTestHold *
clh_test_hold (ClhSubmitter *s)
{
  ClhTestHold *hold = g_new0 (ClhTestHold, 1);

  hold->job.func = hold_thread;
  hold->job.data = hold;
  hold->submitter = s;
  g_mutex_init (&hold->lock);
  g_cond_init (&hold->cond);
  clh_submitter_post (s, &hold->job);
  g_mutex_lock (&hold->lock);
  while (!hold->held)
    g_cond_wait (&hold->cond, &hold->lock);
  g_mutex_unlock (&hold->lock);
  return hold;
}

/**
 * clh_test_hold_wait_for:
 * @hold: a hold
 * @n_waiting: jobs to wait for
 *
 * Waits until @n_waiting jobs, posted from any thread, wait behind @hold.
 */
void
clh_test_hold_wait_for (ClhTestHold *hold, guint n_waiting)
{
  ClhSubmitterStats stats;

  for (clh_submitter_get_stats (hold->submitter, &stats);
      stats.n_waiting < n_waiting;
      clh_submitter_get_stats (hold->submitter, &stats))
    g_usleep (1000);
}

/**
 * clh_test_hold_release:
 * @hold: (transfer full): a hold
 *
 * Lets the thread go on: it runs the jobs waiting as one batch.
 */
void
clh_test_hold_release (ClhTestHold *hold)
{
  g_mutex_lock (&hold->lock);
  hold->released = TRUE;
  g_cond_signal (&hold->cond);
  g_mutex_unlock (&hold->lock);
}
