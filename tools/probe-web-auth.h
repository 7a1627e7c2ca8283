/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The metrics server's basic authentication: the Authorization header of
 * a request against the bcrypt hashes of --web-config, each bcrypt check
 * on a thread of its own, their number bounded. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _ProbeWebAuth ProbeWebAuth;

typedef enum
{
  /* The password was checked good before: let it through. */
  PROBE_WEB_AUTH_GRANTED,
  /* No credentials, or not Basic ones, or malformed, or checked wrong
   * before: answer 401. */
  PROBE_WEB_AUTH_DENIED,
  /* Too many checks under way, from this client's host or in all: answer
   * 429. */
  PROBE_WEB_AUTH_BUSY,
  /* A check runs: its verdict comes to the callback. */
  PROBE_WEB_AUTH_CHECKING,
} ProbeWebAuthVerdict;

/* At most this many bcrypt checks queued or running at once, and at most
 * this many of them for one client host. */
#define PROBE_WEB_AUTH_MAX_CHECKS 4
#define PROBE_WEB_AUTH_MAX_CHECKS_PER_HOST 1

typedef void (*ProbeWebAuthDone) (gboolean granted, gpointer data);

ProbeWebAuth *probe_web_auth_new (GHashTable *users, GMainContext *context);
ProbeWebAuthVerdict probe_web_auth_check (ProbeWebAuth *auth,
    const gchar *authorization, const gchar *host, ProbeWebAuthDone done,
    gpointer data, GDestroyNotify destroy);
void probe_web_auth_free (ProbeWebAuth *auth);

G_END_DECLS
