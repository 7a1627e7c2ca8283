/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The HTTP server behind `--metrics`. libsoup 3 attaches a server's
 * sockets to the thread-default GMainContext of the thread that listens,
 * so the server is made, listens and runs on a thread of its own with a
 * context of its own: a scrape is answered whatever the probe's main loop
 * and streaming threads are doing. */
#include "probe-metrics-server.h"

#include <string.h>
#include <gio/gio.h>
#include <libsoup/soup.h>

/* The text exposition format Prometheus reads, as its documentation
 * ("Exposition formats") names it. */
#define CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

#define ADDRESS_HINT "give HOST:PORT, :PORT (every interface) or " \
  "[IPV6-ADDRESS]:PORT, such as 127.0.0.1:9610; port 0 takes any free port"

struct _ProbeMetricsServer
{
  gchar *address;
  /* NULL: every interface. */
  GInetAddress *host;
  guint16 port;
  ProbeMetricsRenderFunc render;
  gpointer data;

  GThread *thread;
  GMainContext *context;
  GMainLoop *loop;
  /* The server thread's own. */
  SoupServer *soup;

  /* Start-up: the thread says whether it listens. */
  GMutex lock;
  GCond cond;
  gboolean started;
  GError *error;
  gchar *url;
};

static gboolean
parse_port (const gchar *address, const gchar *text, guint16 *port,
    GError **error)
{
  guint64 value;

  if (!g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT16, &value,
          NULL)) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "\"%s\": the port \"%s\" is not a number from 0 to 65535 (0: any "
        "free port)", address, text);
    return FALSE;
  }
  *port = (guint16) value;
  return TRUE;
}

/* A name's first IPv4 address, else its first: as listeners given
 * "localhost" usually bind 127.0.0.1. */
static GInetAddress *
resolve (const gchar *address, const gchar *name, GError **error)
{
  GError *err = NULL;
  GList *found = g_resolver_lookup_by_name (g_resolver_get_default (), name,
      NULL, &err), *l;
  GInetAddress *host;

  if (!found) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "\"%s\": cannot resolve \"%s\" (%s): %s", address, name,
        err->message, ADDRESS_HINT);
    g_error_free (err);
    return NULL;
  }
  host = found->data;
  for (l = found; l; l = l->next)
    if (g_inet_address_get_family (l->data) == G_SOCKET_FAMILY_IPV4) {
      host = l->data;
      break;
    }
  g_object_ref (host);
  g_resolver_free_addresses (found);
  return host;
}

/* HOST:PORT, :PORT or [IPV6]:PORT into @server's host (NULL for :PORT)
 * and port. */
static gboolean
parse_address (ProbeMetricsServer *server, GError **error)
{
  const gchar *address = server->address, *port_text;
  gchar *host;
  gboolean ok;

  if (address[0] == '[') {
    const gchar *end = strchr (address, ']');

    if (!end || end[1] != ':') {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
          "\"%s\" is not an address: %s", address, ADDRESS_HINT);
      return FALSE;
    }
    host = g_strndup (address + 1, end - address - 1);
    port_text = end + 2;
    server->host = g_inet_address_new_from_string (host);
    if (!server->host
        || g_inet_address_get_family (server->host) != G_SOCKET_FAMILY_IPV6) {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
          "\"%s\": \"%s\" in brackets is not an IPv6 address: %s", address,
          host, ADDRESS_HINT);
      g_free (host);
      return FALSE;
    }
  } else {
    const gchar *colon = strrchr (address, ':');

    if (!colon) {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
          "\"%s\" has no port: %s", address, ADDRESS_HINT);
      return FALSE;
    }
    if (strchr (address, ':') != colon) {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
          "\"%s\": an IPv6 address goes in brackets, such as [::1]:9610",
          address);
      return FALSE;
    }
    host = g_strndup (address, colon - address);
    port_text = colon + 1;
    if (*host) {
      server->host = g_inet_address_new_from_string (host);
      if (!server->host && !(server->host = resolve (address, host, error))) {
        g_free (host);
        return FALSE;
      }
    }
  }
  g_free (host);
  ok = parse_port (address, port_text, &server->port, error);
  return ok;
}

