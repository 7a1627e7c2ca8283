/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The user information of a URI's authority (RFC 3986, section 3.2.1:
 * "user:password@", the password deprecated there and still what cameras
 * take) is a secret: the probe's output names an input by its argument,
 * and GStreamer's sources put the URI they were given in their errors and
 * debug logs. So what is printed has it replaced by "***", and GStreamer
 * gets the URI without it and the user and password as its source's
 * user-id and user-pw properties (rtspsrc, souphttpsrc). */
#include "probe-uri.h"

#include <string.h>

#define REDACTED "***"

/* The authority after "://" at @start ends at the path, query or
 * fragment (RFC 3986, section 3.2), or at a space in running text. */
static const gchar *
authority_end (const gchar *start)
{
  return start + strcspn (start, "/?# \t\r\n");
}

/* The '@' ending the user information of the authority [@start, @end),
 * or NULL: the last one, since a password may hold an '@' its writer
 * did not percent-encode. */
static const gchar *
userinfo_end (const gchar *start, const gchar *end)
{
  const gchar *at = NULL, *p;

  for (p = start; p < end; p++)
    if (*p == '@')
      at = p;
  return at;
}

/**
 * probe_uri_redact:
 * @text: a URI, or text that may hold URIs (an error message)
 *
 * Returns: (transfer full): @text with the user information of each
 *   URI in it replaced by three asterisks (`user:password@` becomes `***@`).
 */
gchar *
probe_uri_redact (const gchar *text)
{
  GString *out = g_string_new (NULL);
  const gchar *p = text, *scheme;

  while ((scheme = strstr (p, "://"))) {
    const gchar *start = scheme + 3, *end = authority_end (start);
    const gchar *at = userinfo_end (start, end);

    if (at) {
      g_string_append_len (out, p, start - p);
      g_string_append (out, REDACTED);
      p = at;
    } else {
      g_string_append_len (out, p, end - p);
      p = end;
    }
  }
  g_string_append (out, p);
  return g_string_free (out, FALSE);
}

/**
 * probe_uri_take_credentials:
 * @uri: a URI
 * @bare: (out) (transfer full): @uri without its user information
 * @user: (out) (transfer full): the user, percent-decoded
 * @password: (out) (transfer full): the password, percent-decoded (""
 *   where @uri gives none)
 *
 * Returns: whether @uri has user information; %FALSE leaves the outputs
 *   untouched. A user or password that does not decode (an encoded NUL)
 *   is taken as written.
 */
gboolean
probe_uri_take_credentials (const gchar *uri, gchar **bare, gchar **user,
    gchar **password)
{
  const gchar *scheme = strstr (uri, "://"), *start, *at, *colon;
  gchar *raw_user, *raw_password, *decoded;

  if (!scheme)
    return FALSE;
  start = scheme + 3;
  at = userinfo_end (start, authority_end (start));
  if (!at)
    return FALSE;
  colon = memchr (start, ':', at - start);
  raw_user = g_strndup (start, (colon ? colon : at) - start);
  raw_password = colon ? g_strndup (colon + 1, at - colon - 1) : g_strdup ("");
  *bare = g_strdup_printf ("%.*s%s", (gint) (start - uri), uri, at + 1);
  decoded = g_uri_unescape_string (raw_user, NULL);
  *user = decoded ? decoded : g_strdup (raw_user);
  decoded = g_uri_unescape_string (raw_password, NULL);
  *password = decoded ? decoded : g_strdup (raw_password);
  g_free (raw_user);
  g_free (raw_password);
  return TRUE;
}

/**
 * probe_uri_has_password:
 * @uri: a URI, or a file name or device (no scheme: no password)
 *
 * Returns: whether @uri's user information holds a password
 *   (`user:password@`), which must then stay out of other users' reach.
 */
gboolean
probe_uri_has_password (const gchar *uri)
{
  gchar *bare, *user, *password;
  gboolean has;

  if (!probe_uri_take_credentials (uri, &bare, &user, &password))
    return FALSE;
  has = password[0] != '\0';
  g_free (bare);
  g_free (user);
  g_free (password);
  return has;
}
