/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Basic authentication (RFC 7617) against bcrypt hashes, checked with
 * libxcrypt's crypt_rn(). bcrypt is slow on purpose (cost 10: tens of ms
 * a check), so that a hostile client could otherwise starve the server's
 * thread with wrong passwords; hence:
 *
 * - the checks run on a thread of their own, one at a time (as
 *   exporter-toolkit runs one bcrypt at a time), at a lower priority than
 *   the rest of the probe, their verdicts brought back to the server's
 *   context: a flood keeps at most that thread busy;
 * - a password once checked is remembered for its user, as an HMAC of
 *   the two under a key drawn at start (not the password itself), and the
 *   next request with it is let through at once, the HMACs compared in
 *   constant time (exporter-toolkit caches its checks too): a scraper
 *   pays for one check, not one a scrape; the last wrong ones are
 *   remembered the same way and refused at once, so that a scraper left
 *   with an old password does not keep the checks of its host busy;
 * - at most PROBE_WEB_AUTH_MAX_CHECKS checks are queued or running, and
 *   at most PROBE_WEB_AUTH_MAX_CHECKS_PER_HOST from one client host;
 *   beyond, a request is answered at once (429) rather than queued, so a
 *   flood of wrong passwords holds a few connections, not all of them;
 * - an unknown user's password is checked all the same, against another
 *   user's hash, so that how long the answer takes does not tell which
 *   users exist. */
#include "probe-web-auth.h"

#include <string.h>
#include <sys/random.h>
#include <crypt.h>
#ifdef __linux__
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#endif

/* The longest credentials read, base64: a user and a password of about
 * 3 kB, far beyond any a scraper sends. */
#define MAX_CREDENTIALS_BASE64 4096
#define DIGEST_BYTES 32
/* The wrong user and password pairs remembered, the oldest forgotten
 * first. */
#define REFUSED_KEPT 64
/* The checking thread's nice value, from the process's 0. */
#define CHECKING_NICE 10

struct _ProbeWebAuth
{
  /* User -> bcrypt hash, the configuration's; and user -> the HMAC of
   * it and the password last checked good for it. */
  GHashTable *users;
  GHashTable *verified;
  /* The HMACs of the last user and password pairs checked wrong, a ring;
   * @n_refused of them kept. */
  guint8 refused[REFUSED_KEPT][DIGEST_BYTES];
  guint n_refused;
  guint next_refused;
  /* The hash an unknown user's password is checked against. */
  gchar *decoy;
  guint8 key[DIGEST_BYTES];
  GMainContext *context;

  /* The checks queued for the checking thread, which ends when it pops
   * the ProbeWebAuth itself. */
  GAsyncQueue *queue;
  GThread *thread;
  /* The context's own. */
  guint pending;
  /* Host -> its checks pending (GUINT_TO_POINTER). */
  GHashTable *pending_by_host;

  /* Checks done on the checking thread whose verdict waits on
   * @context. */
  GMutex lock;
  GList *completed;
};

typedef struct
{
  ProbeWebAuth *auth;
  gchar *user;
  gchar *password;
  /* The user's hash, or the decoy for an unknown user. */
  const gchar *hash;
  gboolean known;
  gchar *host;
  ProbeWebAuthDone done;
  gpointer data;
  GDestroyNotify destroy;
  /* The user and password's HMAC, and the verdict. */
  guint8 digest[DIGEST_BYTES];
  gboolean granted;
  /* Attached to the context while the verdict waits there. */
  GSource *source;
} Check;

static void
wipe (gchar *text)
{
  if (text)
    explicit_bzero (text, strlen (text));
  g_free (text);
}

static gboolean
same_bytes (const guint8 *a, const guint8 *b, gsize n)
{
  guint8 diff = 0;
  gsize i;

  for (i = 0; i < n; i++)
    diff |= a[i] ^ b[i];
  return diff == 0;
}

/* The HMAC of @user, a NUL (which neither holds) and @password. */
static void
hmac_of (const ProbeWebAuth *auth, const gchar *user, const gchar *password,
    guint8 digest[DIGEST_BYTES])
{
  GHmac *hmac = g_hmac_new (G_CHECKSUM_SHA256, auth->key, DIGEST_BYTES);
  gsize length = DIGEST_BYTES;

  g_hmac_update (hmac, (const guchar *) user, strlen (user) + 1);
  g_hmac_update (hmac, (const guchar *) password, strlen (password));
  g_hmac_get_digest (hmac, digest, &length);
  g_hmac_unref (hmac);
}

