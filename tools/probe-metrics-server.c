/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The HTTP server behind `--metrics`. libsoup 3 attaches a server's
 * sockets to the thread-default GMainContext of the thread that listens,
 * so the server is made, listens and runs on a thread of its own with a
 * context of its own: a scrape is answered whatever the probe's main loop
 * and streaming threads are doing.
 *
 * Its clients are untrusted. It accepts connections itself and hands them
 * to libsoup (soup_server_accept_iostream()), so that their number is
 * capped and each times out; a request is answered from its headers
 * unless it is a bodiless GET or HEAD of /metrics, its body never read;
 * and each connection carries one request, as libsoup closes connections
 * it did not accept itself once answered.
 *
 * Nor does it wait on a slow client: one whose request line and headers
 * are not whole a few seconds after it connected is answered 408 and
 * shut down (RFC 9110, section 15.5.9), its slot freed. With every slot
 * taken, a new client is not refused while some connection still sends
 * its request: the oldest of those gives way (408 too), so clients that
 * trickle their headers and reconnect cannot keep a scraper out. And the
 * clients asking for /metrics together share one render, and one gzip of
 * it (probe-metrics-scrape.c), which each is sent as fast as it reads.
 *
 * With --web-config (probe-web-config.c), a connection is TLS: the server
 * runs its handshake itself (probe-metrics-tls.c), under the header
 * deadline, and hands libsoup the TLS stream once it is done, so that the
 * cap, the deadline and the eviction hold for clients that stall in the
 * handshake too. A request for /metrics or /healthz then needs a
 * user and password of the file (probe-web-auth.c), as every path of an
 * exporter-toolkit server does.
 *
 * Other paths may be pages (probe_metrics_server_set_pages(): the
 * monitor pages of --monitor-pictures): a path their owner claims from
 * its form alone goes through the same checks, its credentials included,
 * before the owner answers it; every other path is answered 404 from its
 * headers, as before. */
#include "probe-metrics-server.h"

#include <string.h>
#include <netinet/in.h>
#include <gio/gio.h>
#include <libsoup/soup.h>

#include "probe-metrics-tls.h"
#include "probe-web-auth.h"

/* The text exposition format Prometheus reads, as its documentation
 * ("Exposition formats") names it. */
#define CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"
/* The realm of basic authentication (RFC 7617, section 2). */
#define REALM "clhistogram-probe"
/* RFC 6585, section 4, which libsoup 3.2 has no name for. */
#define STATUS_TOO_MANY_REQUESTS 429

/* Untrusted clients: at most this many connections open at once (a
 * scraper needs one; beyond it, the oldest still sending its request
 * gives way, or the newcomer is closed as soon as accepted), and one
 * that sends or reads nothing for this long is closed. */
#define DEFAULT_MAX_CONNECTIONS 32
#define DEFAULT_TIMEOUT_S 10
/* A client has this long from connecting to send its whole request line
 * and headers, however steadily it sends them a byte at a time: a
 * scraper sends them at once, in one segment. */
#define DEFAULT_HEADER_DEADLINE_S 5
/* A connection carries one request; one still open this many timeouts
 * after it was accepted (a client sending a byte now and then, which no
 * single timeout catches) is shut down. */
#define LIFETIME_TIMEOUTS 3
/* An accept that failed (EMFILE: out of descriptors) is retried
 * PROBE_METRICS_SERVER_ACCEPT_RETRY_MS later, not at once: the listening
 * socket stays readable, so retrying at once would spin. */
#define ACCEPT_RETRY_MS PROBE_METRICS_SERVER_ACCEPT_RETRY_MS
/* Connections the kernel completes before the server accepts them:
 * Linux's SOMAXCONN before 5.4. */
#define LISTEN_BACKLOG 128

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
  /* Under @lock: the pages, or none. */
  ProbeMetricsClaimFunc claim;
  ProbeMetricsPageFunc page;
  gpointer page_data;

  GThread *thread;
  GMainContext *context;
  GMainLoop *loop;
  guint max_connections;
  guint timeout_s;
  guint header_deadline_s;
  /* --web-config's; NULL: plain HTTP, no authentication. */
  ProbeWebConfig *web;

  /* The server thread's own. */
  SoupServer *soup;
  /* The sockets accepted from, in place of SoupServer's own listening:
   * libsoup 3 neither bounds its connections nor times them out. */
  GSocketListener *listener;
  GCancellable *accepting;
  GSource *accept_retry;
  gboolean accept_failing;
  /* The connections handed to libsoup and not yet finalized, each to
   * its Connection; and the same by their peer's address, which is what
   * a request tells of its connection. */
  GHashTable *connections;
  GHashTable *by_peer;
  /* Those of them evicted and not yet gone: they no longer count
   * against the cap. */
  guint evicting;
  ProbeMetricsScrapes *scrapes;
  /* The TLS handshakes; NULL for plain HTTP. */
  ProbeMetricsTls *tls;
  /* NULL without basic_auth_users. */
  ProbeWebAuth *auth;

  /* Start-up: the thread says whether it listens; and the counts,
   * written on the server's thread and read on any. */
  GMutex lock;
  ProbeMetricsServerStats stats;
  GCond cond;
  gboolean started;
  GError *error;
  gchar *url;
};

/* What the server keeps of a connection handed to libsoup: the sources
 * that end it, which the connection's end destroys. */
typedef struct
{
  ProbeMetricsServer *server;
  /* Not a reference: libsoup's, until connection_gone(). */
  GSocketConnection *connection;
  /* The peer's address and port: what a request tells of its
   * connection (soup_server_message_get_remote_address()). */
  gchar *peer;
  GSource *lifetime;
  /* NULL once the request line and headers are whole. */
  GSource *header_deadline;
  /* When accepted (monotonic time), and whether it was cut to make
   * room for a newer one. */
  gint64 accepted;
  gboolean evicted;
  /* Its TLS stream, once the handshake is done (not a reference: the
   * TLS stream holds the connection, which outlives it). */
  GTlsConnection *tls;
} Connection;

