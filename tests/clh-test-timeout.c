/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "clh-test-timeout.h"

/**
 * clh_test_timeout_multiplier:
 *
 * The factor CLH_TIMEOUT_MULTIPLIER gives (meson test -t N, through
 * tests/timeout-multiplier.sh): 1 when unset, 1000 for meson's 0 (no
 * timeout). A value that is not a non-negative number aborts the test,
 * saying so.
 *
 * Returns: the factor, > 0.
 */
gdouble
clh_test_timeout_multiplier (void)
{
  const gchar *text = g_getenv ("CLH_TIMEOUT_MULTIPLIER");
  gchar *end = NULL;
  gdouble value;

  if (!text)
    return 1.0;
  value = g_ascii_strtod (text, &end);
  if (end == text || *end || !(value >= 0) || value > 1e6)
    g_error ("CLH_TIMEOUT_MULTIPLIER=\"%s\" is not a timeout multiplier "
        "(a number such as 1, 2 or 0.5)", text);
  return value == 0 ? 1000.0 : value;
}

/**
 * clh_test_timeout_us:
 * @seconds: the wait on an idle machine, in seconds
 *
 * Returns: @seconds scaled by clh_test_timeout_multiplier(), in us.
 */
gint64
clh_test_timeout_us (gdouble seconds)
{
  return (gint64) (seconds * clh_test_timeout_multiplier () * G_USEC_PER_SEC);
}

/**
 * clh_test_timeout_ns:
 * @seconds: the wait on an idle machine, in seconds
 *
 * Returns: @seconds scaled by clh_test_timeout_multiplier(), in ns: a
 *   GstClockTime for gst_bus_timed_pop() or appsink's try-pull-sample.
 */
guint64
clh_test_timeout_ns (gdouble seconds)
{
  return (guint64) clh_test_timeout_us (seconds) * 1000;
}
