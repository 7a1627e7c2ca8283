/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A driver's build log made to name the lines of the kernels/ sources. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gchar *clh_build_log_locate (const gchar *log, const gchar *source);

G_END_DECLS
