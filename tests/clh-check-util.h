/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gst-check helpers shared by the element tests. */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

void clh_check_expect_error (GstBus *bus, GQuark domain, gint code,
    const gchar *in_message, const gchar *in_debug);
void clh_check_require_tracers (void);
GstBus *clh_check_harness_bus (GstElement *element);
void clh_check_harness_teardown (gpointer harness, GstBus *bus);

/* GST_CHECK_MAIN, failing at once unless every tracer in GST_TRACERS runs:
 * a leak check that silently did not run must not pass. */
#define CLH_CHECK_MAIN(name)                                    \
int main (int argc, char **argv)                                \
{                                                               \
  Suite *s;                                                     \
  gst_check_init (&argc, &argv);                                \
  clh_check_require_tracers ();                                 \
  s = name##_suite ();                                          \
  return gst_check_run_suite (s, #name, __FILE__);              \
}

G_END_DECLS
