/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "clh-marks.h"
#include "base/gstclbasetransform.h"
#include "gstclexposuremarksstyle.h"

G_BEGIN_DECLS

/**
 * GstClExposureMarksFlags:
 * @GST_CL_EXPOSURE_MARKS_ZEBRA: stripes over the pixels at or above
 *   #GstClExposureMarks:zebra-level
 * @GST_CL_EXPOSURE_MARKS_ZEBRA_LOW: stripes the other way over the pixels
 *   at or below #GstClExposureMarks:zebra-low-level
 * @GST_CL_EXPOSURE_MARKS_FALSE_COLOUR: every pixel in the colour of its
 *   luma's band (#GstClExposureMarks:bands)
 * @GST_CL_EXPOSURE_MARKS_BRNG: the pixels outside the broadcast range, as
 *   FFmpeg's `signalstats=out=brng` marks them
 *
 * The marks clexposuremarks draws.
 */
typedef enum {
  GST_CL_EXPOSURE_MARKS_ZEBRA = CLH_MARK_ZEBRA,
  GST_CL_EXPOSURE_MARKS_ZEBRA_LOW = CLH_MARK_ZEBRA_LOW,
  GST_CL_EXPOSURE_MARKS_FALSE_COLOUR = CLH_MARK_FALSE_COLOUR,
  GST_CL_EXPOSURE_MARKS_BRNG = CLH_MARK_BRNG,
} GstClExposureMarksFlags;

#define GST_TYPE_CL_EXPOSURE_MARKS_FLAGS \
  (gst_cl_exposure_marks_flags_get_type ())
GType gst_cl_exposure_marks_flags_get_type (void);

/**
 * GstClExposureMarksLegend:
 * @GST_CL_EXPOSURE_MARKS_LEGEND_NONE: no legend
 * @GST_CL_EXPOSURE_MARKS_LEGEND_TOP_LEFT: in the top-left corner
 * @GST_CL_EXPOSURE_MARKS_LEGEND_TOP_RIGHT: in the top-right corner
 * @GST_CL_EXPOSURE_MARKS_LEGEND_BOTTOM_LEFT: in the bottom-left corner
 * @GST_CL_EXPOSURE_MARKS_LEGEND_BOTTOM_RIGHT: in the bottom-right corner
 *
 * Where the false colour's legend is drawn.
 */
typedef enum {
  GST_CL_EXPOSURE_MARKS_LEGEND_NONE = CLH_MARKS_LEGEND_NONE,
  GST_CL_EXPOSURE_MARKS_LEGEND_TOP_LEFT = CLH_MARKS_LEGEND_TOP_LEFT,
  GST_CL_EXPOSURE_MARKS_LEGEND_TOP_RIGHT = CLH_MARKS_LEGEND_TOP_RIGHT,
  GST_CL_EXPOSURE_MARKS_LEGEND_BOTTOM_LEFT = CLH_MARKS_LEGEND_BOTTOM_LEFT,
  GST_CL_EXPOSURE_MARKS_LEGEND_BOTTOM_RIGHT = CLH_MARKS_LEGEND_BOTTOM_RIGHT,
} GstClExposureMarksLegend;

#define GST_TYPE_CL_EXPOSURE_MARKS_LEGEND \
  (gst_cl_exposure_marks_legend_get_type ())
GType gst_cl_exposure_marks_legend_get_type (void);

#define GST_TYPE_CL_EXPOSURE_MARKS (gst_cl_exposure_marks_get_type ())
G_DECLARE_FINAL_TYPE (GstClExposureMarks, gst_cl_exposure_marks, GST,
    CL_EXPOSURE_MARKS, GstClBaseTransform)

/* The properties that say what a frame's marks are. */
typedef struct {
  guint marks;
  gdouble zebra_level;
  gdouble zebra_low_level;
  guint zebra_period;
  gboolean zebra_moving;
  guint32 zebra_colour;
  guint32 zebra_low_colour;
  guint32 brng_colour;
  GstClExposureMarksLegend legend;
  /* The bands property as set, its table, and why it is no table (NULL
   * when it is one). */
  gchar *bands_text;
  GstClMarkBands bands;
  gchar *bands_error;
} GstClExposureMarksSettings;

struct _GstClExposureMarks {
  GstClBaseTransform parent;

  /* Under the object lock: the marks as set (which get_property reads)
   * and as applied (which frames read): dispatch_properties_changed
   * copies them whole once a g_object_set() has stored them all. */
  GstClExposureMarksSettings set;
  GstClExposureMarksSettings applied;

  /* From NULL->READY to READY->NULL. */
  ClhMarks *engine;

  /* Streaming thread: the settings prepare_output_buffer found for the
   * frame under way and whether it is marked, and the frames marked since
   * the stream started (the moving zebra's phase). */
  GstClExposureMarksSettings frame_settings;
  gboolean drawing;
  guint64 frame_count;
};

GST_ELEMENT_REGISTER_DECLARE (clexposuremarks);

G_END_DECLS