/* Whether @digest is of a pair checked wrong before: each kept one
 * compared whole, whatever matched. */
static gboolean
refused_before (const ProbeWebAuth *auth, const guint8 *digest)
{
  gboolean found = FALSE;
  guint i;

  for (i = 0; i < auth->n_refused; i++)
    found |= same_bytes (auth->refused[i], digest, DIGEST_BYTES);
  return found;
}

static void
remember_refused (ProbeWebAuth *auth, const guint8 *digest)
{
  memcpy (auth->refused[auth->next_refused], digest, DIGEST_BYTES);
  auth->next_refused = (auth->next_refused + 1) % REFUSED_KEPT;
  auth->n_refused = MIN (auth->n_refused + 1, REFUSED_KEPT);
}

static gboolean
is_base64 (const gchar *token, gsize n)
{
  gsize i, pad = 0;

  if (n == 0 || n > MAX_CREDENTIALS_BASE64 || n % 4 != 0)
    return FALSE;
  for (i = 0; i < n; i++) {
    if (token[i] == '=')
      pad++;
    else if (pad || !(g_ascii_isalnum (token[i]) || token[i] == '+'
            || token[i] == '/'))
      return FALSE;
  }
  return pad <= 2;
}

/* "Basic BASE64(user:password)" (RFC 7617, the scheme's name in any
 * case) into @user and @password; FALSE for anything else. */
static gboolean
parse_basic (const gchar *value, gchar **user, gchar **password)
{
  const gchar *token;
  gchar *copy;
  guchar *decoded;
  const guchar *colon;
  gsize n, length;

  if (!value)
    return FALSE;
  value += strspn (value, " \t");
  if (g_ascii_strncasecmp (value, "Basic", 5) != 0
      || (value[5] != ' ' && value[5] != '\t'))
    return FALSE;
  token = value + 5 + strspn (value + 5, " \t");
  n = strcspn (token, " \t");
  if (token[n + strspn (token + n, " \t")] != '\0' || !is_base64 (token, n))
    return FALSE;
  copy = g_strndup (token, n);
  decoded = g_base64_decode (copy, &length);
  g_free (copy);
  colon = memchr (decoded, ':', length);
  /* A NUL would cut the password short of what the client sent. */
  if (!colon || memchr (decoded, '\0', length)) {
    explicit_bzero (decoded, length);
    g_free (decoded);
    return FALSE;
  }
  *user = g_strndup ((const gchar *) decoded, colon - decoded);
  *password = g_strndup ((const gchar *) colon + 1,
      length - (colon + 1 - decoded));
  explicit_bzero (decoded, length);
  g_free (decoded);
  return TRUE;
}

static void
check_free (gpointer data)
{
  Check *c = data;

  if (c->destroy)
    c->destroy (c->data);
  g_free (c->user);
  wipe (c->password);
  g_free (c->host);
  g_free (c);
}

static void
release_host (ProbeWebAuth *auth, const gchar *host)
{
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (auth->pending_by_host,
          host));

  if (n > 1)
    g_hash_table_insert (auth->pending_by_host, g_strdup (host),
        GUINT_TO_POINTER (n - 1));
  else
    g_hash_table_remove (auth->pending_by_host, host);
}

/* On the context: the verdict of a check, remembered. */
static gboolean
complete_check (gpointer data)
{
  Check *c = data;
  ProbeWebAuth *auth = c->auth;

  g_mutex_lock (&auth->lock);
  auth->completed = g_list_remove (auth->completed, c);
  g_mutex_unlock (&auth->lock);
  auth->pending--;
  release_host (auth, c->host);
  if (c->granted)
    g_hash_table_insert (auth->verified, g_strdup (c->user),
        g_memdup2 (c->digest, DIGEST_BYTES));
  else
    remember_refused (auth, c->digest);
  c->done (c->granted, c->data);
  return G_SOURCE_REMOVE;
}

/* On the checking thread: bcrypt, then the verdict handed to the
 * context. The password is wiped as soon as it is checked. */
