/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gst-check helpers shared by the element tests. */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

void clh_check_expect_error (GstBus *bus, GQuark domain, gint code,
    const gchar *in_message, const gchar *in_debug);
void clh_check_require_tracers (void);
GstMessage *clh_check_pop_element_message (GstBus *bus, const gchar *name);
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

/* @code sets a property to a value outside its GParamSpec's range, which
 * GObject refuses, keeping the old value, and complains about: with a
 * warning up to GLib 2.7x (Debian 12's 2.74), with a critical since (Debian
 * 13's 2.84). Either passes; silence fails. Needs <gst/check/gstcheck.h>. */
#define CLH_ASSERT_VALUE_REFUSED(code)                          \
G_STMT_START {                                                  \
  _gst_check_expecting_log = TRUE;                              \
  _gst_check_raised_warning = FALSE;                            \
  _gst_check_raised_critical = FALSE;                           \
  code;                                                         \
  if (!_gst_check_raised_warning && !_gst_check_raised_critical) \
    _ck_assert_failed (__FILE__, __LINE__,                      \
        "Expected GObject to refuse the value, got nothing", NULL); \
  _gst_check_expecting_log = FALSE;                             \
} G_STMT_END

G_END_DECLS
