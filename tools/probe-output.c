/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The probe's JSON Lines: stdout on a descriptor of its own, written by a
 * thread of its own, a whole line at a time.
 *
 * A descriptor of its own: a library's stray print cannot land between
 * two lines, and a closed stdout cannot become a descriptor GStreamer opens
 * for itself. A thread of its own: while the reader takes nothing, only
 * that thread waits, and the streaming thread waits behind a short queue
 * (the stream is held back rather than buffered without bound), while the
 * main loop and the signals are still served. */
#include "probe-output.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

/* Lines that may wait for the reader before the stream is held back. */
#define MAX_LINES 16
/* ... and beyond them, lines that cannot wait (the main loop's), before
 * those are dropped: a reader that takes nothing must not make the probe
 * hold a live input's downs without bound. */
#define MAX_EXTRA_LINES 16

struct _ProbeOutput
{
  gint fd;
  GMutex lock;
  GCond cond;
  GQueue lines;
  /* No more lines come: end once those queued are written. */
  gboolean finishing;
  /* No line is taken or written any more. */
  gboolean sealed;
  /* A line is partly out: the reader would see it cut if the probe
   * stopped now. */
  gboolean writing;
  gint error;
  /* Lines that could not wait and found no room. */
  guint64 dropped;
  GThread *thread;
  GSourceFunc on_end;
  gpointer data;
};

static gboolean
is_open (gint fd)
{
  return fcntl (fd, F_GETFD) != -1 || errno != EBADF;
}

/**
 * probe_output_claim_stdout:
 *
 * Takes stdout for the JSON and makes sure descriptors 0, 1 and 2 are open
 * (on /dev/null where they were closed), so that no descriptor opened later
 * (a GStreamer poll socket, an OpenCL driver's file) is taken for stdout or
 * stderr. Call it first in main(), before GLib, GStreamer or OpenCL open a
 * descriptor. It also ignores SIGPIPE: a reader that went away is a write
 * error (EPIPE) the probe reports, not a signal that ends it silently.
 *
 * Returns: a descriptor of stdout's own (above 2, close-on-exec), or -1 if
 *   stdout was closed.
 */
