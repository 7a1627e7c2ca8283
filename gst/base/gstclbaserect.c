/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Rectangles as GStreamer values, `<x, y, width, height>`: how clhistogram's
 * `regions` and clcamshift's `window` read and write them. */
#include "gstclbaserect.h"

/**
 * gst_cl_rect_from_value:
 * @value: a property's or a caps field's value
 * @rect: (out): its rectangle
 *
 * Returns: %TRUE if @value is a `<x, y, width, height>` array of four gints
 *   with no negative size
 */
gboolean
gst_cl_rect_from_value (const GValue *value, ClhRect *rect)
{
  gint v[4];
  guint i;

  if (!GST_VALUE_HOLDS_ARRAY (value) || gst_value_array_get_size (value) != 4)
    return FALSE;
  for (i = 0; i < 4; i++) {
    const GValue *item = gst_value_array_get_value (value, i);

    if (!G_VALUE_HOLDS_INT (item))
      return FALSE;
    v[i] = g_value_get_int (item);
  }
  if (v[2] < 0 || v[3] < 0)
    return FALSE;
  *rect = (ClhRect) { v[0], v[1], v[2], v[3] };
  return TRUE;
}

static void
append_int (GValue *array, gint v)
{
  GValue item = G_VALUE_INIT;

  g_value_init (&item, G_TYPE_INT);
  g_value_set_int (&item, v);
  gst_value_array_append_and_take_value (array, &item);
}

/**
 * gst_cl_rect_to_value:
 * @rect: a rectangle
 * @value: initialized to GST_TYPE_ARRAY and empty
 *
 * Fills @value with `<x, y, width, height>`, four gints.
 */
void
gst_cl_rect_to_value (const ClhRect *rect, GValue *value)
{
  append_int (value, rect->x);
  append_int (value, rect->y);
  append_int (value, rect->width);
  append_int (value, rect->height);
}