static void
set_text (SoupServerMessage *msg, guint status, const gchar *text)
{
  soup_server_message_set_status (msg, status, NULL);
  soup_server_message_set_response (msg, "text/plain; charset=utf-8",
      SOUP_MEMORY_COPY, text, strlen (text));
}

static void
on_request (SoupServer *soup, SoupServerMessage *msg, const char *path,
    GHashTable *query, gpointer user_data)
{
  ProbeMetricsServer *server = user_data;
  const gchar *method = soup_server_message_get_method (msg);
  gchar *body;

  if (strcmp (path, "/metrics") != 0) {
    set_text (msg, SOUP_STATUS_NOT_FOUND,
        "Not found: the probe's metrics are at /metrics\n");
    return;
  }
  /* libsoup leaves a HEAD's body out itself. */
  if (strcmp (method, "GET") != 0 && strcmp (method, "HEAD") != 0) {
    soup_message_headers_replace (soup_server_message_get_response_headers
        (msg), "Allow", "GET, HEAD");
    set_text (msg, SOUP_STATUS_METHOD_NOT_ALLOWED,
        "Method not allowed: /metrics answers GET and HEAD\n");
    return;
  }
  body = server->render (server->data);
  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (msg, CONTENT_TYPE, SOUP_MEMORY_TAKE,
      body, strlen (body));
}

/* The URL of the first socket listening: a wildcard address as it is
 * (0.0.0.0), an IPv6 one in brackets. */
static gchar *
first_url (SoupServer *soup)
{
  GSList *uris = soup_server_get_uris (soup);
  gchar *url = NULL;

  if (uris) {
    const gchar *host = g_uri_get_host (uris->data);

    url = g_strdup_printf (strchr (host, ':') ? "http://[%s]:%d/metrics" :
        "http://%s:%d/metrics", host, g_uri_get_port (uris->data));
  }
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  return url;
}

/* The errors a person can act on, in words naming the port. */
static void
explain_listen_error (ProbeMetricsServer *server, GError *err,
    GError **error)
{
  if (g_error_matches (err, G_IO_ERROR, G_IO_ERROR_ADDRESS_IN_USE))
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_ADDRESS_IN_USE,
        "\"%s\": port %u is in use (another probe or exporter?): give "
        "another port, or 0 for any free one", server->address,
        server->port);
  else if (g_error_matches (err, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED))
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
        "\"%s\": not allowed to listen on port %u (%s): ports under 1024 "
        "need privileges; give a higher one", server->address, server->port,
        err->message);
  else
    g_set_error (error, err->domain, err->code,
        "\"%s\": cannot listen there (%s): give an address of this machine "
        "and a free port", server->address, err->message);
  g_error_free (err);
}

static gboolean
listen_on (ProbeMetricsServer *server, GError **error)
{
  GError *err = NULL;
  gboolean ok;

  server->soup = soup_server_new (NULL, NULL);
  soup_server_add_handler (server->soup, NULL, on_request, server, NULL);
  if (server->host) {
    GSocketAddress *where = g_inet_socket_address_new (server->host,
        server->port);

    ok = soup_server_listen (server->soup, where, 0, &err);
    g_object_unref (where);
  } else {
    ok = soup_server_listen_all (server->soup, server->port, 0, &err);
  }
  if (!ok) {
    explain_listen_error (server, err, error);
    return FALSE;
  }
  server->url = first_url (server->soup);
  return TRUE;
}

