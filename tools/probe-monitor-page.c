/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The monitor pages, served beside /metrics (probe-metrics-server.c)
 * while an input has --monitor-pictures:
 *
 *   /                            an index of the inputs: each one's name,
 *                                state, alerts and picture, reloading
 *                                itself each picture period
 *   /inputs/NAME/monitor.png     the input's last picture, NAME
 *                                percent-encoded
 *
 * A picture is sent as its input's branch made it (probe-picture.c),
 * the same bytes to every request: nothing is rendered for a request
 * but the index's few lines of HTML. A path's NAME is untrusted: libsoup
 * percent-decodes the path (and answers 400 to one with a NUL, bad
 * UTF-8 or dot segments above the root); the NAME is then looked up
 * among the inputs' names, exactly, and never becomes a file's name. The index is HTML5 that loads nothing but the
 * pictures (no script, style or font from elsewhere): a browser with no
 * network but the probe's shows it whole. */
#include "probe-monitor-page.h"

#include <string.h>

#define PICTURE_PREFIX "/inputs/"
#define PICTURE_SUFFIX "/monitor.png"

/**
 * probe_monitor_page_claims:
 * @path: a request's path, as requested (untrusted)
 *
 * Returns: whether @path is one of the monitor pages' by its form: `/`,
 *   or under `/inputs/`. Which input it names, and whether there is
 *   one, is told only to a request whose credentials are taken.
 */
gboolean
probe_monitor_page_claims (const gchar *path)
{
  return strcmp (path, "/") == 0 || g_str_has_prefix (path, PICTURE_PREFIX);
}

/**
 * probe_monitor_page_input_of:
 * @path: a request's path as libsoup gives it: percent-decoded, its dot
 *   segments resolved (untrusted)
 *
 * Returns: (transfer full) (nullable): the NAME of
 *   `/inputs/NAME/monitor.png`, which may hold slashes of its own (a
 *   file's name: `%2F` in the URL, which libsoup decodes as it decodes
 *   the rest); %NULL for another path.
 */
gchar *
probe_monitor_page_input_of (const gchar *path)
{
  const gsize prefix = strlen (PICTURE_PREFIX);
  const gsize suffix = strlen (PICTURE_SUFFIX);
  const gsize length = strlen (path);

  if (length <= prefix + suffix || !g_str_has_prefix (path, PICTURE_PREFIX)
      || !g_str_has_suffix (path, PICTURE_SUFFIX))
    return NULL;
  return g_strndup (path + prefix, length - prefix - suffix);
}

/* @text in HTML's text or a quoted attribute: the five characters that
 * mean something there as references, and what HTML5 takes for a parse
 * error (control characters, U+0080 to U+009F) as U+FFFD; a name that is
 * not UTF-8 (a file's) made valid first. */
static void
append_escaped (GString *out, const gchar *text)
{
  gchar *valid = g_utf8_make_valid (text, -1);
  const gchar *c;

  for (c = valid; *c; c = g_utf8_next_char (c)) {
    gunichar u = g_utf8_get_char (c);

    switch (u) {
      case '&':
        g_string_append (out, "&amp;");
        break;
      case '<':
        g_string_append (out, "&lt;");
        break;
      case '>':
        g_string_append (out, "&gt;");
        break;
      case '"':
        g_string_append (out, "&quot;");
        break;
      case '\'':
        g_string_append (out, "&#39;");
        break;
      default:
        if ((u < 0x20 && u != '\t' && u != '\n') || (u >= 0x7f && u < 0xa0))
          g_string_append_unichar (out, 0xfffd);
        else
          g_string_append_unichar (out, u);
        break;
    }
  }
  g_free (valid);
}

/* Whole seconds, at least 1, of a period in microseconds. */
static guint
ceil_seconds (gint64 us)
{
  return (guint) MAX ((us + G_USEC_PER_SEC - 1) / G_USEC_PER_SEC, 1);
}

/* The shortest picture period of the inputs: the index reloads as often. */
static guint
refresh_seconds (GPtrArray *views)
{
  gint64 shortest = 0;
  guint i;

  for (i = 0; i < views->len; i++) {
    const ProbeMetricsView *v = g_ptr_array_index (views, i);

    if (v->picture_period_us > 0 && (shortest == 0
            || v->picture_period_us < shortest))
      shortest = v->picture_period_us;
  }
  return shortest > 0 ? ceil_seconds (shortest) : 10;
}

static void
append_zones (GString *out, const GPtrArray *zones)
{
  guint i;

  g_string_append_printf (out, " (zone%s ", zones->len > 1 ? "s" : "");
  for (i = 0; i < zones->len; i++) {
    if (i)
      g_string_append (out, ", ");
    append_escaped (out, g_ptr_array_index (zones, i));
  }
  g_string_append_c (out, ')');
}

