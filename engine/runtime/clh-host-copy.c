/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copies on the host, split over a few threads, for frames in ordinary
 * (pageable) memory on their way into pinned memory, from where the device
 * copies them by DMA at full bus speed. On one thread, staging would only
 * put a host copy in front of the DMA; what makes it pay is sharing that
 * copy among threads (the staging row of docs/performance.md, "Why the
 * defaults are what they are"), so the gain is the threads.
 *
 * The caller copies chunks itself, and so do the helpers of a process-wide
 * GLib thread pool, each claiming the next chunk not yet taken: when the
 * helpers are busy with other streams' frames the caller copies every
 * chunk alone, no slower than a single memcpy. The job is reference
 * counted, since a helper may start after the caller has copied everything
 * and left. */
#include "clh-host-copy.h"

#include <string.h>

/* Chunks smaller than this are not worth a thread's wake-up. 128 KiB
 * chunks and 7 helpers carried pageable frames through the element faster
 * than 256 KiB and 3 (measured: see docs/performance.md, "Why the defaults
 * are what they are"). */
#define MIN_CHUNK (128 * 1024)
/* clh_host_copy_set_helpers()'s most helpers. */
#define MAX_HELPERS 8
/* A range is split in at most one chunk per thread (the helpers and the
 * caller), so that every range of a copy has room for all its chunks. */
#define MAX_CHUNKS (CLH_HOST_COPY_MAX * (MAX_HELPERS + 1))

typedef struct {
  guint8 *dst;
  const guint8 *src;
  gsize n;
} Chunk;

typedef struct {
  guint n_chunks;
  gint next;                    /* the next chunk to claim, atomic */
  gint done;                    /* chunks copied, atomic */
  GMutex lock;
  GCond cond;
  Chunk chunks[MAX_CHUNKS];
} CopyJob;

static void
job_clear (gpointer data)
{
  CopyJob *job = data;

  g_mutex_clear (&job->lock);
  g_cond_clear (&job->cond);
}

/* Copies chunks until none is left to claim. */
static void
copy_chunks (CopyJob *job)
{
  for (;;) {
    const gint i = g_atomic_int_add (&job->next, 1);

    if (i >= (gint) job->n_chunks)
      return;
    memcpy (job->chunks[i].dst, job->chunks[i].src, job->chunks[i].n);
    if (g_atomic_int_add (&job->done, 1) + 1 == (gint) job->n_chunks) {
      g_mutex_lock (&job->lock);
      g_cond_signal (&job->cond);
      g_mutex_unlock (&job->lock);
    }
  }
}

static void
helper (gpointer data, gpointer unused)
{
  copy_chunks (data);
  g_atomic_rc_box_release_full (data, job_clear);
}

static GMutex pool_lock;
static GThreadPool *helper_pool;
static gint n_helpers = -1;

/* The helpers, made on first use: half the CPUs, at most 7, unless
 * clh_host_copy_set_helpers() said otherwise; NULL for none (a host of one
 * CPU, where the caller's thread is as much as a copy should take). */
static GThreadPool *
helpers (guint *n)
{
  GThreadPool *p;

  g_mutex_lock (&pool_lock);
  if (n_helpers < 0)
    n_helpers = MIN (g_get_num_processors () / 2, 7);
  if (!helper_pool && n_helpers > 0)
    helper_pool = g_thread_pool_new (helper, NULL, n_helpers, FALSE, NULL);
  *n = (guint) n_helpers;
  p = n_helpers > 0 ? helper_pool : NULL;
  g_mutex_unlock (&pool_lock);
  return p;
}

/**
 * clh_host_copy_set_helpers:
 * @n: helper threads for the copies from now on, 0..8
 *
 * For tests, which run the helpers on hosts too small to get any.
 */
void
clh_host_copy_set_helpers (guint n)
{
  g_return_if_fail (n <= MAX_HELPERS);
  g_mutex_lock (&pool_lock);
  n_helpers = (gint) n;
  if (helper_pool && n > 0)
    g_thread_pool_set_max_threads (helper_pool, (gint) n, NULL);
  g_mutex_unlock (&pool_lock);
}

/* Splits @n bytes from @src into chunks of the job, at most @most (one
 * per thread, at most MAX_HELPERS + 1). */
static void
add_chunks (CopyJob *job, guint8 *dst, const guint8 *src, gsize n,
    guint most)
{
  const guint k = (guint) CLAMP (n / MIN_CHUNK, 1, most);
  const gsize each = (n + k - 1) / k;
  gsize at;

  g_assert (job->n_chunks + k <= MAX_CHUNKS);
  for (at = 0; at < n; at += each) {
    Chunk *c = &job->chunks[job->n_chunks++];

    c->dst = dst + at;
    c->src = src + at;
    c->n = MIN (each, n - at);
  }
}

/**
 * clh_host_copy:
 * @n: copies in @dst, @src and @sizes, at most %CLH_HOST_COPY_MAX
 * @dst: (array length=n): where each copy goes
 * @src: (array length=n): what each copies; no range overlaps a
 *   destination
 * @sizes: (array length=n): bytes of each
 *
 * memcpy() of each range, with a few helper threads on large copies on
 * hosts with CPUs to spare; returns when all are done.
 */
void
clh_host_copy (guint n, guint8 *const *dst, const guint8 *const *src,
    const gsize *sizes)
{
  guint n_help;
  GThreadPool *pool = helpers (&n_help);
  const guint threads = pool ? n_help + 1 : 1;
  CopyJob *job;
  guint i, h;

  g_return_if_fail (n <= CLH_HOST_COPY_MAX);
  job = g_atomic_rc_box_new0 (CopyJob);
  g_mutex_init (&job->lock);
  g_cond_init (&job->cond);
  for (i = 0; i < n; i++)
    add_chunks (job, dst[i], src[i], sizes[i], threads);
  for (h = 0; pool && h + 1 < MIN (job->n_chunks, threads); h++)
    g_thread_pool_push (pool, g_atomic_rc_box_acquire (job), NULL);

  copy_chunks (job);
  g_mutex_lock (&job->lock);
  while (g_atomic_int_get (&job->done) < (gint) job->n_chunks)
    g_cond_wait (&job->cond, &job->lock);
  g_mutex_unlock (&job->lock);
  g_atomic_rc_box_release_full (job, job_clear);
}

/**
 * clh_host_copy_planes:
 * @frame: a frame
 * @used: which of its planes to copy, a bit per plane index
 * @data: where to
 * @base: (array fixed-size=4): where in @data each plane goes
 *
 * clh_host_copy() of each used plane's clh_frame_plane_span() bytes to
 * @data + @base[plane].
 */
void
clh_host_copy_planes (const ClhFrame *frame, guint used, guint8 *data,
    const gsize *base)
{
  guint8 *dst[CLH_HOST_COPY_MAX];
  const guint8 *src[CLH_HOST_COPY_MAX];
  gsize sizes[CLH_HOST_COPY_MAX];
  guint p, n = 0;

  G_STATIC_ASSERT (CLH_MAX_PLANES <= CLH_HOST_COPY_MAX);
  for (p = 0; p < frame->n_planes; p++) {
    if (!(used & (1u << p)))
      continue;
    dst[n] = data + base[p];
    src[n] = frame->planes[p].data;
    sizes[n++] = clh_frame_plane_span (frame, p);
  }
  clh_host_copy (n, dst, src, sizes);
}

/**
 * clh_host_copy_has_helpers:
 *
 * Returns: whether copies get helper threads on this host
 */
gboolean
clh_host_copy_has_helpers (void)
{
  guint n;

  return helpers (&n) != NULL;
}
