/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:gstclposter
 * @title: GstClPoster
 * @short_description: `histogram` messages built and posted on a thread of
 *   their own
 *
 * A `histogram` message is one GValue per bin: for 4 channels of 256 bins
 * it takes longer to build than the frame takes to count on a GPU
 * (docs/performance.md, "Messages and statistics"). With frames in flight,
 * clhistogram's output thread hands each frame's report to a #GstClPoster,
 * whose thread builds and posts the messages in the frames' order while
 * the output thread goes on with the next frame.
 * gst_cl_poster_flush() waits until every message handed over is posted:
 * the element calls it before any serialized event or query goes on, so
 * a frame's message is on the bus before the EOS that follows it, and
 * before it posts a message of its own from another thread.
 *
 * At most QUEUED_MAX reports wait; the next one waits for room, so a
 * stream faster than its messages slows to their rate instead of
 * queueing without bound.
 */
#include "gstclhistogramposter.h"
#include "gstclhistogramstats.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_poster_debug);
#define GST_CAT_DEFAULT gst_cl_poster_debug

#define QUEUED_MAX 8

/* One frame's report, with copies of what the element reuses for the next
 * frame; jobs are kept for reuse with their memory. */
typedef struct {
  GstClHistogramRequest request;
  GstClHistogramReport report;
  GstClHistogramSet set;
} GstClPosterJob;

struct _GstClPoster {
  /* Not owned: the element owns the poster and stops it before it goes. */
  GstElement *element;

  GMutex lock;
  GCond cond;
  GThread *thread;
  gboolean stopping;
  /* Jobs to post, oldest first; whether the thread is posting one; jobs
   * to reuse. */
  GQueue queued;
  gboolean busy;
  GQueue spare;
};

/**
 * gst_cl_poster_new:
 * @element: the element that posts the messages
 *
 * Returns: (transfer full): a poster whose thread starts with the first
 *   report
 */
GstClPoster *
gst_cl_poster_new (GstElement *element)
{
  GstClPoster *poster = g_new0 (GstClPoster, 1);

  GST_DEBUG_CATEGORY_INIT (gst_cl_poster_debug, "clposter", 0,
      "histogram messages built and posted on a thread of their own");
  poster->element = element;
  g_mutex_init (&poster->lock);
  g_cond_init (&poster->cond);
  return poster;
}

static void
job_free (GstClPosterJob *job)
{
  gst_cl_histogram_request_clear (&job->request);
  gst_cl_histogram_set_clear (&job->set);
  g_free (job);
}

/**
 * gst_cl_poster_free:
 * @poster: a poster
 *
 * Posts what is queued, stops the thread and frees @poster.
 */
void
gst_cl_poster_free (GstClPoster *poster)
{
  gst_cl_poster_stop (poster);
  g_queue_clear_full (&poster->spare, (GDestroyNotify) job_free);
  g_mutex_clear (&poster->lock);
  g_cond_clear (&poster->cond);
  g_free (poster);
}

static gpointer
post_loop (gpointer data)
{
  GstClPoster *poster = data;
  GstClPosterJob *job;

  g_mutex_lock (&poster->lock);
  for (;;) {
    if (!(job = g_queue_pop_head (&poster->queued))) {
      if (poster->stopping)
        break;
      g_cond_wait (&poster->cond, &poster->lock);
      continue;
    }
    poster->busy = TRUE;
    g_mutex_unlock (&poster->lock);

    gst_element_post_message (poster->element,
        gst_cl_histogram_message_new (GST_OBJECT (poster->element),
            &job->request, &job->report));
    gst_cl_histogram_request_clear (&job->request);

    g_mutex_lock (&poster->lock);
    poster->busy = FALSE;
    g_queue_push_tail (&poster->spare, job);
    g_cond_broadcast (&poster->cond);
  }
  g_mutex_unlock (&poster->lock);
  return NULL;
}

