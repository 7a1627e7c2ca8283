/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* kernels/embed.py writes #line markers into the embedded source, and PoCL's
 * compiler (clang) honours them in its build log; NVIDIA's OpenCL compiler
 * ignores them and numbers the lines of the string it was given
 * ("<kernel>:365:8: error: ..."). This rewrites such locations with the
 * file and line the markers give, so that every driver's log points into
 * kernels/. */
#include "clh-build-log.h"

#include <stdlib.h>
#include <string.h>

/* The file and line that line @physical (from 1) of @source stands for,
 * following its #line markers; FALSE before the first marker. */
static gboolean
source_line (const gchar *source, guint physical, gchar **file, guint *line)
{
  const gchar *p = source;
  gchar *name = NULL;
  guint next = 0, n;

  for (n = 1; n < physical && *p; n++) {
    const gchar *eol = strchr (p, '\n');
    const gchar *q = p + strspn (p, " \t");
    gchar *end = NULL;

    if (g_str_has_prefix (q, "#line ")) {
      const gulong number = strtoul (q + 6, &end, 10);
      const gchar *open = end ? strchr (end, '"') : NULL;
      const gchar *close = open ? strchr (open + 1, '"') : NULL;

      if (close && (!eol || close < eol)) {
        g_free (name);
        name = g_strndup (open + 1, close - open - 1);
        next = (guint) number;
      }
    } else if (name) {
      next++;
    }
    if (!eol)
      break;
    p = eol + 1;
  }
  if (!name || n != physical) {
    g_free (name);
    return FALSE;
  }
  *file = name;
  *line = next;
  return TRUE;
}

static gboolean
replace_location (const GMatchInfo *match, GString *result, gpointer source)
{
  gchar *digits = g_match_info_fetch (match, 1), *file = NULL;
  guint line;

  if (source_line (source, (guint) strtoul (digits, NULL, 10), &file, &line))
    g_string_append_printf (result, "%s:%u:", file, line);
  else {
    gchar *all = g_match_info_fetch (match, 0);

    g_string_append (result, all);
    g_free (all);
  }
  g_free (file);
  g_free (digits);
  return FALSE;
}

/**
 * clh_build_log_locate:
 * @log: a driver's build log of @source
 * @source: the source as built, with kernels/embed.py's #line markers
 *
 * Returns: (transfer full): @log with each location a compiler gave as a
 *   line of the string it was given (`<kernel>:N:`, `<source>:N:`)
 *   replaced by the file and line @source's markers say (e.g.
 *   `kernels/histogram.cl:229:`); other text as it was
 */
gchar *
clh_build_log_locate (const gchar *log, const gchar *source)
{
  /* Only after a failed build: no need to keep the pattern. */
  GRegex *location = g_regex_new ("<[a-z]+>:([0-9]{1,9}):", 0, 0, NULL);
  gchar *out = g_regex_replace_eval (location, log, -1, 0, 0,
      replace_location, (gpointer) source, NULL);

  g_regex_unref (location);
  return out ? out : g_strdup (log);
}