/* One more of a count in the stats, which any thread may read. */
static void
count_one (ProbeMetricsServer *server, guint64 *count)
{
  g_mutex_lock (&server->lock);
  (*count)++;
  g_mutex_unlock (&server->lock);
}

static void
drop_source (gpointer source)
{
  g_source_destroy (source);
  g_source_unref (source);
}

static void
connection_free (gpointer data)
{
  Connection *c = data;

  drop_source (c->lifetime);
  g_clear_pointer (&c->header_deadline, drop_source);
  g_free (c->peer);
  g_free (c);
}

/* "ADDRESS port", the same for the address accepted and the one libsoup
 * gives back for its requests; NULL for a socket address not IP. */
static gchar *
peer_of (GSocketAddress *address)
{
  GInetSocketAddress *inet;
  gchar *host, *peer;

  if (!G_IS_INET_SOCKET_ADDRESS (address))
    return NULL;
  inet = G_INET_SOCKET_ADDRESS (address);
  host = g_inet_address_to_string (g_inet_socket_address_get_address (inet));
  peer = g_strdup_printf ("%s %u", host, g_inet_socket_address_get_port
      (inet));
  g_free (host);
  return peer;
}

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

/* An answer written on the stolen connection itself and the connection
 * closed: libsoup 3 reads a request's whole body (into memory) before any
 * handler's answer is sent, even one an early handler set. The answer is
 * a few hundred bytes on a connection that has sent nothing else, so
 * the socket's buffer takes it at once. */
static gchar *
format_answer (ProbeMetricsServer *server, guint status, const gchar *text,
    gboolean head)
{
  GDateTime *now = g_date_time_new_now_utc ();
  gchar *date = soup_date_time_to_string (now, SOUP_DATE_HTTP);
  gchar *answer = g_strdup_printf ("HTTP/1.1 %u %s\r\n"
      "Date: %s\r\n"
      "Content-Type: text/plain; charset=utf-8\r\n"
      "Content-Length: %" G_GSIZE_FORMAT "\r\n"
      "%s%s"
      "Connection: close\r\n\r\n%s", status, soup_status_get_phrase (status),
      date, strlen (text),
      status == SOUP_STATUS_METHOD_NOT_ALLOWED ? "Allow: GET, HEAD\r\n" : "",
      server->web ? server->web->headers : "", head ? "" : text);

  g_free (date);
  g_date_time_unref (now);
  return answer;
}

static void
reject (ProbeMetricsServer *server, SoupServerMessage *msg, guint status,
    const gchar *text)
{
  GIOStream *stream;
  gboolean head = strcmp (soup_server_message_get_method (msg), "HEAD") == 0;
  gchar *answer = format_answer (server, status, text, head);

  stream = soup_server_message_steal_connection (msg);
  if (stream) {
    g_output_stream_write_all (g_io_stream_get_output_stream (stream),
        answer, strlen (answer), NULL, NULL, NULL);
    g_io_stream_close (stream, NULL, NULL);
    g_object_unref (stream);
  }
  g_free (answer);
}

static gboolean
has_body (SoupServerMessage *msg)
{
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);

  switch (soup_message_headers_get_encoding (headers)) {
    case SOUP_ENCODING_NONE:
      return FALSE;
    case SOUP_ENCODING_CONTENT_LENGTH:
      return soup_message_headers_get_content_length (headers) > 0;
    default:
      return TRUE;
  }
}

/* The request line and headers of @msg are whole: its connection's
 * header deadline no longer applies. */
static void
headers_whole (ProbeMetricsServer *server, SoupServerMessage *msg)
{
  gchar *peer = peer_of (soup_server_message_get_remote_address (msg));
  Connection *c = peer ? g_hash_table_lookup (server->by_peer, peer) : NULL;

  if (c)
    g_clear_pointer (&c->header_deadline, drop_source);
  g_free (peer);
}

/* Whether @path is /metrics, /healthz or a page's. */
static gboolean
serves (ProbeMetricsServer *server, const gchar *path)
{
  ProbeMetricsClaimFunc claim;
  gpointer data;

  if (strcmp (path, "/metrics") == 0 || strcmp (path, "/healthz") == 0)
    return TRUE;
  g_mutex_lock (&server->lock);
  claim = server->claim;
  data = server->page_data;
  g_mutex_unlock (&server->lock);
  return claim && claim (path, data);
}

/* Once the request's headers are read, before its body: all but a
 * bodiless GET or HEAD of /metrics, /healthz or a page is answered here,
 * its body unread, before any authentication: what it tells is in the
 * manual. */
static void
on_request_headers (SoupServer *soup, SoupServerMessage *msg,
    const char *path, GHashTable *query, gpointer user_data)
{
  ProbeMetricsServer *server = user_data;
  const gchar *method = soup_server_message_get_method (msg);

  headers_whole (server, msg);
  if (!serves (server, path))
    reject (server, msg, SOUP_STATUS_NOT_FOUND,
        "Not found: the probe's metrics are at /metrics, whether it runs "
        "at /healthz\n");
  else if (strcmp (method, "GET") != 0 && strcmp (method, "HEAD") != 0)
    reject (server, msg, SOUP_STATUS_METHOD_NOT_ALLOWED,
        "Method not allowed: the probe's paths answer GET and HEAD\n");
  else if (has_body (msg))
    reject (server, msg, SOUP_STATUS_REQUEST_ENTITY_TOO_LARGE,
        "Content too large: GET takes no body here\n");
}