static gpointer
serve (gpointer user_data)
{
  ProbeMetricsServer *server = user_data;
  GError *error = NULL;
  gboolean listening;

  g_main_context_push_thread_default (server->context);
  listening = listen_on (server, &error);
  g_mutex_lock (&server->lock);
  server->error = error;
  server->started = TRUE;
  g_cond_signal (&server->cond);
  g_mutex_unlock (&server->lock);

  if (listening)
    g_main_loop_run (server->loop);
  if (server->soup)
    soup_server_disconnect (server->soup);
  g_clear_object (&server->soup);
  /* What closing the connections queued (their sources hold them). */
  while (g_main_context_iteration (server->context, FALSE))
    ;
  g_main_context_pop_thread_default (server->context);
  return NULL;
}

static void
server_free (ProbeMetricsServer *server)
{
  g_clear_object (&server->host);
  g_main_loop_unref (server->loop);
  g_main_context_unref (server->context);
  g_mutex_clear (&server->lock);
  g_cond_clear (&server->cond);
  g_free (server->address);
  g_free (server->url);
  g_free (server);
}

/**
 * probe_metrics_server_start:
 * @address: where to listen: `HOST:PORT` (an IPv4 address or a name),
 *   `:PORT` (every interface, IPv4 and IPv6) or `[IPV6]:PORT`; port 0
 *   takes any free port
 * @render: called on the server's thread for each GET /metrics
 * @data: @render's
 * @error: a G_OPTION_ERROR_BAD_VALUE for an address that is not one (the
 *   text says what to write), a G_IO_ERROR when it cannot be listened on
 *   (G_IO_ERROR_ADDRESS_IN_USE: the port is taken)
 *
 * Starts the server and returns once it listens (or failed to).
 *
 * Returns: (transfer full) (nullable): the server, to stop with
 *   probe_metrics_server_stop().
 */
ProbeMetricsServer *
probe_metrics_server_start (const gchar *address,
    ProbeMetricsRenderFunc render, gpointer data, GError **error)
{
  ProbeMetricsServer *server = g_new0 (ProbeMetricsServer, 1);

  server->address = g_strdup (address);
  server->render = render;
  server->data = data;
  server->context = g_main_context_new ();
  server->loop = g_main_loop_new (server->context, FALSE);
  g_mutex_init (&server->lock);
  g_cond_init (&server->cond);
  if (!parse_address (server, error)) {
    server_free (server);
    return NULL;
  }
  server->thread = g_thread_try_new ("probe-metrics", serve, server, error);
  if (!server->thread) {
    server_free (server);
    return NULL;
  }
  g_mutex_lock (&server->lock);
  while (!server->started)
    g_cond_wait (&server->cond, &server->lock);
  g_mutex_unlock (&server->lock);
  if (server->error) {
    g_propagate_error (error, server->error);
    g_thread_join (server->thread);
    server_free (server);
    return NULL;
  }
  return server;
}

/**
 * probe_metrics_server_get_url:
 *
 * Returns: (transfer none): the URL of /metrics on the first socket the
 *   server listens on, its port the one bound (`http://127.0.0.1:9610/metrics`).
 */
const gchar *
probe_metrics_server_get_url (ProbeMetricsServer *server)
{
  return server->url;
}

static gboolean
quit_loop (gpointer user_data)
{
  g_main_loop_quit (user_data);
  return G_SOURCE_REMOVE;
}

/**
 * probe_metrics_server_stop:
 * @server: (nullable) (transfer full):
 *
 * Closes the server's sockets, its connections included, and waits for
 * its thread to end; a render under way finishes first.
 */
void
probe_metrics_server_stop (ProbeMetricsServer *server)
{
  GSource *quit;

  if (!server)
    return;
  /* A source rather than g_main_loop_quit() here, which would be lost
   * had the loop not started running yet. */
  quit = g_idle_source_new ();
  g_source_set_callback (quit, quit_loop, server->loop, NULL);
  g_source_attach (quit, server->context);
  g_source_unref (quit);
  g_thread_join (server->thread);
  server_free (server);
}
