/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --web-config FILE: the YAML of Prometheus' exporter-toolkit
 * (docs/web-configuration.md of prometheus/exporter-toolkit), read with
 * libyaml, once, at start: tls_server_config (cert_file, key_file,
 * client_auth_type, client_ca_file, min_version), http_server_config
 * (http2: false, headers) and basic_auth_users (user: bcrypt hash).
 *
 * The toolkit refuses a key it does not know (Go's yaml.UnmarshalStrict);
 * so does this, and also one of the toolkit's that this server cannot
 * honour (cipher_suites: GIO leaves them to the TLS library), each error
 * naming the file, the line and the key: a setting silently ignored would
 * leave a server less protected than its administrator believes.
 * Relative file names are the file's folder's, as the toolkit's are. */
#include "probe-web-config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <glib/gstdio.h>
#include <yaml.h>

#define BAD(error, ...) \
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, __VA_ARGS__)

/* Certificates, keys and CA bundles: Debian's whole bundle of CAs is
 * about 200 kB. */
#define MAX_PEM_BYTES (4 * 1024 * 1024)
/* RFC 7617's user-id cannot hold ':'; beyond this, a name is a mistake. */
#define MAX_USER_BYTES 256
#define MAX_HEADER_VALUE_BYTES 1024
/* The loopback handshake that checks the certificate and key. */
#define LOOPBACK_TIMEOUT_S 10
/* A web configuration nests 3 deep (http_server_config.headers.NAME). */
#define MAX_DEPTH 8
/* "$2y$10$" and 53 characters of bcrypt's base64. */
#define BCRYPT_HASH_LENGTH 60

/* A setting read from the file, and where. */
typedef struct
{
  const gchar *value;
  gsize line;
} Setting;

typedef struct
{
  const gchar *path;
  gchar *dir;
  yaml_document_t doc;
  ProbeWebConfig *config;
  /* tls_server_config's, where given. */
  gsize tls_line;
  Setting cert_file, key_file, client_auth_type, client_ca_file,
      min_version;
  /* http_server_config's headers, as they go out. */
  GString *headers;
} Reader;

typedef gboolean (*TakeFunc) (Reader *r, yaml_node_t *key,
    yaml_node_t *value, GError **error);

/* A key of a section: taken by @take, or refused for @unsupported. */
typedef struct
{
  const gchar *name;
  TakeFunc take;
  const gchar *unsupported;
} Key;

static gsize
line_of (const yaml_node_t *node)
{
  return node->start_mark.line + 1;
}

static yaml_node_t *
node_at (Reader *r, gint index)
{
  return yaml_document_get_node (&r->doc, index);
}

/* A plain empty, "~" or "null": YAML's null, which the toolkit reads as
 * the key left out. */
static gboolean
is_null (const yaml_node_t *node)
{
  const gchar *v = (const gchar *) node->data.scalar.value;

  return node->type == YAML_SCALAR_NODE
      && node->data.scalar.style == YAML_PLAIN_SCALAR_STYLE
      && (!*v || g_str_equal (v, "~") || g_str_equal (v, "null")
      || g_str_equal (v, "Null") || g_str_equal (v, "NULL"));
}

/* @node's text, or NULL with @error where it is not one string. */
static const gchar *
text_of (Reader *r, const yaml_node_t *node, const gchar *what,
    GError **error)
{
  const gchar *v = (const gchar *) node->data.scalar.value;

  if (node->type != YAML_SCALAR_NODE) {
    BAD (error, "%s:%" G_GSIZE_FORMAT ": %s: not a string", r->path,
        line_of (node), what);
    return NULL;
  }
  if (strlen (v) != node->data.scalar.length) {
    BAD (error, "%s:%" G_GSIZE_FORMAT ": %s: holds a NUL character",
        r->path, line_of (node), what);
    return NULL;
  }
  return v;
}

static gchar *
key_names (const Key *keys)
{
  GString *names = g_string_new (NULL);

  for (; keys->name; keys++)
    if (keys->take)
      g_string_append_printf (names, "%s%s", names->len ? ", " : "",
          keys->name);
  return g_string_free (names, FALSE);
}

static const Key *
find_key (const Key *keys, const gchar *name)
{
  for (; keys->name; keys++)
    if (g_str_equal (keys->name, name))
      return keys;
  return NULL;
}

/* Each key of the mapping @node (@section, for errors) to its Key's
 * take; a key unknown, refused or given twice is an error. A null
 * @node is an empty mapping. */