static gboolean
is_gzip (const gchar *coding)
{
  /* Content codings are case-insensitive, "x-gzip" the same as "gzip"
   * (RFC 9110, sections 8.4.1 and 8.4.1.3). */
  return g_ascii_strcasecmp (coding, "gzip") == 0
      || g_ascii_strcasecmp (coding, "x-gzip") == 0;
}

/* Whether Accept-Encoding takes gzip: named with a weight above 0, or
 * "*" is and gzip is not refused with q=0 (RFC 9110, section 12.5.3).
 * Without the header, the body goes uncompressed. */
static gboolean
accepts_gzip (SoupServerMessage *msg)
{
  const gchar *value = soup_message_headers_get_list
      (soup_server_message_get_request_headers (msg), "Accept-Encoding");
  GSList *refused = NULL, *taken, *l;
  gboolean gzip = FALSE, any = FALSE;

  if (!value)
    return FALSE;
  taken = soup_header_parse_quality_list (value, &refused);
  for (l = taken; l; l = l->next) {
    gzip |= is_gzip (l->data);
    any |= strcmp (l->data, "*") == 0;
  }
  for (l = refused; l && any; l = l->next)
    any = !is_gzip (l->data);
  soup_header_free_list (taken);
  soup_header_free_list (refused);
  return gzip || any;
}

/* The render for @msg, shared with the requests around it, as its body:
 * a reference to it, not a copy, which @msg holds until it is done;
 * *@gzip cleared where it could not be compressed. */
static GBytes *
shared_body (ProbeMetricsServer *server, SoupServerMessage *msg,
    gboolean *gzip)
{
  gboolean rendered, compressed = FALSE;
  ProbeMetricsScrape *scrape = probe_metrics_scrapes_get (server->scrapes,
      &rendered);
  GBytes *body = *gzip ? probe_metrics_scrape_get_gzip (scrape, &compressed)
      : NULL;

  *gzip = body != NULL;
  if (!body)
    body = probe_metrics_scrape_get_text (scrape);
  g_object_set_data_full (G_OBJECT (msg), "probe-metrics-scrape", scrape,
      probe_metrics_scrape_release);
  g_mutex_lock (&server->lock);
  server->stats.scrapes++;
  server->stats.renders += rendered;
  server->stats.compressions += compressed;
  g_mutex_unlock (&server->lock);
  return body;
}

/* http_server_config's headers, on an answer libsoup sends. */
static void
add_configured_headers (ProbeMetricsServer *server, SoupServerMessage *msg)
{
  SoupMessageHeaders *headers =
      soup_server_message_get_response_headers (msg);
  gchar **lines;
  guint i;

  if (!server->web || !*server->web->headers)
    return;
  lines = g_strsplit (server->web->headers, "\r\n", -1);
  for (i = 0; lines[i] && *lines[i]; i++) {
    gchar *colon = strchr (lines[i], ':');

    *colon = '\0';
    soup_message_headers_replace (headers, lines[i], colon + 2);
  }
  g_strfreev (lines);
}

/* A short text answer, the connection closed after it. */
static void
answer_text (ProbeMetricsServer *server, SoupServerMessage *msg,
    guint status, const gchar *reason, const gchar *text)
{
  SoupMessageHeaders *headers =
      soup_server_message_get_response_headers (msg);

  soup_server_message_set_status (msg, status, reason);
  soup_message_headers_replace (headers, "Connection", "close");
  add_configured_headers (server, msg);
  soup_server_message_set_response (msg, "text/plain; charset=utf-8",
      SOUP_MEMORY_STATIC, text, strlen (text));
}

static void
answer_unauthorized (ProbeMetricsServer *server, SoupServerMessage *msg)
{
  count_one (server, &server->stats.auth_denied);
  answer_text (server, msg, SOUP_STATUS_UNAUTHORIZED, NULL, "Unauthorized: "
      "give a user and password of the probe's --web-config "
      "(basic_auth_users) with Basic authentication\n");
  /* RFC 7617, section 2. */
  soup_message_headers_replace (soup_server_message_get_response_headers
      (msg), "WWW-Authenticate", "Basic realm=\"" REALM "\"");
}

/* Too many password checks under way (probe-web-auth.c): RFC 6585,
 * section 4. */
static void
answer_busy (ProbeMetricsServer *server, SoupServerMessage *msg)
{
  count_one (server, &server->stats.auth_busy);
  answer_text (server, msg, STATUS_TOO_MANY_REQUESTS, "Too Many Requests",
      "Too many requests: the password checks are busy; retry in a "
      "second\n");
  soup_message_headers_replace (soup_server_message_get_response_headers
      (msg), "Retry-After", "1");
}

/* The render, shared with the requests around it. */
static void
answer_metrics (ProbeMetricsServer *server, SoupServerMessage *msg)
{
  gboolean gzip = accepts_gzip (msg);
  GBytes *body = shared_body (server, msg, &gzip);
  SoupMessageHeaders *headers =
      soup_server_message_get_response_headers (msg);

  /* libsoup leaves a HEAD's body out itself, and closes the connection
   * after the answer (see the top of this file): the client is told.
   * Caches are told the body depends on Accept-Encoding (RFC 9110,
   * section 12.5.5). */
  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_message_headers_replace (headers, "Connection", "close");
  soup_message_headers_replace (headers, "Content-Type", CONTENT_TYPE);
  soup_message_headers_replace (headers, "Vary", "Accept-Encoding");
  if (gzip)
    soup_message_headers_replace (headers, "Content-Encoding", "gzip");
  add_configured_headers (server, msg);
  soup_message_body_append_bytes (soup_server_message_get_response_body
      (msg), body);
}

