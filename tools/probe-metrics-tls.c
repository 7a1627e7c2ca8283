/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The metrics server's TLS handshakes, on the server's context.
 *
 * GIO (glib-networking 2.74) runs every handshake, asynchronous or not,
 * on a thread of GLib's shared pool of GTasks, which holds it from the
 * client's first byte to its last flight: a client that stalls in its
 * handshake holds a thread until the server's header deadline shuts its
 * connection down. The pool has 10 threads and grows only once none of
 * its tasks has started for 100 ms, which a steady flood never allows;
 * the rest of the probe shares it (resolving a camera's host name, for
 * one). So the handshakes are let in a few at a time, and a client's
 * address only a couple of them, the others waiting their turn (within
 * the same header deadline, which the server keeps); and each starts
 * once its client has sent something (its ClientHello), so that a client
 * that connects and says nothing holds no thread at all.
 *
 * What GIO cannot do here is checked once the handshake is done: the TLS
 * version against min_version (GIO cannot set the oldest one its TLS
 * library offers), and the client certificate, which glib-networking
 * leaves to "accept-certificate" on a server whatever its errors. */
#include "probe-metrics-tls.h"

struct _ProbeMetricsTls
{
  const ProbeWebConfig *web;
  GCancellable *stopping;
  GMainContext *context;
  /* Under way (from the wait for the client's first bytes to the end),
   * in all and by client address (GUINT_TO_POINTER). */
  guint running;
  GHashTable *running_by_host;
  /* Handshake *, waiting their turn, first come first served. */
  GQueue waiting;
  /* Those whose callback is still to come, waiting or under way. */
  guint unfinished;
};

typedef struct
{
  ProbeMetricsTls *t;
  GTlsConnection *tls;
  /* Its base (not a reference: @tls holds it). */
  GSocketConnection *connection;
  gchar *host;
  gboolean running;
  ProbeMetricsTlsDone done;
  gpointer data;
} Handshake;

static void start_waiting (ProbeMetricsTls *t);

static void
release_host (ProbeMetricsTls *t, const gchar *host)
{
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (t->running_by_host,
          host));

  if (n > 1)
    g_hash_table_insert (t->running_by_host, g_strdup (host),
        GUINT_TO_POINTER (n - 1));
  else
    g_hash_table_remove (t->running_by_host, host);
}

/* The handshake's end, its connection given to the callback where @ok. */
static void
finish (Handshake *h, gboolean ok)
{
  ProbeMetricsTls *t = h->t;

  if (h->running) {
    t->running--;
    release_host (t, h->host);
  }
  t->unfinished--;
  h->done (ok ? h->tls : NULL, h->data);
  g_object_unref (h->tls);
  g_free (h->host);
  g_free (h);
  start_waiting (t);
}

/* Whether the handshake's TLS version is min_version's or newer: an
 * older one is refused once negotiated, before the client sends its
 * request. */
static gboolean
recent_enough (ProbeMetricsTls *t, GTlsConnection *tls)
{
  GTlsProtocolVersion version = g_tls_connection_get_protocol_version (tls);

  return version != G_TLS_PROTOCOL_VERSION_UNKNOWN
      && version >= t->web->min_version;
}

static void
on_handshake (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Handshake *h = user_data;
  gboolean ok = g_tls_connection_handshake_finish (h->tls, result, NULL)
      && !g_cancellable_is_cancelled (h->t->stopping)
      && recent_enough (h->t, h->tls);

  finish (h, ok);
}

/* The client sent its first bytes, or its connection ended, or the
 * server stops: the handshake starts, and fails at once in the last two
 * cases. */
static gboolean
on_client_hello (GSocket *socket, GIOCondition condition, gpointer user_data)
{
  Handshake *h = user_data;

  g_tls_connection_handshake_async (h->tls, G_PRIORITY_DEFAULT,
      h->t->stopping, on_handshake, h);
  return G_SOURCE_REMOVE;
}

static void
begin (Handshake *h)
{
  ProbeMetricsTls *t = h->t;
  GSocket *socket = g_socket_connection_get_socket (h->connection);
  GSource *hello = g_socket_create_source (socket, G_IO_IN | G_IO_HUP |
      G_IO_ERR, t->stopping);
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (t->running_by_host,
          h->host));

  h->running = TRUE;
  t->running++;
  g_hash_table_insert (t->running_by_host, g_strdup (h->host),
      GUINT_TO_POINTER (n + 1));
  g_source_set_callback (hello, G_SOURCE_FUNC (on_client_hello), h, NULL);
  g_source_attach (hello, t->context);
  g_source_unref (hello);
}

