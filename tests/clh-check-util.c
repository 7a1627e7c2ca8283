/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "clh-check-util.h"

#include <gst/check/gstcheck.h>

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