/* A page, as its owner answers it: never stored by a cache (a picture
 * is replaced each period under the same path), nor sniffed for another
 * type than it says. */
static void
answer_page (ProbeMetricsServer *server, SoupServerMessage *msg,
    const gchar *path)
{
  ProbeMetricsPage page = { SOUP_STATUS_NOT_FOUND, "text/plain; "
        "charset=utf-8", NULL, 0 };
  SoupMessageHeaders *headers =
      soup_server_message_get_response_headers (msg);
  ProbeMetricsPageFunc answer;
  gpointer data;

  g_mutex_lock (&server->lock);
  answer = server->page;
  data = server->page_data;
  server->stats.pages++;
  g_mutex_unlock (&server->lock);
  if (answer)
    answer (path, &page, data);
  soup_server_message_set_status (msg, page.status, NULL);
  soup_message_headers_replace (headers, "Connection", "close");
  soup_message_headers_replace (headers, "Content-Type", page.content_type);
  soup_message_headers_replace (headers, "Cache-Control", "no-store");
  soup_message_headers_replace (headers, "X-Content-Type-Options",
      "nosniff");
  if (page.retry_after_s > 0) {
    gchar *seconds = g_strdup_printf ("%u", page.retry_after_s);

    soup_message_headers_replace (headers, "Retry-After", seconds);
    g_free (seconds);
  }
  add_configured_headers (server, msg);
  if (page.body) {
    /* A reference, not a copy: a picture is shared by every request. */
    soup_message_body_append_bytes (soup_server_message_get_response_body
        (msg), page.body);
    g_bytes_unref (page.body);
  }
}

/* What a request let through gets: /healthz says that the server runs,
 * which is all a liveness check needs of it. */
static void
answer_granted (ProbeMetricsServer *server, SoupServerMessage *msg)
{
  const gchar *path = g_uri_get_path (soup_server_message_get_uri (msg));

  if (strcmp (path, "/healthz") == 0)
    answer_text (server, msg, SOUP_STATUS_OK, NULL, "ok\n");
  else if (strcmp (path, "/metrics") == 0)
    answer_metrics (server, msg);
  else
    answer_page (server, msg, path);
}

/* A request paused while its password is checked. */
typedef struct
{
  ProbeMetricsServer *server;
  SoupServerMessage *msg;
  gulong finished_id;
  /* libsoup is done with it: its client went, or the server stops. */
  gboolean finished;
} Checking;

static void
on_checking_finished (SoupServerMessage *msg, gpointer data)
{
  ((Checking *) data)->finished = TRUE;
}

static void
checking_free (gpointer data)
{
  Checking *c = data;

  g_signal_handler_disconnect (c->msg, c->finished_id);
  g_object_unref (c->msg);
  g_free (c);
}

static void
on_checked (gboolean granted, gpointer data)
{
  Checking *c = data;

  if (c->finished)
    return;
  if (granted) {
    count_one (c->server, &c->server->stats.auth_granted);
    answer_granted (c->server, c->msg);
  } else {
    answer_unauthorized (c->server, c->msg);
  }
  soup_server_message_unpause (c->msg);
}

/* The request's credentials, where --web-config has users: let through,
 * refused, or paused until their check is done. */
static void
authenticate (ProbeMetricsServer *server, SoupServerMessage *msg)
{
  Checking *c = g_new0 (Checking, 1);
  ProbeWebAuthVerdict verdict;

  c->server = server;
  c->msg = g_object_ref (msg);
  c->finished_id = g_signal_connect (msg, "finished",
      G_CALLBACK (on_checking_finished), c);
  verdict = probe_web_auth_check (server->auth,
      soup_message_headers_get_one (soup_server_message_get_request_headers
          (msg), "Authorization"), soup_server_message_get_remote_host (msg),
      on_checked, c, checking_free);
  switch (verdict) {
    case PROBE_WEB_AUTH_GRANTED:
      count_one (server, &server->stats.auth_granted);
      answer_granted (server, msg);
      break;
    case PROBE_WEB_AUTH_DENIED:
      answer_unauthorized (server, msg);
      break;
    case PROBE_WEB_AUTH_BUSY:
      answer_busy (server, msg);
      break;
    case PROBE_WEB_AUTH_CHECKING:
      count_one (server, &server->stats.auth_checks);
      soup_server_message_pause (msg);
      break;
  }
}

/* What on_request_headers() let through: GET or HEAD of /metrics,
 * /healthz or a page. */
static void
on_request (SoupServer *soup, SoupServerMessage *msg, const char *path,
    GHashTable *query, gpointer user_data)
{
  ProbeMetricsServer *server = user_data;

  if (server->auth)
    authenticate (server, msg);
  else
    answer_granted (server, msg);
}

/* The URL of the first socket listening: a wildcard address as it is
 * (0.0.0.0), an IPv6 one in brackets; https with TLS. */
