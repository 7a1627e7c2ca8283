/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The golden reference for the exposure marks: a frame marked with the
 * obvious loops, pixel by pixel. */
#pragma once

#include "clh-marks-spec.h"

G_BEGIN_DECLS

void clh_reference_marks (const ClhFrame *frame, const ClhMarksSpec *spec,
    guint8 *const *dest);

G_END_DECLS
