/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The TCP connections a pipeline's RTSP source opened, so that a source
 * stuck in a reply without end can be cut loose.
 *
 * rtspsrc reads a reply's status line, headers and body without a way
 * to interrupt it: GstRTSPConnection ignores its cancellable while a
 * message is half read (gst_rtsp_connection_flush(), GStreamer 1.22 to
 * 1.26), and its timeout only bounds each wait for a byte. A camera
 * that sends header lines without end therefore holds rtspsrc's thread,
 * and with it the pipeline's state change to NULL, for ever, while the
 * headers pile up in memory. Cutting the socket ends the read, and
 * rtspsrc then stops as for any broken connection.
 *
 * A shutdown() alone is not enough on Linux: the reads go on as long as
 * the peer keeps the receive queue full. So the socket's descriptor is
 * also replaced (dup3()) by one end of a socket pair whose other end is
 * closed: the next read there finds the end of the stream, each write
 * fails, and the TCP socket, no longer referred to, is closed (a reset
 * for the peer, with data left unread). The descriptor's number stays
 * taken until rtspsrc closes it, so it is never reused under it.
 *
 * rtspsrc does not expose its connection; the socket is found where
 * GIO makes it. Every GSocketClient emits "event" with the socket it
 * connected, on the thread that connects (an emission hook sees all of
 * them); rtspsrc connects on its own thread and sends its first request
 * ("before-send") right after, on that thread. So the socket last
 * connected on the thread that emits "before-send" is the source's.
 * Only weak references are kept: a socket's life is its owner's. */
/* dup3() */
#define _GNU_SOURCE
#include "probe-connections.h"

#include <gio/gio.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

struct _ProbeConnections
{
  GMutex lock;
  /* Connection * of each socket of the source, in the order connected. */
  GPtrArray *sockets;
};

typedef struct
{
  GWeakRef socket;
  gboolean cut;
} Connection;

static void
connection_free (gpointer data)
{
  Connection *connection = data;

  g_weak_ref_clear (&connection->socket);
  g_free (connection);
}

static void
weak_ref_free (gpointer data)
{
  GWeakRef *ref = data;

  g_weak_ref_clear (ref);
  g_free (ref);
}

/* The socket this thread connected last, if it is still there. */
static GPrivate last_connected = G_PRIVATE_INIT (weak_ref_free);

static gboolean
on_socket_client_event (GSignalInvocationHint *hint, guint n_values,
    const GValue *values, gpointer unused)
{
  GWeakRef *ref;
  GObject *stream;

  if (n_values < 4
      || g_value_get_enum (&values[1]) != G_SOCKET_CLIENT_CONNECTED)
    return TRUE;
  stream = g_value_get_object (&values[3]);
  if (!G_IS_SOCKET_CONNECTION (stream))
    return TRUE;
  ref = g_private_get (&last_connected);
  if (!ref) {
    ref = g_new (GWeakRef, 1);
    g_weak_ref_init (ref, NULL);
    g_private_set (&last_connected, ref);
  }
  g_weak_ref_set (ref,
      g_socket_connection_get_socket (G_SOCKET_CONNECTION (stream)));
  return TRUE;
}

static gpointer
add_hook (gpointer unused)
{
  /* The signal exists once the class does; kept for the program's life. */
  g_type_class_ref (G_TYPE_SOCKET_CLIENT);
  g_signal_add_emission_hook (g_signal_lookup ("event",
          G_TYPE_SOCKET_CLIENT), 0, on_socket_client_event, NULL, NULL);
  return NULL;
}

/**
 * probe_connections_new:
 *
 * Returns: (transfer full): an empty set of connections, for one
 *   pipeline's source; probe_connections_unref() it.
 */
ProbeConnections *
probe_connections_new (void)
{
  static GOnce hook = G_ONCE_INIT;
  ProbeConnections *c = g_atomic_rc_box_new0 (ProbeConnections);

  g_once (&hook, add_hook, NULL);
  g_mutex_init (&c->lock);
  c->sockets = g_ptr_array_new_with_free_func (connection_free);
  return c;
}

