/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Holding a device's submission thread, so that a test knows which jobs
 * the thread takes as one batch (clh-test-hold.c). */
#pragma once

#include "clh-submitter.h"

G_BEGIN_DECLS

typedef struct _ClhTestHold ClhTestHold;

ClhTestHold *clh_test_hold (ClhSubmitter *s);
void clh_test_hold_wait_for (ClhTestHold *hold, guint n_waiting);
void clh_test_hold_release (ClhTestHold *hold);

G_END_DECLS
