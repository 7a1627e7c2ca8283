/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The golden reference: the obvious sequential loop, the oracle every kernel
 * and every element path is tested against bit for bit. */
#pragma once

#include "clh-image.h"

G_BEGIN_DECLS

guint8 clh_reference_luma (guint8 r, guint8 g, guint8 b);

void clh_reference_histogram (const ClhImage *image,
    const ClhHistogramSpec *spec, guint32 *counts);

G_END_DECLS
