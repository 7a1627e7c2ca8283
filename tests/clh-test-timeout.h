/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The waits a C test bounds itself, scaled as meson test's own timeouts
 * (tests/timeout-multiplier.sh). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gdouble clh_test_timeout_multiplier (void);
gint64 clh_test_timeout_us (gdouble seconds);
guint64 clh_test_timeout_ns (gdouble seconds);

G_END_DECLS