static gboolean
walk_mapping (Reader *r, yaml_node_t *node, const gchar *section,
    const Key *keys, GError **error)
{
  GHashTable *seen;
  yaml_node_pair_t *pair;
  gboolean ok = TRUE;

  if (is_null (node))
    return TRUE;
  if (node->type != YAML_MAPPING_NODE) {
    gchar *names = key_names (keys);

    BAD (error, "%s:%" G_GSIZE_FORMAT ": %s: not a mapping of keys (%s)",
        r->path, line_of (node), section, names);
    g_free (names);
    return FALSE;
  }
  seen = g_hash_table_new (g_str_hash, g_str_equal);
  for (pair = node->data.mapping.pairs.start;
      ok && pair < node->data.mapping.pairs.top; pair++) {
    yaml_node_t *key = node_at (r, pair->key);
    yaml_node_t *value = node_at (r, pair->value);
    const gchar *name = text_of (r, key, section, error);
    const Key *k = name ? find_key (keys, name) : NULL;

    if (!name) {
      ok = FALSE;
    } else if (g_hash_table_contains (seen, name)) {
      BAD (error, "%s:%" G_GSIZE_FORMAT ": %s: \"%s\" is given twice",
          r->path, line_of (key), section, name);
      ok = FALSE;
    } else if (!k) {
      gchar *names = key_names (keys);

      BAD (error, "%s:%" G_GSIZE_FORMAT ": %s: unknown key \"%s\"; valid: "
          "%s", r->path, line_of (key), section, name, names);
      g_free (names);
      ok = FALSE;
    } else if (!k->take) {
      BAD (error, "%s:%" G_GSIZE_FORMAT ": %s: \"%s\" is not supported by "
          "clhistogram-probe: %s", r->path, line_of (key), section, name,
          k->unsupported);
      ok = FALSE;
    } else {
      g_hash_table_add (seen, (gpointer) name);
      ok = k->take (r, key, value, error);
    }
  }
  g_hash_table_unref (seen);
  return ok;
}

static gboolean
take_setting (Reader *r, yaml_node_t *key, yaml_node_t *value,
    Setting *setting, GError **error)
{
  gchar *what = g_strdup_printf ("tls_server_config.%s",
      key->data.scalar.value);

  setting->value = is_null (value) ? NULL : text_of (r, value, what, error);
  setting->line = line_of (key);
  g_free (what);
  return is_null (value) || setting->value != NULL;
}

#define TAKE_TLS(field) \
static gboolean \
take_##field (Reader *r, yaml_node_t *key, yaml_node_t *value, \
    GError **error) \
{ \
  return take_setting (r, key, value, &r->field, error); \
}

TAKE_TLS (cert_file);
TAKE_TLS (key_file);
TAKE_TLS (client_auth_type);
TAKE_TLS (client_ca_file);
TAKE_TLS (min_version);

static const Key tls_keys[] = {
  {"cert_file", take_cert_file},
  {"key_file", take_key_file},
  {"client_auth_type", take_client_auth_type},
  {"client_ca_file", take_client_ca_file},
  {"min_version", take_min_version},
  {"cert", NULL, "give the certificate in a file, as cert_file"},
  {"key", NULL, "give the key in a file, as key_file"},
  {"client_ca", NULL, "give the CA certificates in a file, as "
        "client_ca_file"},
  {"max_version", NULL, "GIO's TLS cannot cap the version; leave it out "
        "(the newest both sides speak is used)"},
  {"cipher_suites", NULL, "GIO's TLS (glib-networking) leaves the cipher "
        "suites to its library's system policy; leave it out"},
  {"curve_preferences", NULL, "GIO's TLS (glib-networking) leaves the "
        "curves to its library's system policy; leave it out"},
  {"prefer_server_cipher_suites", NULL, "GIO's TLS (glib-networking) "
        "leaves the cipher suites to its library's system policy; leave it "
        "out"},
  {"client_allowed_sans", NULL, "client certificates are checked against "
        "client_ca_file alone; give the clients a CA of their own"},
  {NULL}
};

static gboolean
take_tls (Reader *r, yaml_node_t *key, yaml_node_t *value, GError **error)
{
  r->tls_line = line_of (key);
  return walk_mapping (r, value, "tls_server_config", tls_keys, error);
}

static gboolean
take_http2 (Reader *r, yaml_node_t *key, yaml_node_t *value,
    GError **error)
{
  const gchar *v = text_of (r, value, "http_server_config.http2", error);

  if (!v)
    return FALSE;
  if (g_ascii_strcasecmp (v, "false") == 0)
    return TRUE;
  if (g_ascii_strcasecmp (v, "true") == 0)
    BAD (error, "%s:%" G_GSIZE_FORMAT ": http_server_config.http2: the "
        "metrics server speaks HTTP/1.1 only (as Prometheus scrapes "
        "exporters); write false or leave it out", r->path, line_of (value));
  else
    BAD (error, "%s:%" G_GSIZE_FORMAT ": http_server_config.http2: \"%s\" "
        "is not true or false", r->path, line_of (value), v);
  return FALSE;
}

