/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Large host copies split over a few threads (clh-host-copy.c). */
#pragma once

#include "clh-frame.h"

#include <glib.h>

G_BEGIN_DECLS

/* Ranges one clh_host_copy() takes: a frame's planes. */
#define CLH_HOST_COPY_MAX 4

void clh_host_copy (guint n, guint8 *const *dst, const guint8 *const *src,
    const gsize *sizes);
void clh_host_copy_planes (const ClhFrame *frame, guint used, guint8 *data,
    const gsize *base);
void clh_host_copy_set_helpers (guint n);
gboolean clh_host_copy_has_helpers (void);

G_END_DECLS