/* Copies the histograms and statistics of @report into @job's memory. */
static void
copy_report (GstClPosterJob *job, const GstClHistogramReport *report)
{
  const ClhHistogramSpec *spec = &job->request.spec;
  const gsize n_counts = (gsize) clh_histogram_spec_n_channels (spec)
      * clh_histogram_spec_n_bins (spec);
  const guint n = gst_cl_histogram_request_n_histograms (&job->request);
  ClhHistogram *histograms = gst_cl_histogram_set_prepare (&job->set, spec,
      n);
  ClhStats *stats = NULL;
  guint i;

  for (i = 0; i < n; i++) {
    guint32 *counts = histograms[i].counts;

    histograms[i] = report->histograms[i];
    histograms[i].counts = counts;
    memcpy (counts, report->histograms[i].counts, n_counts * sizeof (guint32));
  }
  if (report->stats) {
    stats = gst_cl_histogram_set_prepare_stats (&job->set, n);
    memcpy (stats, report->stats, (gsize) n * CLH_MAX_CHANNELS
        * sizeof (ClhStats));
  }
  job->report = *report;
  job->report.regions = job->request.regions;
  job->report.histograms = histograms;
  job->report.stats = stats;
}

/**
 * gst_cl_poster_post:
 * @poster: a poster
 * @request: (transfer full): the frame's request, taken: it is cleared
 *   here and must not be used again but to clear it
 * @report: one frame's report (no `region_pixels`, no `frames`); copied
 *
 * Queues the frame's `histogram` message, after those queued before it;
 * waits while QUEUED_MAX wait already. The element's output thread. If
 * the poster's thread cannot be started the message is posted here.
 */
void
gst_cl_poster_post (GstClPoster *poster, GstClHistogramRequest *request,
    const GstClHistogramReport *report)
{
  GstClPosterJob *job;
  GError *err = NULL;

  g_mutex_lock (&poster->lock);
  if (!poster->thread) {
    poster->stopping = FALSE;
    poster->thread = g_thread_try_new ("clh-poster", post_loop, poster, &err);
  }
  if (!poster->thread) {
    g_mutex_unlock (&poster->lock);
    GST_ERROR_OBJECT (poster->element, "no poster thread: %s", err->message);
    g_error_free (err);
    gst_element_post_message (poster->element,
        gst_cl_histogram_message_new (GST_OBJECT (poster->element), request,
            report));
    gst_cl_histogram_request_clear (request);
    return;
  }
  while (g_queue_get_length (&poster->queued) >= QUEUED_MAX)
    g_cond_wait (&poster->cond, &poster->lock);
  job = g_queue_pop_head (&poster->spare);
  g_mutex_unlock (&poster->lock);

  if (!job)
    job = g_new0 (GstClPosterJob, 1);
  job->request = *request;
  memset (request, 0, sizeof (*request));
  copy_report (job, report);

  g_mutex_lock (&poster->lock);
  g_queue_push_tail (&poster->queued, job);
  g_cond_broadcast (&poster->cond);
  g_mutex_unlock (&poster->lock);
}

/**
 * gst_cl_poster_flush:
 * @poster: a poster
 *
 * Returns once every message queued is on the bus.
 */
void
gst_cl_poster_flush (GstClPoster *poster)
{
  g_mutex_lock (&poster->lock);
  while (poster->thread && (poster->busy
          || !g_queue_is_empty (&poster->queued)))
    g_cond_wait (&poster->cond, &poster->lock);
  g_mutex_unlock (&poster->lock);
}

/**
 * gst_cl_poster_stop:
 * @poster: a poster
 *
 * Posts what is queued, then stops and joins the thread.
 */
void
gst_cl_poster_stop (GstClPoster *poster)
{
  GThread *thread;

  g_mutex_lock (&poster->lock);
  thread = g_steal_pointer (&poster->thread);
  poster->stopping = TRUE;
  g_cond_broadcast (&poster->cond);
  g_mutex_unlock (&poster->lock);
  if (thread)
    g_thread_join (thread);
}