/* The input's exposure alerts: each one set for it, on (with its zones)
 * or clear. */
static void
append_alerts (GString *out, const ProbeMetricsView *v)
{
  gboolean any = FALSE;
  guint a;

  g_string_append (out, "<p class=\"alerts\">Alerts: ");
  for (a = 0; a < PROBE_METRICS_N_ALERTS; a++) {
    if (!v->alerts[a].on)
      continue;
    if (any)
      g_string_append (out, ", ");
    any = TRUE;
    if (v->alerts[a].active) {
      g_string_append_printf (out, "<span class=\"alert active\" "
          "data-alert=\"%s\">%s", v->alerts[a].name, v->alerts[a].name);
      if (v->alerts[a].zones->len > 0)
        append_zones (out, v->alerts[a].zones);
    } else {
      g_string_append_printf (out, "<span class=\"alert\" "
          "data-alert=\"%s\">not %s", v->alerts[a].name, v->alerts[a].name);
    }
    g_string_append (out, "</span>");
  }
  if (!any)
    g_string_append (out, "none set");
  g_string_append (out, "</p>\n");
}

/* Whether an input's picture has a URL: not if its name has a `..`
 * segment (an input given as ../clip.avi), which libsoup refuses (400)
 * once it has decoded the %2F around it. */
static gboolean
has_url (const gchar *name)
{
  gchar **segments = g_strsplit (name, "/", -1);
  gboolean ok = !g_strv_contains ((const gchar * const *) segments, "..");

  g_strfreev (segments);
  return ok;
}

/* The input's picture, a link to it at its size; or why there is none.
 * Each new picture has a URL of its own (its number as the query): the
 * browser fetches it once. When the picture cannot be had (the input
 * removed since), the text after it shows instead; when it decodes, its
 * size is written on it (data-decoded), which a test can read. */
static void
append_picture (GString *out, const ProbeMetricsView *v, gint64 now_us)
{
  gchar *url;

  if (v->picture_period_us == 0) {
    g_string_append (out, "<p class=\"no-picture\">No monitor picture "
        "(monitor-pictures 0)</p>\n");
    return;
  }
  if (v->picture_error) {
    g_string_append (out, "<p class=\"picture-error\">Pictures stopped: ");
    append_escaped (out, v->picture_error);
    g_string_append (out, "</p>\n");
  }
  if (!v->picture) {
    g_string_append (out, "<p class=\"no-picture\">No picture yet</p>\n");
    return;
  }
  if (!has_url (v->name)) {
    g_string_append (out, "<p class=\"no-picture\">No picture link: the "
        "name has a .. segment, which no URL keeps; name the input "
        "(NAME=FILE)</p>\n");
    return;
  }
  url = g_uri_escape_string (v->name, NULL, FALSE);
  g_string_append_printf (out, "<a href=\"inputs/%s/monitor.png\">"
      "<img src=\"inputs/%s/monitor.png?picture=%" G_GUINT64_FORMAT "\" "
      "width=\"%u\" height=\"%u\" alt=\"The monitor picture of ", url, url,
      v->pictures, v->picture_width, v->picture_height);
  append_escaped (out, v->name);
  g_string_append (out, "\" onload=\"this.dataset.decoded="
      "this.naturalWidth+'x'+this.naturalHeight\" onerror=\"this.hidden="
      "true;this.parentNode.nextElementSibling.hidden=false\"></a>\n"
      "<p class=\"no-picture\" hidden>No picture now</p>\n");
  g_string_append_printf (out, "<p class=\"picture-time\">Picture %u x %u, "
      "made %" G_GINT64_FORMAT " s ago</p>\n", v->picture_width,
      v->picture_height, MAX (now_us - v->picture_time, 0) / G_USEC_PER_SEC);
  g_free (url);
}

static void
append_input (GString *out, const ProbeMetricsView *v, gint64 now_us)
{
  g_string_append_printf (out, "<section class=\"input state-%s\" "
      "data-state=\"%s\">\n<h2>", v->state, v->state);
  append_escaped (out, v->name);
  g_string_append_printf (out, "</h2>\n<p class=\"state\">%s</p>\n",
      v->state);
  append_alerts (out, v);
  append_picture (out, v, now_us);
  g_string_append (out, "</section>\n");
}