/* The toolkit's headers, and the values it takes of those it checks
 * (NULL: any). */
static const struct
{
  const gchar *name;
  const gchar *values[3];
} header_names[] = {
  {"Content-Security-Policy"},
  {"X-Frame-Options", {"deny", "sameorigin"}},
  {"X-Content-Type-Options", {"nosniff"}},
  {"X-XSS-Protection"},
  {"Strict-Transport-Security"},
};

/* A header's value goes out as is: printable ASCII, no line break that
 * would start another header. */
static gboolean
is_header_value (const gchar *v)
{
  if (strlen (v) > MAX_HEADER_VALUE_BYTES)
    return FALSE;
  for (; *v; v++)
    if (*v < 0x20 || *v > 0x7e)
      return FALSE;
  return TRUE;
}

static gboolean
take_header (Reader *r, yaml_node_t *key, yaml_node_t *value,
    GError **error)
{
  const gchar *name = (const gchar *) key->data.scalar.value;
  const gchar *v = is_null (value) ? "" : text_of (r, value,
      "http_server_config.headers", error);
  guint i, j;

  if (!v)
    return FALSE;
  for (i = 0; !g_str_equal (header_names[i].name, name); i++);
  for (j = 0; *v && header_names[i].values[j]; j++)
    if (g_str_equal (v, header_names[i].values[j]))
      break;
  if (*v && header_names[i].values[0] && !header_names[i].values[j]) {
    BAD (error, "%s:%" G_GSIZE_FORMAT ": http_server_config.headers.%s: "
        "\"%s\" is not %s%s%s", r->path, line_of (value), name, v,
        header_names[i].values[0], header_names[i].values[1] ? " or " : "",
        header_names[i].values[1] ? header_names[i].values[1] : "");
    return FALSE;
  }
  if (!is_header_value (v)) {
    BAD (error, "%s:%" G_GSIZE_FORMAT ": http_server_config.headers.%s: "
        "give at most %d printable ASCII characters, on one line", r->path,
        line_of (value), name, MAX_HEADER_VALUE_BYTES);
    return FALSE;
  }
  /* Blank: the header is left out, as the toolkit does. */
  if (*v)
    g_string_append_printf (r->headers, "%s: %s\r\n", name, v);
  return TRUE;
}

static const Key header_keys[] = {
  {"Content-Security-Policy", take_header},
  {"X-Frame-Options", take_header},
  {"X-Content-Type-Options", take_header},
  {"X-XSS-Protection", take_header},
  {"Strict-Transport-Security", take_header},
  {NULL}
};

static gboolean
take_headers (Reader *r, yaml_node_t *key, yaml_node_t *value,
    GError **error)
{
  return walk_mapping (r, value, "http_server_config.headers", header_keys,
      error);
}

static const Key http_keys[] = {
  {"http2", take_http2},
  {"headers", take_headers},
  {NULL}
};

static gboolean
take_http (Reader *r, yaml_node_t *key, yaml_node_t *value, GError **error)
{
  return walk_mapping (r, value, "http_server_config", http_keys, error);
}

/* NULL where @hash is a bcrypt hash this server checks, as `htpasswd -B`
 * and python3-bcrypt make them; else why not. */
static gchar *
hash_problem (const gchar *hash)
{
  static const gchar alphabet[] = "./ABCDEFGHIJKLMNOPQRSTUVWXYZ"
      "abcdefghijklmnopqrstuvwxyz0123456789";
  guint cost, i;

  if (strlen (hash) != BCRYPT_HASH_LENGTH || hash[0] != '$'
      || hash[1] != '2' || !strchr ("aby", hash[2]) || hash[3] != '$'
      || !g_ascii_isdigit (hash[4]) || !g_ascii_isdigit (hash[5])
      || hash[6] != '$')
    return g_strdup ("not a bcrypt hash ($2y$, $2b$ or $2a$, the cost, '$' "
        "and 53 characters: 60 in all, as htpasswd -nBC 10 USER makes)");
  for (i = 7; i < BCRYPT_HASH_LENGTH; i++)
    if (!strchr (alphabet, hash[i]))
      return g_strdup_printf ("'%c' is not a character of a bcrypt hash "
          "(./A-Za-z0-9)", hash[i]);
  cost = (hash[4] - '0') * 10 + (hash[5] - '0');
  if (cost < 4)
    return g_strdup_printf ("cost %02u is below bcrypt's least, 04", cost);
  /* A hostile client could make the server run a check of each wrong
   * password: at cost 31, days each. */
  if (cost > PROBE_WEB_CONFIG_MAX_BCRYPT_COST)
    return g_strdup_printf ("cost %02u makes each check of a password "
        "take %u times as long as cost 10 (tens of ms): make the hash with "
        "a cost of %d at most (htpasswd -nBC 10 USER)", cost,
        1u << (cost - 10), PROBE_WEB_CONFIG_MAX_BCRYPT_COST);
  return NULL;
}