gint
probe_output_claim_stdout (void)
{
  gint fd = -1, i;

  signal (SIGPIPE, SIG_IGN);
  if (is_open (STDOUT_FILENO))
    fd = fcntl (STDOUT_FILENO, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
  /* open() takes the lowest free descriptor: each closed one of 0, 1, 2 in
   * turn, those below it being open by then. */
  for (i = STDIN_FILENO; i <= STDERR_FILENO; i++) {
    gint null;

    if (is_open (i))
      continue;
    null = open ("/dev/null", O_RDWR);
    if (null >= 0 && null != i) {
      dup2 (null, i);
      close (null);
    }
  }
  return fd;
}

/**
 * probe_output_release_stdout:
 *
 * Points descriptor 1 at stderr, once the options (whose --help is printed
 * on stdout) are read: what anything else prints on stdout goes where
 * diagnostics go, and the descriptor probe_output_claim_stdout() returned
 * is the JSON's alone, so that closing it reports the file's last error.
 */
void
probe_output_release_stdout (void)
{
  dup2 (STDERR_FILENO, STDOUT_FILENO);
}

/* Waits until @fd takes more, for a descriptor a parent left non-blocking. */
static gboolean
wait_writable (gint fd, gint *error)
{
  struct pollfd p = { fd, POLLOUT, 0 };

  while (poll (&p, 1, -1) < 0) {
    if (errno != EINTR) {
      *error = errno;
      return FALSE;
    }
  }
  return TRUE;
}

/**
 * probe_write_all:
 * @fd: a descriptor open for writing
 * @data: (array length=size): the bytes
 * @size: their number
 * @error: (out): the errno of a failed write
 *
 * Writes all of @data, however many writes it takes: a write a signal
 * interrupts (EINTR: a handler installed without SA_RESTART, as LLVM's in
 * some OpenCL drivers) or cuts short (a pipe's reader taking part of it) is
 * taken up where it stopped, so that a line is never cut.
 *
 * Returns: %FALSE with @error set if the descriptor refused (EPIPE,
 *   ENOSPC, EBADF, EIO, ...).
 */
gboolean
probe_write_all (gint fd, const gchar *data, gsize size, gint *error)
{
  while (size > 0) {
    gssize n = write (fd, data, size);

    if (n > 0) {
      data += n;
      size -= n;
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (!wait_writable (fd, error))
        return FALSE;
    } else {
      /* write() returns 0 for a non-empty buffer only where the file
       * can take nothing more. */
      *error = n < 0 ? errno : EIO;
      return FALSE;
    }
  }
  return TRUE;
}

static gpointer
write_lines (gpointer user_data)
{
  ProbeOutput *out = user_data;
  gboolean notify;
  gint error = 0;

  g_mutex_lock (&out->lock);
  for (;;) {
    gchar *line;
    gboolean ok;

    while (!out->sealed && !out->finishing && g_queue_is_empty (&out->lines))
      g_cond_wait (&out->cond, &out->lock);
    if (out->sealed || g_queue_is_empty (&out->lines))
      break;
    line = g_queue_pop_head (&out->lines);
    out->writing = TRUE;
    g_cond_broadcast (&out->cond);
    g_mutex_unlock (&out->lock);

    ok = probe_write_all (out->fd, line, strlen (line), &error);
    g_free (line);

    g_mutex_lock (&out->lock);
    out->writing = FALSE;
    if (!ok) {
      out->error = error;
      break;
    }
  }
  /* Sealed from outside, the output is being closed or aborted: no one
   * waits for the news. */
  notify = !out->sealed || out->error;
  /* Nothing more is written: a streaming thread waiting for room, or a
   * stop waiting for the line in progress, goes on. */
  out->sealed = TRUE;
  g_cond_broadcast (&out->cond);
  g_mutex_unlock (&out->lock);
  if (notify)
    g_idle_add (out->on_end, out->data);
  return NULL;
}

/**
 * probe_output_new:
 * @fd: the descriptor probe_output_claim_stdout() returned; the output
 *   closes it
 * @on_end: called once in the default main context, when the lines are
 *   all written after probe_output_finish(), or when a write failed
 * @data: for @on_end
 *
 * Returns: an output whose thread writes the lines pushed, in order.
 */
ProbeOutput *
probe_output_new (gint fd, GSourceFunc on_end, gpointer data)
{
  ProbeOutput *out = g_new0 (ProbeOutput, 1);

  out->fd = fd;
  g_mutex_init (&out->lock);
  g_cond_init (&out->cond);
  g_queue_init (&out->lines);
  out->on_end = on_end;
  out->data = data;
  out->thread = g_thread_new ("probe-output", write_lines, out);
  return out;
}

static gboolean
push_line (ProbeOutput *out, gchar *line, gboolean wait_for_room)
{
  g_mutex_lock (&out->lock);
  while (wait_for_room && !out->sealed
      && g_queue_get_length (&out->lines) >= MAX_LINES)
    g_cond_wait (&out->cond, &out->lock);
  if (out->sealed) {
    g_mutex_unlock (&out->lock);
    g_free (line);
    return FALSE;
  }
  if (g_queue_get_length (&out->lines) >= MAX_LINES + MAX_EXTRA_LINES) {
    /* Said once; the count at the end. */
    if (out->dropped++ == 0)
      g_printerr ("clhistogram-probe: stdout takes nothing: input-down "
          "lines are dropped until it does\n");
    g_mutex_unlock (&out->lock);
    g_free (line);
    return TRUE;
  }
  g_queue_push_tail (&out->lines, line);
  g_cond_broadcast (&out->cond);
  g_mutex_unlock (&out->lock);
  return TRUE;
}

/**
 * probe_output_push:
 * @line: (transfer full): a line, ending in a newline
 *
 * Queues @line for the writer, waiting while the queue is full (the
 * reader is slower than the stream).
 *
 * Returns: %FALSE, and @line freed, once the output takes no more lines
 *   (it failed, finished or was aborted).
 */
gboolean
probe_output_push (ProbeOutput *out, gchar *line)
{
  return push_line (out, line, TRUE);
}

/**
 * probe_output_push_now:
 * @line: (transfer full): a line, ending in a newline
 *
 * Queues @line without waiting for room: for the main loop's rare lines
 * (an input that went down), which must not wait for a slow reader while
 * the other inputs' retries and stall checks are due. The queue then
 * holds up to 16 lines over its bound; beyond, @line is dropped and
 * counted (probe_output_get_dropped()), the first time said on stderr.
 *
 * Returns: as probe_output_push()
 */
gboolean
probe_output_push_now (ProbeOutput *out, gchar *line)
{
  return push_line (out, line, FALSE);
}

/**
 * probe_output_finish:
 *
 * No more lines come: the writer writes those queued, then calls on_end.
 */
void
probe_output_finish (ProbeOutput *out)
{
  g_mutex_lock (&out->lock);
  out->finishing = TRUE;
  g_cond_broadcast (&out->cond);
  g_mutex_unlock (&out->lock);
}

/**
 * probe_output_abort:
 * @wait_us: how long to wait for the line in progress, in microseconds
 *
 * Drops the lines queued and takes no more, for a stop at once; the line
 * the writer is in the middle of is finished if stdout takes it within
 * @wait_us. Safe from any thread.
 *
 * Returns: %TRUE if a line is still partly written (the reader takes
 *   nothing), %FALSE if every line written is whole.
 */
gboolean
probe_output_abort (ProbeOutput *out, gint64 wait_us)
{
  const gint64 until = g_get_monotonic_time () + wait_us;
  gboolean cut;

  g_mutex_lock (&out->lock);
  out->sealed = TRUE;
  g_queue_clear_full (&out->lines, g_free);
  g_cond_broadcast (&out->cond);
  while (out->writing && g_cond_wait_until (&out->cond, &out->lock, until));
  cut = out->writing;
  g_mutex_unlock (&out->lock);
  return cut;
}

/**
 * probe_output_get_dropped:
 *
 * Returns: the lines probe_output_push_now() dropped for want of room.
 */
guint64
probe_output_get_dropped (ProbeOutput *out)
{
  guint64 dropped;

  g_mutex_lock (&out->lock);
  dropped = out->dropped;
  g_mutex_unlock (&out->lock);
  return dropped;
}

/**
 * probe_output_close:
 *
 * Stops the writer (call it once on_end came, or before any line was
 * pushed), closes the descriptor and frees @out.
 *
 * Returns: 0, or the errno of the failed write or close (a file system
 *   that reports a failed write only when the file is closed).
 */
gint
probe_output_close (ProbeOutput *out)
{
  gint error;

  g_mutex_lock (&out->lock);
  out->sealed = TRUE;
  g_cond_broadcast (&out->cond);
  g_mutex_unlock (&out->lock);
  g_thread_join (out->thread);

  error = out->error;
  /* Linux releases the descriptor even when close() is interrupted:
   * retrying could close one another thread has just opened. */
  if (close (out->fd) != 0 && !error && errno != EINTR)
    error = errno;
  g_queue_clear_full (&out->lines, g_free);
  g_mutex_clear (&out->lock);
  g_cond_clear (&out->cond);
  g_free (out);
  return error;
}