/* A socket that is gone or closed no longer counts. */
static gboolean
is_open (Connection *connection)
{
  GSocket *socket = g_weak_ref_get (&connection->socket);
  gboolean open = socket && !g_socket_is_closed (socket);

  g_clear_object (&socket);
  return open;
}

/* rtspsrc's "before-send", on its thread: the socket it just connected,
 * if any, is its own. */
static gboolean
on_before_send (GstElement *source, gpointer message, gpointer data)
{
  ProbeConnections *c = data;
  GWeakRef *last = g_private_get (&last_connected);
  GSocket *socket = last ? g_weak_ref_get (last) : NULL;
  Connection *connection;
  guint i;

  if (!socket)
    return TRUE;
  g_weak_ref_set (last, NULL);
  connection = g_new0 (Connection, 1);
  g_weak_ref_init (&connection->socket, socket);
  g_object_unref (socket);
  g_mutex_lock (&c->lock);
  /* Reconnections replace closed sockets: the set stays small. */
  for (i = c->sockets->len; i-- > 0;)
    if (!is_open (g_ptr_array_index (c->sockets, i)))
      g_ptr_array_remove_index (c->sockets, i);
  g_ptr_array_add (c->sockets, connection);
  g_mutex_unlock (&c->lock);
  return TRUE;
}

static void
release (gpointer data, GClosure *unused)
{
  probe_connections_unref (data);
}

/**
 * probe_connections_watch:
 * @source: the source uridecodebin made ("source-setup"); anything but
 *   rtspsrc (no "before-send" signal) is left alone
 *
 * Records the TCP connections @source opens to its server, until @c is
 * freed.
 */
void
probe_connections_watch (ProbeConnections *c, GstElement *source)
{
  if (!g_signal_lookup ("before-send", G_OBJECT_TYPE (source)))
    return;
  g_signal_connect_data (source, "before-send", G_CALLBACK (on_before_send),
      g_atomic_rc_box_acquire (c), release, 0);
}

/* Shuts @socket down and puts a dead end in place of its descriptor. */
static gboolean
cut (GSocket *socket)
{
  const int fd = g_socket_get_fd (socket);
  int pair[2];
  gboolean done;

  g_socket_shutdown (socket, TRUE, TRUE, NULL);
  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0,
          pair) != 0)
    return FALSE;
  close (pair[1]);
  done = dup3 (pair[0], fd, O_CLOEXEC) == fd;
  close (pair[0]);
  return done;
}

/**
 * probe_connections_cut:
 *
 * Cuts each connection of the source that is still open and not cut
 * before: its reads find the end of the stream and its writes fail from
 * then on, and the source stops as for a broken connection; its owner
 * still closes it. Call it only while the source is stuck in a read (a
 * state change that does not return): a socket its owner closes at that
 * moment would have its descriptor's number reused.
 *
 * Returns: how many were cut.
 */
guint
probe_connections_cut (ProbeConnections *c)
{
  guint i, n = 0;

  g_mutex_lock (&c->lock);
  for (i = 0; i < c->sockets->len; i++) {
    Connection *connection = g_ptr_array_index (c->sockets, i);
    GSocket *socket = g_weak_ref_get (&connection->socket);

    if (socket && !connection->cut && !g_socket_is_closed (socket)) {
      connection->cut = TRUE;
      n += cut (socket);
    }
    g_clear_object (&socket);
  }
  g_mutex_unlock (&c->lock);
  return n;
}

static void
clear (gpointer data)
{
  ProbeConnections *c = data;

  g_ptr_array_unref (c->sockets);
  g_mutex_clear (&c->lock);
}

void
probe_connections_unref (ProbeConnections *c)
{
  if (c)
    g_atomic_rc_box_release_full (c, clear);
}