static gboolean
is_user_name (const gchar *user)
{
  gsize n = strlen (user);
  gsize i;

  if (n == 0 || n > MAX_USER_BYTES || !g_utf8_validate (user, -1, NULL))
    return FALSE;
  for (i = 0; i < n; i++)
    if (user[i] == ':' || (guchar) user[i] < 0x20 || user[i] == 0x7f)
      return FALSE;
  return TRUE;
}

static gboolean
take_user (Reader *r, yaml_node_t *key, yaml_node_t *value, GError **error)
{
  const gchar *user = (const gchar *) key->data.scalar.value;
  const gchar *hash;
  gchar *why;

  if (!is_user_name (user)) {
    BAD (error, "%s:%" G_GSIZE_FORMAT ": basic_auth_users: \"%s\" is not a "
        "user name: give 1 to %d characters of UTF-8, no ':' (which ends "
        "the user in a Basic credential) nor control character", r->path,
        line_of (key), user, MAX_USER_BYTES);
    return FALSE;
  }
  hash = text_of (r, value, "basic_auth_users", error);
  if (!hash)
    return FALSE;
  why = hash_problem (hash);
  if (why) {
    BAD (error, "%s:%" G_GSIZE_FORMAT ": basic_auth_users: %s: %s",
        r->path, line_of (value), user, why);
    g_free (why);
    return FALSE;
  }
  g_hash_table_insert (r->config->users, g_strdup (user), g_strdup (hash));
  return TRUE;
}

/* Every user is a key of its own: walk_mapping() with keys made of the
 * mapping's own, so that a user given twice is refused like any key. */
static gboolean
take_users (Reader *r, yaml_node_t *key, yaml_node_t *value,
    GError **error)
{
  Key *keys;
  yaml_node_pair_t *pair;
  gboolean ok;
  guint n = 0;

  if (is_null (value))
    return TRUE;
  if (value->type != YAML_MAPPING_NODE) {
    BAD (error, "%s:%" G_GSIZE_FORMAT ": basic_auth_users: not a mapping "
        "of USER: BCRYPT-HASH", r->path, line_of (value));
    return FALSE;
  }
  keys = g_new0 (Key, value->data.mapping.pairs.top -
      value->data.mapping.pairs.start + 1);
  for (pair = value->data.mapping.pairs.start;
      pair < value->data.mapping.pairs.top; pair++) {
    yaml_node_t *user = node_at (r, pair->key);

    if (user->type == YAML_SCALAR_NODE && !find_key (keys, (const gchar *)
            user->data.scalar.value)) {
      keys[n].name = (const gchar *) user->data.scalar.value;
      keys[n++].take = take_user;
    }
  }
  ok = walk_mapping (r, value, "basic_auth_users", keys, error);
  g_free (keys);
  return ok;
}

static const Key top_keys[] = {
  {"tls_server_config", take_tls},
  {"http_server_config", take_http},
  {"basic_auth_users", take_users},
  {"rate_limit", NULL, "the server caps its connections and the password "
        "checks under way instead (docs/probe.md); leave it out"},
  {NULL}
};

/* @path's contents, at most @max bytes: a file growing as it is read is
 * cut off at @max + 1 and refused. */
static gchar *
read_bounded (const gchar *path, gsize max, gsize *length, GError **error)
{
  gint fd = g_open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK, 0);
  GByteArray *bytes;
  gssize n = 1;
  gint saved;

  if (fd < 0) {
    saved = errno;
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
        "cannot open it: %s", g_strerror (saved));
    return NULL;
  }
  bytes = g_byte_array_new ();
  while (n > 0 && bytes->len <= max) {
    guint8 chunk[8192];

    n = read (fd, chunk, MIN (sizeof chunk, max + 1 - bytes->len));
    if (n < 0 && errno == EINTR)
      n = 1;
    else if (n > 0)
      g_byte_array_append (bytes, chunk, n);
  }
  saved = errno;
  close (fd);
  if (n < 0 || bytes->len > max) {
    if (n < 0)
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
          "cannot read it: %s", g_strerror (saved));
    else
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "larger than "
          "%" G_GSIZE_FORMAT " bytes, the most taken", max);
    g_byte_array_free (bytes, TRUE);
    return NULL;
  }
  *length = bytes->len;
  g_byte_array_append (bytes, (const guint8 *) "", 1);
  return (gchar *) g_byte_array_free (bytes, FALSE);
}

