/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The golden reference's text: the glyphs of clh-font.h read with the
 * reference's own loops, for the scopes' labels and the marks' legend. */
#pragma once

#include "clh-font.h"

G_BEGIN_DECLS

gint clh_reference_text_width (const gchar *text, gint scale);
gboolean clh_reference_text_ink (const gchar *text, gint scale, gint x,
    gint y);

G_END_DECLS
