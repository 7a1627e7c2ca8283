/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Engine tests registered a second time, run with the host CPU counting
 * what it can (engine/clh-engine-host.c). */
#pragma once

#include "clh-engine-tuning.h"

G_BEGIN_DECLS

void clh_test_add_on_host (const gchar *path, ClhEngine **engine,
    ClhCounting *counting, GTestFunc plain, GTestDataFunc func,
    gconstpointer data);

G_END_DECLS