/* A file the configuration names, relative to its folder, made absolute
 * (GTlsFileDatabase takes no other). */
static gchar *
resolve (Reader *r, const gchar *name)
{
  return g_canonicalize_filename (name, r->dir);
}

/* @setting's file, read whole (bounded). */
static gchar *
read_named (Reader *r, const Setting *setting, const gchar *key,
    GError **error)
{
  gchar *file = resolve (r, setting->value);
  GError *err = NULL;
  gsize length;
  gchar *text = read_bounded (file, MAX_PEM_BYTES, &length, &err);

  if (!text) {
    BAD (error, "%s:%" G_GSIZE_FORMAT ": tls_server_config.%s \"%s\": %s",
        r->path, setting->line, key, file, err->message);
    g_error_free (err);
  }
  g_free (file);
  return text;
}

/* The loopback check: its two ends, the handshakes still running, and
 * the error of the first to fail. */
typedef struct
{
  GIOStream *ends[2];
  guint running;
  GError *error;
} Loopback;

static void
side_done (GObject *source, GAsyncResult *result, gpointer data)
{
  Loopback *loop = data;
  GError *err = NULL;
  guint i;

  loop->running--;
  if (g_tls_connection_handshake_finish (G_TLS_CONNECTION (source), result,
          &err))
    return;
  /* The other side would wait for this one until its timeout. */
  if (!loop->error)
    for (i = 0; i < 2; i++)
      g_socket_shutdown (g_socket_connection_get_socket
          (G_SOCKET_CONNECTION (loop->ends[i])), TRUE, TRUE, NULL);
  if (!loop->error)
    loop->error = err;
  else
    g_error_free (err);
}

static gboolean
accept_any (GTlsConnection *tls, GTlsCertificate *peer,
    GTlsCertificateFlags errors, gpointer data)
{
  return TRUE;
}

/* One end of a socket pair as a GIO connection, its waits bounded. */
static GIOStream *
pair_end (gint fd)
{
  GSocket *socket = g_socket_new_from_fd (fd, NULL);
  GIOStream *stream;

  if (!socket) {
    close (fd);
    return NULL;
  }
  g_socket_set_timeout (socket, LOOPBACK_TIMEOUT_S);
  stream = G_IO_STREAM (g_socket_connection_factory_create_connection
      (socket));
  g_object_unref (socket);
  return stream;
}

/* Both handshakes of @loop, run to their end on a context of their own. */
static void
shake_hands (Loopback *loop, GTlsCertificate *certificate)
{
  GIOStream *tls[2];
  guint i;

  tls[0] = g_tls_server_connection_new (loop->ends[0], certificate,
      &loop->error);
  tls[1] = tls[0] ? g_tls_client_connection_new (loop->ends[1], NULL,
      &loop->error) : NULL;
  if (tls[1]) {
    g_signal_connect (tls[1], "accept-certificate", G_CALLBACK (accept_any),
        NULL);
    loop->running = 2;
    for (i = 0; i < 2; i++)
      g_tls_connection_handshake_async (G_TLS_CONNECTION (tls[i]),
          G_PRIORITY_DEFAULT, NULL, side_done, loop);
    while (loop->running > 0)
      g_main_context_iteration (g_main_context_get_thread_default (), TRUE);
  }
  for (i = 0; i < 2; i++)
    g_clear_object (&tls[i]);
}

/* Whether @certificate serves TLS: a handshake with itself over a socket
 * pair, as a client that takes any certificate. GIO loads a key that is
 * not the certificate's, or no key at all, without a word; every
 * client's handshake would then fail, so it is said at start instead
 * (Go's tls.X509KeyPair, behind the toolkit, checks the pair too). */
