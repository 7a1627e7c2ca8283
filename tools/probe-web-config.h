/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --web-config: the metrics server's TLS and basic authentication, from a
 * file in the format of Prometheus' exporter-toolkit
 * (docs/web-configuration.md of prometheus/exporter-toolkit). */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct
{
  /* The file, as given: what errors and the server's messages name. */
  gchar *path;
  /* The server's certificate with its key; NULL: plain HTTP. */
  GTlsCertificate *certificate;
  /* Client certificates: G_TLS_AUTHENTICATION_NONE, or checked against
   * @client_ca, required or only when given. */
  GTlsAuthenticationMode client_auth;
  GTlsDatabase *client_ca;
  /* The oldest TLS version a client may speak. */
  GTlsProtocolVersion min_version;
  /* User -> bcrypt hash; empty: no authentication. */
  GHashTable *users;
  /* "Name: value\r\n" lines added to every answer (http_server_config's
   * headers); "" for none. */
  gchar *headers;
} ProbeWebConfig;

/* The largest --web-config file read, in bytes. */
#define PROBE_WEB_CONFIG_MAX_BYTES (64 * 1024)
/* The highest bcrypt cost taken: each check of a password of cost C
 * takes 2^C rounds, about 1 s at 14 on one core. */
#define PROBE_WEB_CONFIG_MAX_BCRYPT_COST 14

ProbeWebConfig *probe_web_config_load (const gchar *path, GError **error);
void probe_web_config_free (ProbeWebConfig *config);

G_END_DECLS
