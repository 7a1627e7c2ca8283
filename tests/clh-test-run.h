/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Which run of the suites this is: the quick one that the README's test
 * command runs, or the thorough one (every format, every size) that CI and
 * `scripts/test.sh --full` run. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean clh_test_thorough (void);
gboolean clh_test_format_in_run (const gchar *format);

G_END_DECLS