/* Small, and the page's own: no request for it. */
#define STYLE \
  "body{margin:1em;font:15px/1.4 sans-serif;background:#181818;" \
  "color:#ddd}\n" \
  "a{color:#8cf}\n" \
  "h1{font-size:1.3em;margin:0}\n" \
  "main{display:flex;flex-wrap:wrap;gap:1em;margin-top:1em;" \
  "align-items:flex-start}\n" \
  "section{background:#262626;border-left:4px solid #888;" \
  "padding:.4em .7em;max-width:500px}\n" \
  "h2{font-size:1.05em;margin:0;overflow-wrap:anywhere;" \
  "white-space:pre-wrap}\n" \
  "p{margin:.2em 0}\n" \
  ".state{font-weight:bold}\n" \
  ".state-up{border-color:#3b3}.state-up .state{color:#5d5}\n" \
  ".state-down{border-color:#e33}.state-down .state{color:#f66}\n" \
  ".state-starting{border-color:#db3}.state-starting .state{color:#ec5}\n" \
  ".active{color:#f66;font-weight:bold}\n" \
  ".picture-error{color:#f96}\n" \
  "img{display:block;max-width:100%;height:auto;margin:.3em 0}\n"

/**
 * probe_monitor_page_index:
 * @views: (element-type ProbeMetricsView): the inputs, in their order
 * @now_us: g_get_real_time(), for the pictures' ages
 *
 * Returns: (transfer full): the index, an HTML5 document: every input's
 *   name (escaped), state, alerts and picture, a link to /metrics, and a
 *   reload after the shortest picture period (whole seconds, at least
 *   1). Its URLs are relative: it works behind a proxy's prefix too.
 */
gchar *
probe_monitor_page_index (GPtrArray *views, gint64 now_us)
{
  GString *out = g_string_sized_new (1024 + views->len * 768);
  const guint refresh = refresh_seconds (views);
  guint i;

  g_string_append_printf (out, "<!DOCTYPE html>\n<html lang=\"en\">\n"
      "<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, "
      "initial-scale=1\">\n"
      "<meta http-equiv=\"refresh\" content=\"%u\">\n"
      "<title>clhistogram-probe: %u input%s</title>\n", refresh,
      views->len, views->len == 1 ? "" : "s");
  g_string_append (out, "<style>\n" STYLE "</style>\n</head>\n<body>\n"
      "<header>\n<h1>clhistogram-probe</h1>\n");
  g_string_append_printf (out, "<p>%u input%s; this page reloads every "
      "%u s; <a href=\"metrics\">metrics</a></p>\n</header>\n<main>\n",
      views->len, views->len == 1 ? "" : "s", refresh);
  for (i = 0; i < views->len; i++)
    append_input (out, g_ptr_array_index (views, i), now_us);
  g_string_append (out, "</main>\n</body>\n</html>\n");
  return g_string_free (out, FALSE);
}

static void
answer_text (ProbeMetricsPage *page, guint status, const gchar *text)
{
  page->status = status;
  page->content_type = "text/plain; charset=utf-8";
  page->body = g_bytes_new_static (text, strlen (text));
}

/* /inputs/NAME/monitor.png: the picture, shared; 404 for a NAME that is
 * no input's, or an input without pictures; 503 before its first. The
 * answers never repeat the NAME asked for. */
static void
answer_picture (ProbeMetrics *m, const gchar *path, ProbeMetricsPage *page)
{
  gchar *name = probe_monitor_page_input_of (path);
  ProbeMetricsView *view = name ? probe_metrics_get_view (m, name) : NULL;

  if (!view)
    answer_text (page, 404, "Not found: no input of that name; the index "
        "at / lists the inputs, each picture at "
        "/inputs/NAME/monitor.png (NAME percent-encoded)\n");
  else if (view->picture_period_us == 0)
    answer_text (page, 404, "Not found: that input has no monitor picture "
        "(its monitor-pictures is 0)\n");
  else if (!view->picture) {
    answer_text (page, 503, "Service unavailable: no picture of that input "
        "yet (it has had no frame, or its first picture is still being "
        "made); the index at / shows its state\n");
    page->retry_after_s = ceil_seconds (view->picture_period_us);
  } else {
    page->status = 200;
    page->content_type = "image/png";
    page->body = g_bytes_ref (view->picture);
  }
  probe_metrics_view_free (view);
  g_free (name);
}

/**
 * probe_monitor_page_answer:
 * @m: the inputs
 * @path: a path probe_monitor_page_claims() takes
 * @page: (out caller-allocates): the answer
 *
 * Answers a monitor page: the index, a picture, or why not (404, 503).
 * On the server's thread.
 */
void
probe_monitor_page_answer (ProbeMetrics *m, const gchar *path,
    ProbeMetricsPage *page)
{
  GPtrArray *views;
  gchar *html;

  page->retry_after_s = 0;
  if (strcmp (path, "/") != 0) {
    answer_picture (m, path, page);
    return;
  }
  views = probe_metrics_get_views (m);
  html = probe_monitor_page_index (views, g_get_real_time ());
  g_ptr_array_unref (views);
  page->status = 200;
  page->content_type = "text/html; charset=utf-8";
  page->body = g_bytes_new_take (html, strlen (html));
}