static gchar *
first_url (GSocket *socket, const gchar *scheme)
{
  GSocketAddress *where = g_socket_get_local_address (socket, NULL);
  gchar *url = NULL;

  if (G_IS_INET_SOCKET_ADDRESS (where)) {
    GInetSocketAddress *inet = G_INET_SOCKET_ADDRESS (where);
    gchar *host = g_inet_address_to_string
        (g_inet_socket_address_get_address (inet));

    url = g_strdup_printf (strchr (host, ':') ? "%s://[%s]:%u/metrics" :
        "%s://%s:%u/metrics", scheme, host,
        g_inet_socket_address_get_port (inet));
    g_free (host);
  }
  g_clear_object (&where);
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

/* A listening socket on @host:@port; an IPv6 wildcard takes IPv6 only,
 * its IPv4 twin being another socket, as soup_server_listen_all() does. */
static GSocket *
listen_socket (GInetAddress *host, guint16 port, GError **error)
{
  GSocketFamily family = g_inet_address_get_family (host);
  GSocket *socket = g_socket_new (family, G_SOCKET_TYPE_STREAM,
      G_SOCKET_PROTOCOL_TCP, error);
  GSocketAddress *where;
  gboolean ok;

  if (!socket)
    return NULL;
  if (family == G_SOCKET_FAMILY_IPV6 && g_inet_address_get_is_any (host)
      && !g_socket_set_option (socket, IPPROTO_IPV6, IPV6_V6ONLY, TRUE,
          error)) {
    g_object_unref (socket);
    return NULL;
  }
  where = g_inet_socket_address_new (host, port);
  /* GSocket's backlog of 10 overflows as soon as more clients connect at
   * once than the server accepts in a turn (a flood of 16 clients), and a
   * client whose SYN is dropped waits a second before it tries again
   * (RFC 6298's initial timeout). */
  g_socket_set_listen_backlog (socket, LISTEN_BACKLOG);
  ok = g_socket_bind (socket, where, TRUE, error)
      && g_socket_listen (socket, error);
  g_object_unref (where);
  if (!ok)
    g_clear_object (&socket);
  return socket;
}

/* @server's sockets into its listener: its host, or for :PORT the IPv4
 * wildcard and, where this machine has IPv6, the IPv6 one on the same
 * port. The URL is the first's. */
static gboolean
open_sockets (ProbeMetricsServer *server, GError **error)
{
  GInetAddress *any4 = NULL, *any6 = NULL;
  GSocket *first, *second = NULL;
  GError *err = NULL;
  gboolean ok = TRUE;

  if (!server->host)
    any4 = g_inet_address_new_any (G_SOCKET_FAMILY_IPV4);
  first = listen_socket (server->host ? server->host : any4, server->port,
      error);
  if (first && !server->host) {
    GSocketAddress *bound = g_socket_get_local_address (first, NULL);
    guint16 port = bound ? g_inet_socket_address_get_port
        (G_INET_SOCKET_ADDRESS (bound)) : server->port;

    any6 = g_inet_address_new_any (G_SOCKET_FAMILY_IPV6);
    second = listen_socket (any6, port, &err);
    /* No IPv6 here (not built in, or off): IPv4 alone, as libsoup does;
     * but the port taken or not allowed is said. */
    if (!second && !g_error_matches (err, G_IO_ERROR,
            G_IO_ERROR_ADDRESS_IN_USE) && !g_error_matches (err, G_IO_ERROR,
            G_IO_ERROR_PERMISSION_DENIED))
      g_clear_error (&err);
    else if (!second) {
      g_propagate_error (error, err);
      g_clear_object (&first);
    }
    g_clear_object (&bound);
  }
  if (!first)
    ok = FALSE;
  if (ok)
    ok = g_socket_listener_add_socket (server->listener, first, NULL, error)
        && (!second || g_socket_listener_add_socket (server->listener,
            second, NULL, error));
  if (ok)
    server->url = first_url (first, server->web
        && server->web->certificate ? "https" : "http");
  g_clear_object (&first);
  g_clear_object (&second);
  g_clear_object (&any4);
  g_clear_object (&any6);
  return ok;
}

static void accept_next (ProbeMetricsServer *server);

/* The last reference to an accepted connection is gone: libsoup closed
 * it (answered, timed out, the client gone) or the server stopped. */
static void
connection_gone (gpointer user_data, GObject *where_the_connection_was)
{
  ProbeMetricsServer *server = user_data;
  Connection *c = g_hash_table_lookup (server->connections,
      where_the_connection_was);

  if (c) {
    g_hash_table_remove (server->by_peer, c->peer);
    if (c->evicted)
      server->evicting--;
  }
  g_hash_table_remove (server->connections, where_the_connection_was);
  g_mutex_lock (&server->lock);
  server->stats.open--;
  g_mutex_unlock (&server->lock);
}

/* Shut down rather than closed: libsoup still polls the descriptor, and
 * sees the end of the stream on it. */
static gboolean
end_lifetime (gpointer user_data)
{
  Connection *c = user_data;
  ProbeMetricsServer *server = c->server;

  count_one (server, &server->stats.lifetimes_ended);
  g_socket_shutdown (g_socket_connection_get_socket (c->connection),
      TRUE, TRUE, NULL);
  return G_SOURCE_REMOVE;
}

/* "408 Request Timeout" (RFC 9110, section 15.5.9, with "close" as it
 * asks), written without blocking on a connection that was sent nothing
 * yet, and the connection shut down as end_lifetime() does. */
static void
answer_408 (Connection *c)
{
  GSocket *socket = g_socket_connection_get_socket (c->connection);
  gchar *answer = format_answer (c->server, SOUP_STATUS_REQUEST_TIMEOUT,
      "Request timeout: send the request line and headers at once\n",
      FALSE);
  gboolean tls = c->server->web && c->server->web->certificate;

  /* Over TLS, through it once the handshake is done; one still in its
   * handshake is only shut down, which fails the handshake. */
  if (!tls)
    g_socket_send_with_blocking (socket, answer, strlen (answer), FALSE,
        NULL, NULL);
  else if (c->tls)
    g_pollable_output_stream_write_nonblocking (G_POLLABLE_OUTPUT_STREAM
        (g_io_stream_get_output_stream (G_IO_STREAM (c->tls))), answer,
        strlen (answer), NULL, NULL);
  g_socket_shutdown (socket, TRUE, TRUE, NULL);
  g_free (answer);
}

/* The headers were not whole in time. Counted first: the client may
 * look as soon as it is answered. */
static gboolean
end_header_wait (gpointer user_data)
{
  Connection *c = user_data;
  ProbeMetricsServer *server = c->server;

  count_one (server, &server->stats.header_deadlines);
  answer_408 (c);
  return G_SOURCE_REMOVE;
}

/* The connection accepted first of those still sending their request
 * line and headers, not evicted yet; NULL if none. */
static Connection *
oldest_unsent (ProbeMetricsServer *server)
{
  GHashTableIter iter;
  Connection *c, *oldest = NULL;

  g_hash_table_iter_init (&iter, server->connections);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) & c))
    if (c->header_deadline && !c->evicted
        && (!oldest || c->accepted < oldest->accepted))
      oldest = c;
  return oldest;
}

