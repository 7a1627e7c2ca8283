/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "clh-check-util.h"

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>

/**
 * clh_check_pop_element_message:
 * @bus: a bus
 * @name: the structure name of the element message wanted, e.g.
 *   "histogram"
 *
 * Pops the element messages of @bus up to the first named @name, dropping
 * those before it; does not wait.
 *
 * Returns: (transfer full) (nullable): that message, or %NULL if the bus
 *   holds none.
 */
GstMessage *
clh_check_pop_element_message (GstBus *bus, const gchar *name)
{
  GstMessage *msg;

  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT))) {
    if (gst_message_has_name (msg, name))
      return msg;
    gst_message_unref (msg);
  }
  return NULL;
}

/**
 * clh_check_expect_error:
 * @bus: the element's bus
 * @domain: the error domain expected
 * @code: the error code expected
 * @in_message: (nullable): text the user-facing message must contain
 * @in_debug: (nullable): text the debug message must contain
 *
 * Pops the next error message from @bus and fails the test unless it
 * matches.
 */
void
clh_check_expect_error (GstBus *bus, GQuark domain, gint code,
    const gchar *in_message, const gchar *in_debug)
{
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  GError *err = NULL;
  gchar *debug = NULL;

  fail_unless (msg != NULL, "no error message");
  gst_message_parse_error (msg, &err, &debug);
  GST_INFO ("error: %s (%s)", err->message, debug);
  fail_unless (g_error_matches (err, domain, code), "got %s %d: %s",
      g_quark_to_string (err->domain), err->code, err->message);
  if (in_message)
    fail_unless (strstr (err->message, in_message), "'%s' not in '%s'",
        in_message, err->message);
  if (in_debug)
    fail_unless (debug && strstr (debug, in_debug), "'%s' not in '%s'",
        in_debug, debug);
  g_clear_error (&err);
  g_free (debug);
  gst_message_unref (msg);
}

/* Whether a tracer of @name ("leaks", or "leaks(params)") is active. */
static gboolean
tracer_active (GList *active, const gchar *name)
{
  gchar *bare = g_strndup (name, strcspn (name, "("));
  gchar *type = g_strdup_printf ("Gst%sTracer", bare);
  gboolean found = FALSE;
  GList *l;

  for (l = active; l && !found; l = l->next)
    found = g_ascii_strcasecmp (G_OBJECT_TYPE_NAME (l->data), type) == 0;
  g_free (type);
  g_free (bare);
  return found;
}

/**
 * clh_check_require_tracers:
 *
 * Aborts the test program unless every tracer named in `GST_TRACERS` is
 * active. GStreamer only warns about a tracer it cannot find (it looks them
 * up in the registry at gst_init(), so a fresh build's first run has none),
 * and a test relying on the leaks tracer would pass unchecked.
 */
void
clh_check_require_tracers (void)
{
  const gchar *wanted = g_getenv ("GST_TRACERS");
  GList *active = gst_tracing_get_active_tracers ();
  gchar **names;
  guint i;

  if (!wanted || !*wanted)
    return;
  names = g_strsplit (wanted, ";", -1);
  for (i = 0; names[i]; i++)
    if (*names[i] && !tracer_active (active, names[i]))
      g_error ("GST_TRACERS asks for '%s', which is not active: is "
          "GST_REGISTRY (%s) built? Build the tests' registry first "
          "(ninja -C build)", names[i], g_getenv ("GST_REGISTRY"));
  g_strfreev (names);
  g_list_free_full (active, gst_object_unref);
}

/**
 * clh_check_harness_bus:
 * @element: a harness's element
 *
 * Returns: (transfer full): a new bus set on @element, to read its errors
 *   and messages; give it to clh_check_harness_teardown()
 */
GstBus *
clh_check_harness_bus (GstElement *element)
{
  GstBus *bus = gst_bus_new ();

  gst_element_set_bus (element, bus);
  return bus;
}

/**
 * clh_check_harness_teardown:
 * @harness: (type GstHarness): a harness
 * @bus: (transfer full): its element's bus from clh_check_harness_bus()
 *
 * Tears @harness down after taking its bus off the element.
 */
void
clh_check_harness_teardown (gpointer harness, GstBus *bus)
{
  GstHarness *h = harness;

  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}