static gboolean
serves_tls (GTlsCertificate *certificate, GError **error)
{
  GMainContext *context = g_main_context_new ();
  Loopback loop = { {NULL, NULL} };
  gint fds[2];
  guint i;

  g_main_context_push_thread_default (context);
  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    g_set_error_literal (&loop.error, G_IO_ERROR,
        g_io_error_from_errno (errno), g_strerror (errno));
  else if ((loop.ends[0] = pair_end (fds[0]))
      && (loop.ends[1] = pair_end (fds[1])))
    shake_hands (&loop, certificate);
  else
    g_set_error_literal (&loop.error, G_IO_ERROR, G_IO_ERROR_FAILED,
        "cannot make a socket pair");
  for (i = 0; i < 2; i++)
    g_clear_object (&loop.ends[i]);
  g_main_context_pop_thread_default (context);
  g_main_context_unref (context);
  if (loop.error)
    g_propagate_error (error, loop.error);
  return !loop.error;
}

/* The certificate and its key, each file's errors its own. */
static gboolean
load_certificate (Reader *r, GError **error)
{
  gchar *cert = read_named (r, &r->cert_file, "cert_file", error);
  gchar *key = cert ? read_named (r, &r->key_file, "key_file", error) : NULL;
  GTlsCertificate *alone = NULL;
  GError *err = NULL;

  if (key && !(alone = g_tls_certificate_new_from_pem (cert, -1, &err))) {
    BAD (error, "%s:%" G_GSIZE_FORMAT ": tls_server_config.cert_file "
        "\"%s\": %s (give the server's certificate, PEM-encoded)", r->path,
        r->cert_file.line, r->cert_file.value, err->message);
    g_clear_error (&err);
  } else if (key) {
    gchar *both = g_strconcat (cert, "\n", key, NULL);

    r->config->certificate = g_tls_certificate_new_from_pem (both, -1, &err);
    if (!r->config->certificate) {
      BAD (error, "%s:%" G_GSIZE_FORMAT ": tls_server_config.key_file "
          "\"%s\": %s (give the certificate's private key, PEM-encoded, not "
          "encrypted)", r->path, r->key_file.line, r->key_file.value,
          err->message);
      g_clear_error (&err);
    } else if (!serves_tls (r->config->certificate, &err)) {
      BAD (error, "%s:%" G_GSIZE_FORMAT ": tls_server_config.key_file "
          "\"%s\": a TLS handshake with this certificate and key fails (%s): "
          "give the private key of cert_file \"%s\"", r->path,
          r->key_file.line, r->key_file.value, err->message,
          r->cert_file.value);
      g_clear_error (&err);
      g_clear_object (&r->config->certificate);
    }
    memset (both, 0, strlen (both));
    g_free (both);
  }
  g_clear_object (&alone);
  g_free (cert);
  if (key)
    memset (key, 0, strlen (key));
  g_free (key);
  return r->config->certificate != NULL;
}

static gboolean
take_min_version_value (Reader *r, GError **error)
{
  static const struct
  {
    const gchar *name;
    GTlsProtocolVersion version;
  } versions[] = {
    {"TLS10", G_TLS_PROTOCOL_VERSION_TLS_1_0},
    {"TLS11", G_TLS_PROTOCOL_VERSION_TLS_1_1},
    {"TLS12", G_TLS_PROTOCOL_VERSION_TLS_1_2},
    {"TLS13", G_TLS_PROTOCOL_VERSION_TLS_1_3},
  };
  guint i;

  /* The toolkit's default. */
  r->config->min_version = G_TLS_PROTOCOL_VERSION_TLS_1_2;
  if (!r->min_version.value)
    return TRUE;
  for (i = 0; i < G_N_ELEMENTS (versions); i++)
    if (g_str_equal (r->min_version.value, versions[i].name)) {
      r->config->min_version = versions[i].version;
      return TRUE;
    }
  BAD (error, "%s:%" G_GSIZE_FORMAT ": tls_server_config.min_version: "
      "\"%s\" is not TLS10, TLS11, TLS12 or TLS13", r->path,
      r->min_version.line, r->min_version.value);
  return FALSE;
}

/* client_auth_type, as Go's crypto/tls names its policies: those that
 * take a certificate without checking it authenticate no one, and are
 * refused. */