/* The cap is reached and a new client comes: the connection that has
 * taken longest to send its request gives way (408), rather than the
 * newcomer, so that clients that trickle their headers and reconnect
 * cannot keep a scraper out. Those cut and not yet gone are bounded by
 * the cap too. Returns whether one gave way. */
static gboolean
evict_one (ProbeMetricsServer *server)
{
  Connection *c;

  if (server->evicting >= server->max_connections
      || !(c = oldest_unsent (server)))
    return FALSE;
  c->evicted = TRUE;
  server->evicting++;
  g_clear_pointer (&c->header_deadline, drop_source);
  count_one (server, &server->stats.evicted);
  answer_408 (c);
  return TRUE;
}

static GSource *
attach_timeout (ProbeMetricsServer *server, guint seconds,
    GSourceFunc callback, Connection *c)
{
  GSource *source = g_timeout_source_new_seconds (seconds);

  g_source_set_callback (source, callback, c, NULL);
  g_source_attach (source, server->context);
  return source;
}

/* @connection's limits, from when it is accepted: its header deadline,
 * its lifetime, and a timeout on every read and write. */
static Connection *
track_connection (ProbeMetricsServer *server, GSocketConnection *connection,
    gchar *peer)
{
  Connection *c = g_new0 (Connection, 1);

  c->server = server;
  c->connection = connection;
  c->peer = peer;
  c->accepted = g_get_monotonic_time ();
  /* Every read and write of the connection, waiting for a request
   * included, fails after this long without progress. */
  g_socket_set_timeout (g_socket_connection_get_socket (connection),
      server->timeout_s);
  c->lifetime = attach_timeout (server, server->timeout_s *
      LIFETIME_TIMEOUTS, end_lifetime, c);
  c->header_deadline = attach_timeout (server, server->header_deadline_s,
      end_header_wait, c);
  g_hash_table_insert (server->connections, connection, c);
  g_hash_table_insert (server->by_peer, peer, c);
  g_mutex_lock (&server->lock);
  server->stats.accepted++;
  server->stats.open++;
  g_mutex_unlock (&server->lock);
  g_object_weak_ref (G_OBJECT (connection), connection_gone, server);
  return c;
}

/* A connection's TLS handshake is over (probe-metrics-tls.c): libsoup
 * gets the TLS stream, or the connection is closed. */
static void
on_tls_ready (GTlsConnection *tls, gpointer data)
{
  Connection *c = data;
  ProbeMetricsServer *server = c->server;
  gboolean stopping = g_cancellable_is_cancelled (server->accepting);
  GSocketAddress *local, *remote;

  if (!tls || stopping) {
    /* Counted first: the client may look as soon as it is closed. */
    if (!stopping)
      count_one (server, &server->stats.tls_failures);
    g_io_stream_close (G_IO_STREAM (c->connection), NULL, NULL);
    g_object_unref (c->connection);
    return;
  }
  count_one (server, &server->stats.tls_handshakes);
  c->tls = tls;
  local = g_socket_connection_get_local_address (c->connection, NULL);
  remote = g_socket_connection_get_remote_address (c->connection, NULL);
  soup_server_accept_iostream (server->soup, G_IO_STREAM (tls), local,
      remote, NULL);
  g_object_unref (c->connection);
  g_clear_object (&local);
  g_clear_object (&remote);
}

static void
serve_connection (ProbeMetricsServer *server, GSocketConnection *connection)
{
  GSocketAddress *local = g_socket_connection_get_local_address (connection,
      NULL);
  GSocketAddress *remote =
      g_socket_connection_get_remote_address (connection, NULL);
  gchar *peer = peer_of (remote);

  /* libsoup 3.2 refuses a connection without both addresses; and a
   * peer whose last connection libsoup still holds would leave
   * headers_whole() not knowing which connection a request is on. */
  gboolean taken = local && peer
      && !g_hash_table_contains (server->by_peer, peer);

  if (taken && g_hash_table_size (server->connections) - server->evicting
      >= server->max_connections)
    taken = evict_one (server);
  if (!taken) {
    /* Counted first: the client may look as soon as it is closed. */
    count_one (server, &server->stats.refused);
    g_io_stream_close (G_IO_STREAM (connection), NULL, NULL);
    g_free (peer);
  } else {
    Connection *c = track_connection (server, connection, peer);

    /* Held until the handshake's end: the TLS stream holds it then. */
    if (server->tls)
      probe_metrics_tls_start (server->tls, g_object_ref (connection),
          on_tls_ready, c);
    else
      soup_server_accept_iostream (server->soup, G_IO_STREAM (connection),
          local, remote, NULL);
  }
  g_clear_object (&local);
  g_clear_object (&remote);
}

