/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The probe's file descriptors against its limit.
 *
 * Out of descriptors, GStreamer and GLib fail where nothing can say why:
 * a bus without its GstPoll prints a CRITICAL for each watch, the OpenCL
 * driver's loader finds no device, and GLib aborts the whole process
 * when a main context cannot make its wakeup pipe (a first connection
 * makes one, for the proxy settings). So the probe never lets a run
 * start without room: each run that starts has RUN_DESCRIPTORS kept for
 * it until its first frame (or its end), beside SPARE_DESCRIPTORS for
 * the rest of the process. A run that finds no room waits for the runs
 * starting before it; where the limit leaves no room even without them,
 * its input goes down with "too many open files" and the figures. */
#include "probe-descriptors.h"

#include <sys/resource.h>

/* What one run may open while it starts: its bus's wakeup, its source's
 * sockets and their polls, its decoder's. An RTSP camera over TCP holds
 * 6 once it plays. */
#define RUN_DESCRIPTORS 16
/* The rest of the process: the /metrics clients (32 at most) share it
 * with what GLib, GStreamer and the OpenCL driver open later. */
#define SPARE_DESCRIPTORS 32

static GMutex lock;
/* Descriptors kept for the runs starting now, under @lock. */
static guint reserved;
/* Those that wait for room, in the order they came, under @lock: the
 * first gets the room first, so that inputs that fail and retry fast
 * do not starve the others. */
static GQueue waiting = G_QUEUE_INIT;

/**
 * probe_descriptors_raise_limit:
 *
 * Raises the soft RLIMIT_NOFILE to the hard one. Each camera takes
 * descriptors, and a fleet of them outgrows the 1024 most systems give a
 * process by default; the hard limit, which the administrator sets, is
 * what the probe may take, as systemd's own services are advised to do
 * (systemd.exec(5), LimitNOFILE=). Call it first thing in main().
 */
void
probe_descriptors_raise_limit (void)
{
  struct rlimit limit;

  if (getrlimit (RLIMIT_NOFILE, &limit) == 0
      && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit (RLIMIT_NOFILE, &limit);
  }
}

/* The descriptors open now; G_MAXUINT where they cannot be counted
 * (reading the folder takes one: none left). */
static guint
in_use (void)
{
  GDir *dir = g_dir_open ("/proc/self/fd", 0, NULL);
  guint n = 0;

  if (!dir)
    return G_MAXUINT;
  while (g_dir_read_name (dir))
    n++;
  g_dir_close (dir);
  /* The folder's own descriptor. */
  return n > 0 ? n - 1 : 0;
}

/**
 * probe_descriptors_reserve:
 * @who: the input whose run it is, where it waits its turn
 * @reason: (out): with %PROBE_DESCRIPTORS_FULL, why, in one line, to
 *   free
 *
 * Keeps the descriptors a run needs to start, if the limit leaves room
 * for them beside those open now, those kept for the other runs that
 * start and the spare, and no one waits before @who;
 * probe_descriptors_release() gives them back. After
 * %PROBE_DESCRIPTORS_WAIT, @who waits its turn: ask again later, or
 * probe_descriptors_forget() it.
 *
 * Returns: whether the run may start, or must wait for the others, or
 *   finds the limit too low.
 */
ProbeDescriptorsRoom
probe_descriptors_reserve (gconstpointer who, gchar **reason)
{
  const guint64 needed = RUN_DESCRIPTORS + SPARE_DESCRIPTORS;
  ProbeDescriptorsRoom room = PROBE_DESCRIPTORS_KEPT;
  struct rlimit limit;
  guint open;
  gchar count[16] = "all";

  if (getrlimit (RLIMIT_NOFILE, &limit) != 0
      || limit.rlim_cur == RLIM_INFINITY)
    return PROBE_DESCRIPTORS_KEPT;
  g_mutex_lock (&lock);
  open = in_use ();
  if (open == G_MAXUINT || open + needed > limit.rlim_cur)
    room = PROBE_DESCRIPTORS_FULL;
  else if (open + needed + reserved > limit.rlim_cur
      || (waiting.head && waiting.head->data != who))
    room = PROBE_DESCRIPTORS_WAIT;
  else
    reserved += RUN_DESCRIPTORS;
  if (room != PROBE_DESCRIPTORS_WAIT)
    g_queue_remove (&waiting, who);
  else if (!g_queue_find (&waiting, who))
    g_queue_push_tail (&waiting, (gpointer) who);
  g_mutex_unlock (&lock);
  if (room == PROBE_DESCRIPTORS_FULL) {
    if (open != G_MAXUINT)
      g_snprintf (count, sizeof count, "%u", open);
    *reason = g_strdup_printf ("too many open files: %s of the limit of %"
        G_GUINT64_FORMAT " are open, and a start needs %" G_GUINT64_FORMAT
        " free; raise the limit (ulimit -n; systemd: LimitNOFILE=)", count,
        (guint64) limit.rlim_cur, needed);
  }
  return room;
}

/**
 * probe_descriptors_release:
 *
 * Gives back what one probe_descriptors_reserve() that returned %TRUE
 * kept: its run has its first frame, or ended.
 */
void
probe_descriptors_release (void)
{
  g_mutex_lock (&lock);
  g_warn_if_fail (reserved >= RUN_DESCRIPTORS);
  reserved -= MIN (reserved, RUN_DESCRIPTORS);
  g_mutex_unlock (&lock);
}

/**
 * probe_descriptors_forget:
 * @who: an input that may wait its turn
 *
 * @who no longer waits: it ended.
 */
void
probe_descriptors_forget (gconstpointer who)
{
  g_mutex_lock (&lock);
  g_queue_remove (&waiting, who);
  g_mutex_unlock (&lock);
}