static gboolean
take_client_auth (Reader *r, GError **error)
{
  const gchar *type = r->client_auth_type.value;
  gboolean verify = type && (g_str_equal (type, "VerifyClientCertIfGiven")
      || g_str_equal (type, "RequireAndVerifyClientCert"));
  GError *err = NULL;
  gchar *file, *text;

  if (type && !verify && !g_str_equal (type, "NoClientCert")) {
    if (g_str_equal (type, "RequestClientCert")
        || g_str_equal (type, "RequireAnyClientCert")
        || g_str_equal (type, "RequireClientCert"))
      BAD (error, "%s:%" G_GSIZE_FORMAT ": tls_server_config."
          "client_auth_type: %s takes a certificate without checking it, "
          "which authenticates no one: give RequireAndVerifyClientCert and "
          "client_ca_file", r->path, r->client_auth_type.line, type);
    else
      BAD (error, "%s:%" G_GSIZE_FORMAT ": tls_server_config."
          "client_auth_type: \"%s\" is not NoClientCert, "
          "VerifyClientCertIfGiven or RequireAndVerifyClientCert", r->path,
          r->client_auth_type.line, type);
    return FALSE;
  }
  if (verify != (r->client_ca_file.value != NULL)) {
    BAD (error, "%s:%" G_GSIZE_FORMAT ": tls_server_config: %s", r->path,
        verify ? r->client_auth_type.line : r->client_ca_file.line, verify ?
        "client_auth_type checks client certificates against client_ca_file,"
        " which is missing" : "client_ca_file without a client_auth_type "
        "that checks certificates (RequireAndVerifyClientCert)");
    return FALSE;
  }
  if (!verify)
    return TRUE;
  r->config->client_auth = g_str_equal (type, "VerifyClientCertIfGiven") ?
      G_TLS_AUTHENTICATION_REQUESTED : G_TLS_AUTHENTICATION_REQUIRED;
  /* Read first for its bound and its errors, which name the file. */
  text = read_named (r, &r->client_ca_file, "client_ca_file", error);
  if (!text)
    return FALSE;
  g_free (text);
  file = resolve (r, r->client_ca_file.value);
  r->config->client_ca = g_tls_file_database_new (file, &err);
  if (!r->config->client_ca) {
    BAD (error, "%s:%" G_GSIZE_FORMAT ": tls_server_config.client_ca_file "
        "\"%s\": %s (give the clients' CA certificates, PEM-encoded)",
        r->path, r->client_ca_file.line, file, err->message);
    g_error_free (err);
  }
  g_free (file);
  return r->config->client_ca != NULL;
}

/* tls_server_config, once read: nothing in it, plain HTTP (as the
 * toolkit); else the certificate and key, at least. */
static gboolean
set_up_tls (Reader *r, GError **error)
{
  if (!r->cert_file.value && !r->key_file.value
      && !r->client_auth_type.value && !r->client_ca_file.value
      && !r->min_version.value)
    return TRUE;
  if (!r->cert_file.value || !r->key_file.value) {
    BAD (error, "%s:%" G_GSIZE_FORMAT ": tls_server_config: %s is missing: "
        "TLS needs both cert_file and key_file", r->path, r->tls_line,
        r->cert_file.value ? "key_file" : "cert_file");
    return FALSE;
  }
  if (!g_tls_backend_supports_tls (g_tls_backend_get_default ())) {
    BAD (error, "%s:%" G_GSIZE_FORMAT ": tls_server_config: GIO has no TLS "
        "here: install its TLS module (Debian: glib-networking)", r->path,
        r->tls_line);
    return FALSE;
  }
  return take_min_version_value (r, error) && take_client_auth (r, error)
      && load_certificate (r, error);
}

/* Whether @text nests no deeper than MAX_DEPTH, read as events: libyaml
 * 0.2.5 builds a document recursively, a level a call, and a file of
 * "[[[[..." or "- - - ..." as deep as its size would exhaust the stack. */
static gboolean
check_depth (Reader *r, const gchar *text, gsize length, GError **error)
{
  yaml_parser_t parser;
  yaml_event_t event;
  gint depth = 0;
  gboolean ok = TRUE, done = FALSE;

  yaml_parser_initialize (&parser);
  yaml_parser_set_input_string (&parser, (const guchar *) text, length);
  while (ok && !done && yaml_parser_parse (&parser, &event)) {
    if (event.type == YAML_SEQUENCE_START_EVENT
        || event.type == YAML_MAPPING_START_EVENT)
      depth++;
    else if (event.type == YAML_SEQUENCE_END_EVENT
        || event.type == YAML_MAPPING_END_EVENT)
      depth--;
    done = event.type == YAML_STREAM_END_EVENT;
    if (depth > MAX_DEPTH) {
      BAD (error, "%s:%" G_GSIZE_FORMAT ": nested deeper than %d levels, "
          "more than a web configuration has", r->path,
          event.start_mark.line + 1, MAX_DEPTH);
      ok = FALSE;
    }
    yaml_event_delete (&event);
  }
  /* A parse error is said by the load that follows. */
  yaml_parser_delete (&parser);
  return ok;
}