/* Those libsoup still holds once stopped, which no longer count. */
static void
forget_connections (ProbeMetricsServer *server)
{
  GHashTableIter iter;
  gpointer connection;

  g_hash_table_remove_all (server->by_peer);
  g_hash_table_iter_init (&iter, server->connections);
  while (g_hash_table_iter_next (&iter, &connection, NULL)) {
    g_object_weak_unref (connection, connection_gone, server);
    g_hash_table_iter_remove (&iter);
    g_mutex_lock (&server->lock);
    server->stats.open--;
    g_mutex_unlock (&server->lock);
  }
}

static gboolean
retry_accept (gpointer user_data)
{
  ProbeMetricsServer *server = user_data;

  g_clear_pointer (&server->accept_retry, g_source_unref);
  accept_next (server);
  return G_SOURCE_REMOVE;
}

static void
on_accepted (GObject *listener, GAsyncResult *result, gpointer user_data)
{
  ProbeMetricsServer *server = user_data;
  GError *error = NULL;
  GSocketConnection *connection =
      g_socket_listener_accept_finish (G_SOCKET_LISTENER (listener), result,
      NULL, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)) {
    g_error_free (error);
    return;
  }
  if (!connection) {
    /* Said once for a run of failures, not ten times a second. */
    if (!server->accept_failing)
      g_warning ("metrics server on %s: cannot accept a connection (%s); "
          "retrying every %u ms", server->address, error->message,
          ACCEPT_RETRY_MS);
    server->accept_failing = TRUE;
    g_error_free (error);
    count_one (server, &server->stats.accept_failures);
    server->accept_retry = g_timeout_source_new (ACCEPT_RETRY_MS);
    g_source_set_callback (server->accept_retry, retry_accept, server, NULL);
    g_source_attach (server->accept_retry, server->context);
    return;
  }
  server->accept_failing = FALSE;
  serve_connection (server, connection);
  g_object_unref (connection);
  accept_next (server);
}

static void
accept_next (ProbeMetricsServer *server)
{
  g_socket_listener_accept_async (server->listener, server->accepting,
      on_accepted, server);
}

static gboolean
listen_on (ProbeMetricsServer *server, GError **error)
{
  GError *err = NULL;

  server->soup = soup_server_new (NULL, NULL);
  if (server->web && g_hash_table_size (server->web->users) > 0)
    server->auth = probe_web_auth_new (server->web->users, server->context);
  server->accepting = g_cancellable_new ();
  if (server->web && server->web->certificate)
    server->tls = probe_metrics_tls_new (server->web, server->accepting);
  soup_server_add_early_handler (server->soup, NULL, on_request_headers,
      server, NULL);
  soup_server_add_handler (server->soup, NULL, on_request, server, NULL);
  server->listener = g_socket_listener_new ();
  if (!open_sockets (server, &err)) {
    explain_listen_error (server, err, error);
    return FALSE;
  }
  accept_next (server);
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
  g_cancellable_cancel (server->accepting);
  if (server->accept_retry) {
    g_source_destroy (server->accept_retry);
    g_clear_pointer (&server->accept_retry, g_source_unref);
  }
  if (server->listener)
    g_socket_listener_close (server->listener);
  if (server->soup)
    soup_server_disconnect (server->soup);
  /* The handshakes under way end, cancelled; then the password checks,
   * each paused request let go. */
  g_clear_pointer (&server->tls, probe_metrics_tls_free);
  g_clear_pointer (&server->auth, probe_web_auth_free);
  g_clear_object (&server->soup);
  /* What closing the connections queued (their sources hold them). */
  while (g_main_context_iteration (server->context, FALSE))
    ;
  g_clear_object (&server->listener);
  g_clear_object (&server->accepting);
  forget_connections (server);
  g_main_context_pop_thread_default (server->context);
  return NULL;
}