static void
run_check (Check *c)
{
  ProbeWebAuth *auth = c->auth;
  struct crypt_data *scratch = g_new0 (struct crypt_data, 1);
  const gchar *out = crypt_rn (c->password, c->hash, scratch,
      sizeof *scratch);
  gsize n = strlen (c->hash);

  c->granted = c->known && out && out[0] != '*' && strlen (out) == n
      && same_bytes ((const guint8 *) out, (const guint8 *) c->hash, n);
  explicit_bzero (scratch, sizeof *scratch);
  g_free (scratch);
  wipe (c->password);
  c->password = NULL;
  g_mutex_lock (&auth->lock);
  c->source = g_idle_source_new ();
  /* An idle source's own priority would wait for a flood of requests to
   * end. */
  g_source_set_priority (c->source, G_PRIORITY_DEFAULT);
  g_source_set_callback (c->source, complete_check, c, check_free);
  g_source_attach (c->source, auth->context);
  g_source_unref (c->source);
  auth->completed = g_list_prepend (auth->completed, c);
  g_mutex_unlock (&auth->lock);
}

/* The checking thread: one check at a time, until told to end. (Not a
 * GThreadPool: GLib 2.74's drops a task it took when freed at once,
 * without freeing it.) */
static gpointer
checking_thread (gpointer data)
{
  ProbeWebAuth *auth = data;
  gpointer item;

#ifdef __linux__
  /* Below the streams and the server: a flood of wrong passwords keeps
   * this thread busy, and Linux gives each thread a nice value of its
   * own (setpriority(2), "Bugs"). */
  setpriority (PRIO_PROCESS, syscall (SYS_gettid), CHECKING_NICE);
#endif
  while ((item = g_async_queue_pop (auth->queue)) != auth)
    run_check (item);
  return NULL;
}

/* Some user's hash, so that an unknown user's check costs what a known
 * one's does. */
static gchar *
pick_decoy (GHashTable *users)
{
  GHashTableIter iter;
  gpointer hash;

  g_hash_table_iter_init (&iter, users);
  return g_hash_table_iter_next (&iter, NULL, &hash) ? g_strdup (hash) :
      NULL;
}

/**
 * probe_web_auth_new:
 * @users: (transfer none): user -> bcrypt hash (`$2y$`, `$2b$`, `$2a$`),
 *   at least one; copied
 * @context: where the checks' verdicts are given: the server's, which
 *   calls probe_web_auth_check() and probe_web_auth_free()
 *
 * Returns: (transfer full): the checker, to free with
 *   probe_web_auth_free().
 */
ProbeWebAuth *
probe_web_auth_new (GHashTable *users, GMainContext *context)
{
  ProbeWebAuth *auth = g_new0 (ProbeWebAuth, 1);
  GHashTableIter iter;
  gpointer user, hash;
  gsize filled = 0;
  gssize n;

  g_return_val_if_fail (g_hash_table_size (users) > 0, NULL);
  auth->users = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      g_free);
  g_hash_table_iter_init (&iter, users);
  while (g_hash_table_iter_next (&iter, &user, &hash))
    g_hash_table_insert (auth->users, g_strdup (user), g_strdup (hash));
  auth->verified = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      g_free);
  auth->decoy = pick_decoy (auth->users);
  /* The HMAC's key: unpredictable, so that the digests kept say nothing
   * of the passwords to someone who reads the process's memory but not
   * the key; a failed draw leaves it weaker, never the check wrong. */
  while (filled < sizeof auth->key && (n = getrandom (auth->key + filled,
              sizeof auth->key - filled, 0)) > 0)
    filled += n;
  for (; filled < sizeof auth->key; filled++)
    auth->key[filled] = g_random_int_range (0, 256);
  auth->context = g_main_context_ref (context);
  auth->pending_by_host = g_hash_table_new_full (g_str_hash, g_str_equal,
      g_free, NULL);
  g_mutex_init (&auth->lock);
  /* One thread: bcrypt is meant to take a core's time; two checks at
   * once would take two cores from the streams. */
  auth->queue = g_async_queue_new ();
  auth->thread = g_thread_new ("probe-web-auth", checking_thread, auth);
  return auth;
}