/* The one YAML document of @text into @r->doc. */
static gboolean
parse (Reader *r, const gchar *text, gsize length, GError **error)
{
  yaml_parser_t parser;
  yaml_document_t extra;
  gboolean ok;

  if (!check_depth (r, text, length, error))
    return FALSE;
  yaml_parser_initialize (&parser);
  yaml_parser_set_input_string (&parser, (const guchar *) text, length);
  ok = yaml_parser_load (&parser, &r->doc);
  if (ok && yaml_document_get_root_node (&r->doc)) {
    /* A second document would be silently ignored. */
    if (!yaml_parser_load (&parser, &extra)) {
      ok = FALSE;
    } else if (yaml_document_get_root_node (&extra)) {
      BAD (error, "%s:%" G_GSIZE_FORMAT ": a second YAML document: give "
          "one", r->path, line_of (yaml_document_get_root_node (&extra)));
      yaml_document_delete (&extra);
      yaml_document_delete (&r->doc);
      yaml_parser_delete (&parser);
      return FALSE;
    } else {
      yaml_document_delete (&extra);
    }
  }
  if (!ok) {
    BAD (error, "%s:%" G_GSIZE_FORMAT ": not YAML: %s%s%s", r->path,
        parser.problem_mark.line + 1, parser.problem ? parser.problem :
        "cannot be parsed", parser.context ? " " : "", parser.context ?
        parser.context : "");
    if (r->doc.nodes.start)
      yaml_document_delete (&r->doc);
  }
  yaml_parser_delete (&parser);
  return ok;
}

static gboolean
read_config (Reader *r, GError **error)
{
  GError *err = NULL;
  gsize length;
  gchar *text = read_bounded (r->path, PROBE_WEB_CONFIG_MAX_BYTES, &length,
      &err);
  yaml_node_t *root;
  gboolean ok;

  if (!text) {
    BAD (error, "%s: %s", r->path, err->message);
    g_error_free (err);
    return FALSE;
  }
  ok = parse (r, text, length, error);
  g_free (text);
  if (!ok)
    return FALSE;
  root = yaml_document_get_root_node (&r->doc);
  /* An empty file: the toolkit's defaults, plain HTTP for all. */
  ok = !root || walk_mapping (r, root, "the top level", top_keys, error);
  ok = ok && set_up_tls (r, error);
  yaml_document_delete (&r->doc);
  return ok;
}

/**
 * probe_web_config_load:
 * @path: a file in the format of Prometheus' exporter-toolkit
 *   (web-configuration.md), at most PROBE_WEB_CONFIG_MAX_BYTES
 * @error: a G_OPTION_ERROR_BAD_VALUE whose text begins with @path and the
 *   line, and names the key: a file that cannot be read or is not YAML,
 *   an unknown key or one the server cannot honour, a bad value, a
 *   certificate, key or CA file that cannot be read or parsed, a
 *   password hash that is not bcrypt's or costs more than
 *   PROBE_WEB_CONFIG_MAX_BCRYPT_COST, no TLS in GIO
 *
 * Reads the server's TLS (tls_server_config: cert_file and key_file,
 * client_auth_type VerifyClientCertIfGiven or RequireAndVerifyClientCert
 * with client_ca_file, min_version, TLS12 unless given), its response
 * headers (http_server_config.headers; http2 only false) and the users
 * of basic authentication (basic_auth_users). Files are relative to
 * @path's folder.
 *
 * Returns: (transfer full) (nullable): the settings, to free with
 *   probe_web_config_free().
 */
ProbeWebConfig *
probe_web_config_load (const gchar *path, GError **error)
{
  Reader r = { path };
  gchar *dir;
  gboolean ok;

  g_return_val_if_fail (path != NULL, NULL);
  r.config = g_new0 (ProbeWebConfig, 1);
  r.config->path = g_strdup (path);
  r.config->users = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      g_free);
  r.config->min_version = G_TLS_PROTOCOL_VERSION_TLS_1_2;
  r.headers = g_string_new (NULL);
  dir = g_path_get_dirname (path);
  r.dir = g_canonicalize_filename (dir, NULL);
  g_free (dir);
  ok = read_config (&r, error);
  r.config->headers = g_string_free (r.headers, FALSE);
  g_free (r.dir);
  if (!ok)
    g_clear_pointer (&r.config, probe_web_config_free);
  return r.config;
}

/**
 * probe_web_config_free:
 * @config: (nullable) (transfer full):
 */
void
probe_web_config_free (ProbeWebConfig *config)
{
  if (!config)
    return;
  g_free (config->path);
  g_clear_object (&config->certificate);
  g_clear_object (&config->client_ca);
  g_hash_table_unref (config->users);
  g_free (config->headers);
  g_free (config);
}