static void
server_free (ProbeMetricsServer *server)
{
  probe_web_config_free (server->web);
  g_clear_object (&server->host);
  g_hash_table_unref (server->by_peer);
  g_hash_table_unref (server->connections);
  probe_metrics_scrapes_free (server->scrapes);
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
 * Starts the server and returns once it listens (or failed to). It
 * serves GET and HEAD of /metrics, and of /healthz (200, `ok`), without a
 * body, one request a connection; any other request is answered at once
 * (404 for another path, 405 for another method, 413 for a body), its
 * body unread. At
 * most 32 connections are open at once, those beyond closed as soon as
 * accepted; one whose request line and headers are not whole 5 s after
 * it was accepted is answered 408 and shut down; one idle or stalled for
 * 10 s is closed, and one still open 30 s after it was accepted is shut
 * down.
 *
 * A render is reused for the requests arriving while it is still being
 * sent to another client and is under 10 s old; it is sent
 * gzip-compressed (compressed once) to a request whose Accept-Encoding
 * takes gzip.
 *
 * Returns: (transfer full) (nullable): the server, to stop with
 *   probe_metrics_server_stop().
 */
ProbeMetricsServer *
probe_metrics_server_start (const gchar *address,
    ProbeMetricsRenderFunc render, gpointer data, GError **error)
{
  return probe_metrics_server_start_full (address, NULL, render, data,
      DEFAULT_MAX_CONNECTIONS, DEFAULT_TIMEOUT_S, DEFAULT_HEADER_DEADLINE_S,
      error);
}

/**
 * probe_metrics_server_start_web:
 * @address: as probe_metrics_server_start()'s
 * @web: (nullable) (transfer full): --web-config's settings; %NULL: as
 *   probe_metrics_server_start()
 * @render: as probe_metrics_server_start()'s
 * @data: @render's
 * @error: as probe_metrics_server_start()'s
 *
 * probe_metrics_server_start() with @web's TLS and users. With a
 * certificate, every connection is TLS, its handshake bounded by the
 * header deadline (5 s from accepting it) like its request, 8 handshakes
 * at most under way and 2 from one client address (probe-metrics-tls.h),
 * and one that fails the handshake, sends no client certificate that
 * @web's CA signed where one is required, or speaks an older TLS than
 * @web's min_version is closed. With users, GET and HEAD of /metrics and /healthz need Basic
 * credentials of one of them: without or with wrong ones, 401 with
 * `WWW-Authenticate: Basic realm="clhistogram-probe"`; with too many
 * password checks under way (probe-web-auth.h), 429 with `Retry-After: 1`.
 * @web's headers go out with every answer.
 *
 * Returns: (transfer full) (nullable): the server, to stop with
 *   probe_metrics_server_stop().
 */
ProbeMetricsServer *
probe_metrics_server_start_web (const gchar *address, ProbeWebConfig *web,
    ProbeMetricsRenderFunc render, gpointer data, GError **error)
{
  return probe_metrics_server_start_full (address, web, render, data,
      DEFAULT_MAX_CONNECTIONS, DEFAULT_TIMEOUT_S, DEFAULT_HEADER_DEADLINE_S,
      error);
}

/**
 * probe_metrics_server_start_with_limits:
 * @address: as probe_metrics_server_start()'s
 * @render: as probe_metrics_server_start()'s
 * @data: @render's
 * @max_connections: at most this many connections open at once (at
 *   least 1); those accepted beyond it are closed at once
 * @timeout_s: seconds a connection may go without a read or write
 *   making progress before it is closed (at least 1); three times it,
 *   the longest a connection is kept; and the oldest a render is reused
 *   while a response still holds it
 * @header_deadline_s: seconds from accepting a connection by which its
 *   request line and headers must be whole (at least 1), else it is
 *   answered 408 and shut down
 * @error: as probe_metrics_server_start()'s
 *
 * probe_metrics_server_start() with other limits than its 32 connections,
 * 10 s and 5 s: for tests, which cannot wait that long.
 *
 * Returns: (transfer full) (nullable): the server, to stop with
 *   probe_metrics_server_stop().
 */
ProbeMetricsServer *
probe_metrics_server_start_with_limits (const gchar *address,
    ProbeMetricsRenderFunc render, gpointer data, guint max_connections,
    guint timeout_s, guint header_deadline_s, GError **error)
{
  return probe_metrics_server_start_full (address, NULL, render, data,
      max_connections, timeout_s, header_deadline_s, error);
}

/**
 * probe_metrics_server_start_full:
 * @address: as probe_metrics_server_start()'s
 * @web: (nullable) (transfer full): as probe_metrics_server_start_web()'s
 * @render: as probe_metrics_server_start()'s
 * @data: @render's
 * @max_connections: as probe_metrics_server_start_with_limits()'s
 * @timeout_s: as probe_metrics_server_start_with_limits()'s
 * @header_deadline_s: as probe_metrics_server_start_with_limits()'s
 * @error: as probe_metrics_server_start()'s
 *
 * probe_metrics_server_start_web() with other limits: for tests.
 *
 * Returns: (transfer full) (nullable): the server, to stop with
 *   probe_metrics_server_stop().
 */
ProbeMetricsServer *
probe_metrics_server_start_full (const gchar *address, ProbeWebConfig *web,
    ProbeMetricsRenderFunc render, gpointer data, guint max_connections,
    guint timeout_s, guint header_deadline_s, GError **error)
{
  ProbeMetricsServer *server;

  g_return_val_if_fail (max_connections > 0 && timeout_s > 0
      && header_deadline_s > 0, NULL);
  server = g_new0 (ProbeMetricsServer, 1);
  server->web = web;
  server->address = g_strdup (address);
  server->render = render;
  server->data = data;
  server->max_connections = max_connections;
  server->timeout_s = timeout_s;
  server->header_deadline_s = header_deadline_s;
  server->connections = g_hash_table_new_full (NULL, NULL, NULL,
      connection_free);
  server->by_peer = g_hash_table_new (g_str_hash, g_str_equal);
  server->scrapes = probe_metrics_scrapes_new (render, data,
      (gint64) timeout_s * G_USEC_PER_SEC);
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
 *   server listens on, its port the one bound (`http://127.0.0.1:9610/metrics`,
 *   `https://...` with TLS).
 */
const gchar *
probe_metrics_server_get_url (ProbeMetricsServer *server)
{
  return server->url;
}

/**
 * probe_metrics_server_set_pages:
 * @claim: (nullable): whether a path is a page's (%NULL: none is)
 * @page: the answer to a request of a page, once its credentials are
 *   taken
 * @data: @claim's and @page's, alive until the server stops
 *
 * Serves pages besides /metrics and /healthz: the paths @claim takes
 * (from their form alone: it is asked before the credentials are
 * checked, so that a client without them learns nothing of what is
 * there) are answered by @page, under every limit /metrics is (the
 * connections' cap and timeouts, TLS, the users of --web-config), GET
 * and HEAD only, with `Cache-Control: no-store`. Any thread.
 */
void
probe_metrics_server_set_pages (ProbeMetricsServer *server,
    ProbeMetricsClaimFunc claim, ProbeMetricsPageFunc page, gpointer data)
{
  g_mutex_lock (&server->lock);
  server->claim = claim;
  server->page = page;
  server->page_data = data;
  g_mutex_unlock (&server->lock);
}

/**
 * probe_metrics_server_get_stats:
 * @stats: (out caller-allocates): the counts since the server started
 *
 * What the server did with its connections: which a test reads to tell
 * why a connection closed, without timing it.
 */
void
probe_metrics_server_get_stats (ProbeMetricsServer *server,
    ProbeMetricsServerStats *stats)
{
  g_mutex_lock (&server->lock);
  *stats = server->stats;
  g_mutex_unlock (&server->lock);
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