/**
 * probe_web_auth_check:
 * @authorization: (nullable): the request's Authorization header
 * @host: the client's address, whose checks are counted
 * @done: called on the context with the verdict, for
 *   %PROBE_WEB_AUTH_CHECKING only; never once probe_web_auth_free() began
 * @data: @done's
 * @destroy: (nullable): frees @data, whatever the verdict, once @done
 *   was called or will not be
 *
 * Checks Basic credentials against the users' hashes. A password
 * checked good before for its user is granted at once, one of the last
 * 64 user and password pairs checked wrong is denied at once; another
 * goes to bcrypt on the checking thread, unless PROBE_WEB_AUTH_MAX_CHECKS
 * are under way, or PROBE_WEB_AUTH_MAX_CHECKS_PER_HOST from @host.
 *
 * Returns: the verdict, or %PROBE_WEB_AUTH_CHECKING when @done gives it.
 */
ProbeWebAuthVerdict
probe_web_auth_check (ProbeWebAuth *auth, const gchar *authorization,
    const gchar *host, ProbeWebAuthDone done, gpointer data,
    GDestroyNotify destroy)
{
  gchar *user = NULL, *password = NULL;
  guint8 digest[DIGEST_BYTES];
  const guint8 *verified;
  ProbeWebAuthVerdict verdict;
  const gchar *hash;
  guint from_host;
  Check *c;

  if (!parse_basic (authorization, &user, &password)) {
    if (destroy)
      destroy (data);
    return PROBE_WEB_AUTH_DENIED;
  }
  hmac_of (auth, user, password, digest);
  hash = g_hash_table_lookup (auth->users, user);
  verified = hash ? g_hash_table_lookup (auth->verified, user) : NULL;
  from_host = GPOINTER_TO_UINT (g_hash_table_lookup (auth->pending_by_host,
          host));
  if (verified && same_bytes (digest, verified, DIGEST_BYTES))
    verdict = PROBE_WEB_AUTH_GRANTED;
  else if (refused_before (auth, digest))
    verdict = PROBE_WEB_AUTH_DENIED;
  else if (auth->pending >= PROBE_WEB_AUTH_MAX_CHECKS
      || from_host >= PROBE_WEB_AUTH_MAX_CHECKS_PER_HOST)
    verdict = PROBE_WEB_AUTH_BUSY;
  else
    verdict = PROBE_WEB_AUTH_CHECKING;
  if (verdict != PROBE_WEB_AUTH_CHECKING) {
    g_free (user);
    wipe (password);
    if (destroy)
      destroy (data);
    return verdict;
  }
  c = g_new0 (Check, 1);
  memcpy (c->digest, digest, DIGEST_BYTES);
  c->auth = auth;
  c->user = user;
  c->password = password;
  c->known = hash != NULL;
  c->hash = hash ? hash : auth->decoy;
  c->host = g_strdup (host);
  c->done = done;
  c->data = data;
  c->destroy = destroy;
  auth->pending++;
  g_hash_table_insert (auth->pending_by_host, g_strdup (host),
      GUINT_TO_POINTER (from_host + 1));
  g_async_queue_push (auth->queue, c);
  return PROBE_WEB_AUTH_CHECKING;
}

/**
 * probe_web_auth_free:
 * @auth: (nullable) (transfer full):
 *
 * On the context: drops the checks queued, waits for the one running,
 * and drops the verdicts not given yet, each check's @destroy called.
 */
void
probe_web_auth_free (ProbeWebAuth *auth)
{
  GList *completed, *l;
  gpointer item;

  if (!auth)
    return;
  g_async_queue_lock (auth->queue);
  while ((item = g_async_queue_try_pop_unlocked (auth->queue)))
    check_free (item);
  g_async_queue_push_unlocked (auth->queue, auth);
  g_async_queue_unlock (auth->queue);
  g_thread_join (auth->thread);
  g_async_queue_unref (auth->queue);
  completed = auth->completed;
  auth->completed = NULL;
  for (l = completed; l; l = l->next)
    g_source_destroy (((Check *) l->data)->source);
  g_list_free (completed);
  g_mutex_clear (&auth->lock);
  g_hash_table_unref (auth->pending_by_host);
  g_main_context_unref (auth->context);
  explicit_bzero (auth->key, sizeof auth->key);
  explicit_bzero (auth->refused, sizeof auth->refused);
  g_hash_table_unref (auth->verified);
  g_hash_table_unref (auth->users);
  g_free (auth->decoy);
  g_free (auth);
}