/* The waiting handshakes that the limits let begin, in their order. */
static void
start_waiting (ProbeMetricsTls *t)
{
  GList *l = t->waiting.head, *next;

  if (g_cancellable_is_cancelled (t->stopping))
    return;
  for (; l && t->running < PROBE_METRICS_TLS_MAX_HANDSHAKES; l = next) {
    Handshake *h = l->data;

    next = l->next;
    if (GPOINTER_TO_UINT (g_hash_table_lookup (t->running_by_host, h->host))
        < PROBE_METRICS_TLS_MAX_HANDSHAKES_PER_HOST) {
      g_queue_delete_link (&t->waiting, l);
      begin (h);
    }
  }
}

/* A client certificate is taken only where it checks out against
 * client_ca_file. */
static gboolean
accept_client_certificate (GTlsConnection *tls, GTlsCertificate *peer,
    GTlsCertificateFlags errors, gpointer user_data)
{
  return errors == 0;
}

static gchar *
host_of (GSocketConnection *connection)
{
  GSocketAddress *remote = g_socket_connection_get_remote_address
      (connection, NULL);
  gchar *host = G_IS_INET_SOCKET_ADDRESS (remote) ?
      g_inet_address_to_string (g_inet_socket_address_get_address
      (G_INET_SOCKET_ADDRESS (remote))) : g_strdup ("");

  g_clear_object (&remote);
  return host;
}

/**
 * probe_metrics_tls_new:
 * @web: (transfer none): the certificate, client certificates and
 *   min_version; kept until probe_metrics_tls_free()
 * @stopping: cancelled when the server stops: every handshake then ends
 *
 * On the server's thread, its context the thread-default one, where the
 * handshakes run and their callbacks are called.
 *
 * Returns: (transfer full): the handshakes, to free with
 *   probe_metrics_tls_free().
 */
ProbeMetricsTls *
probe_metrics_tls_new (const ProbeWebConfig *web, GCancellable *stopping)
{
  ProbeMetricsTls *t = g_new0 (ProbeMetricsTls, 1);

  t->web = web;
  t->stopping = g_object_ref (stopping);
  t->context = g_main_context_ref_thread_default ();
  t->running_by_host = g_hash_table_new_full (g_str_hash, g_str_equal,
      g_free, NULL);
  g_queue_init (&t->waiting);
  return t;
}

/**
 * probe_metrics_tls_start:
 * @connection: (transfer none): a connection just accepted
 * @done: called once on the context: with the TLS connection (transfer
 *   none; hand it on, holding a reference), its handshake done, its
 *   version min_version's or newer and its client certificate, where
 *   required, signed by client_ca_file's CA; with %NULL otherwise, when
 *   the caller closes @connection
 * @data: @done's
 *
 * Wraps @connection in TLS and runs its handshake once the limits let it
 * (PROBE_METRICS_TLS_MAX_HANDSHAKES, and
 * PROBE_METRICS_TLS_MAX_HANDSHAKES_PER_HOST for its client's address)
 * and the client has sent its first bytes. Nothing bounds the wait but
 * the caller, which shuts down a connection too slow.
 */
void
probe_metrics_tls_start (ProbeMetricsTls *t, GSocketConnection *connection,
    ProbeMetricsTlsDone done, gpointer data)
{
  static const gchar *const protocols[] = { "http/1.1", NULL };
  GIOStream *tls = g_tls_server_connection_new (G_IO_STREAM (connection),
      t->web->certificate, NULL);
  Handshake *h;

  if (!tls) {
    done (NULL, data);
    return;
  }
  /* As libsoup's own TLS server: clients seldom end with close_notify. */
  g_object_set (tls, "authentication-mode", t->web->client_auth,
      "database", t->web->client_ca, "require-close-notify", FALSE, NULL);
  g_tls_connection_set_advertised_protocols (G_TLS_CONNECTION (tls),
      protocols);
  g_signal_connect (tls, "accept-certificate",
      G_CALLBACK (accept_client_certificate), NULL);
  h = g_new0 (Handshake, 1);
  h->t = t;
  h->tls = G_TLS_CONNECTION (tls);
  h->connection = connection;
  h->host = host_of (connection);
  h->done = done;
  h->data = data;
  t->unfinished++;
  g_queue_push_tail (&t->waiting, h);
  start_waiting (t);
}

/**
 * probe_metrics_tls_free:
 * @t: (nullable) (transfer full):
 *
 * On the context, once @stopping was cancelled: ends the handshakes
 * waiting their turn, waits for those under way to fail, each callback
 * called with %NULL, and frees @t.
 */
void
probe_metrics_tls_free (ProbeMetricsTls *t)
{
  Handshake *h;

  if (!t)
    return;
  g_return_if_fail (g_cancellable_is_cancelled (t->stopping));
  while ((h = g_queue_pop_head (&t->waiting)))
    finish (h, FALSE);
  while (t->unfinished > 0)
    g_main_context_iteration (t->context, TRUE);
  g_hash_table_unref (t->running_by_host);
  g_main_context_unref (t->context);
  g_object_unref (t->stopping);
  g_free (t);
}
