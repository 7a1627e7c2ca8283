/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-clexposuremarks
 * @title: clexposuremarks
 *
 * Marks exposure on the picture, as a camera's monitor does, written into
 * the frame (in place, in its own format) on an OpenCL device:
 *
 * - `zebra`: diagonal stripes, rising to the right, over the pixels whose
 *   luma is at or above #GstClExposureMarks:zebra-level;
 * - `zebra-low`: stripes falling to the right over the pixels at or below
 *   #GstClExposureMarks:zebra-low-level;
 * - `false-colour`: every pixel in the colour of its luma's band
 *   (#GstClExposureMarks:bands). The default bands are ARRI cameras'
 *   false colour: purple crushed (under 2.5%), blue near black (to 4%),
 *   green at 18% grey (38-42%), pink one stop over, skin (52-56%), yellow
 *   near clipping (97-99%), red clipped (from 99%), grey between. A
 *   legend (#GstClExposureMarks:legend, bottom-left by default) keys each
 *   coloured band to its range in percent: a swatch of its colour beside
 *   "<2.5%", "38-42%" or "≥99%", the highest band on top, white on black,
 *   in a bitmap font whose size follows the frame's height (one font
 *   pixel more every 360 rows), 8 of those pixels from the frame's edges;
 *   grey and `none` bands have no row, and a frame too small for it has
 *   no legend;
 * - `brng`: the pixels FFmpeg's `signalstats` counts as BRNG, painted as
 *   `signalstats=out=brng` paints them.
 *
 * Levels are in percent of the luma's nominal range for the caps' range
 * (limited: 0% is code 16 and 100% code 235, scaled by 2^(depth - 8);
 * full range and RGB: 0 and 2^depth - 1), rounded to the nearest code as
 * clhistogram's `clip-high-level` rounds them: 95% of 8-bit limited luma
 * is 224, of full range 242. The zebra marks exactly the samples
 * clhistogram's `clipped-high` counts at the same level. A pixel's luma is
 * its Y sample; on RGB frames BT.601's luma with OpenCV's rounding, the
 * luma clhistogram counts there.
 *
 * Pixel (x, y) lies on a zebra stripe when `(x + y + phase) %
 * zebra-period < zebra-period / 2`, on a low zebra stripe when `(x - y +
 * phase) mod zebra-period` is; the phase is 0, or with
 * #GstClExposureMarks:zebra-moving the frame's number since the stream
 * started, so that the stripes crawl a pixel a frame as on a monitor.
 *
 * BRNG, as FFmpeg 5.1's `signalstats` defines it whatever the caps' range:
 * a pixel whose luma (or R, G, B) is under 16 or over 235, or whose chroma
 * sample (the one it takes its colour from) is under 16 or over 240, each
 * scaled by 2^(depth - 8). On I420, Y42B, Y444, Y41B and their 10, 12 and
 * 16-bit forms with the default #GstClExposureMarks:brng-colour and BT.601
 * caps, the output equals `ffmpeg -vf signalstats=out=brng` byte for byte
 * (tests/test_marks_ffmpeg.py). They differ where FFmpeg has no such
 * format (semi-planar, packed, RGB, gray: FFmpeg refuses them) and in the
 * colour of other colours: FFmpeg converts its colour with 8-bit integer
 * BT.601 coefficients whatever the stream's matrix, clexposuremarks with
 * the caps' matrix and range, rounded (red is Y 81 here, 82 there).
 *
 * Where several marks fall on one pixel, BRNG is drawn over the zebra,
 * the zebra over the low zebra, those over the false colour. A subsampled
 * chroma sample takes the colour of the highest of the marks of the pixels
 * it covers (the bands counting in their order, a higher band over a lower
 * one), so that a chroma sample is BRNG's if any of its pixels is, as
 * `signalstats` paints it; without marks it is left as it was. Colours are
 * given as 0xRRGGBB and converted with the caps' matrix (BT.601 when they
 * name none) and range to 8-bit codes, then scaled by 2^(depth - 8). Only
 * a component's own bits of a sample change; alpha and padding stay.
 *
 * The properties may change while playing, and be controlled; those one
 * g_object_set() sets (or those between g_object_freeze_notify() and
 * g_object_thaw_notify()) take effect together, on the next frame. A
 * #GstClExposureMarks:bands that is no table is an error when a frame
 * comes, saying what is wrong; with #GstClExposureMarks:marks empty,
 * frames pass as they came (not copied, not mapped).
 *
 * Formats: every format clhistogram reads: GRAY8, GRAY16, the 8-bit RGB
 * family, 8-bit planar, semi-planar and packed YUV, and 10, 12 and 16-bit
 * planar and semi-planar YUV; padded strides (GstVideoMeta) included, and
 * a GstVideoMeta larger than the caps (the whole frame behind videocrop's
 * crop meta) marked whole. On gray formats marks are drawn in their
 * colours' luma.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 v4l2src ! videoconvert ! clexposuremarks zebra-level=95 ! \
 *     videoconvert ! autovideosink
 * ]| zebra stripes over the highlights at or above 95%.
 * |[
 * gst-launch-1.0 filesrc location=clip.mkv ! decodebin ! \
 *     clexposuremarks marks=false-colour+brng ! videoconvert ! autovideosink
 * ]| false colour, and out-of-range pixels in yellow.
 * |[
 * gst-launch-1.0 filesrc location=clip.mkv ! decodebin ! \
 *     clexposuremarks marks=false-colour bands="none, 97:yellow, 99:red" ! \
 *     videoconvert ! autovideosink
 * ]| only the near-clipped and clipped highlights coloured.
 */
#include "gstclexposuremarks.h"

#include "clh-levels.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_exposure_marks_debug);
#define GST_CAT_DEFAULT gst_cl_exposure_marks_debug

#define DEFAULT_MARKS GST_CL_EXPOSURE_MARKS_ZEBRA
#define DEFAULT_ZEBRA_LEVEL 95.0
#define DEFAULT_ZEBRA_LOW_LEVEL 0.0
#define DEFAULT_ZEBRA_PERIOD 8
#define DEFAULT_ZEBRA_MOVING FALSE
#define DEFAULT_ZEBRA_COLOUR 0x000000
#define DEFAULT_ZEBRA_LOW_COLOUR 0xffffff
#define DEFAULT_BRNG_COLOUR 0xffff00
#define DEFAULT_LEGEND GST_CL_EXPOSURE_MARKS_LEGEND_BOTTOM_LEFT
/* The legend's text and ground: white on black, as camera monitors key
 * their false colour. */
#define LEGEND_INK 0xffffff
#define LEGEND_PAPER 0x000000

enum {
  PROP_0,
  PROP_MARKS,
  PROP_ZEBRA_LEVEL,
  PROP_ZEBRA_LOW_LEVEL,
  PROP_ZEBRA_PERIOD,
  PROP_ZEBRA_MOVING,
  PROP_ZEBRA_COLOUR,
  PROP_ZEBRA_LOW_COLOUR,
  PROP_BANDS,
  PROP_BRNG_COLOUR,
  PROP_LEGEND,
};

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_CL_BASE_TRANSFORM_CAPS));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_CL_BASE_TRANSFORM_CAPS));

#define gst_cl_exposure_marks_parent_class parent_class
G_DEFINE_TYPE (GstClExposureMarks, gst_cl_exposure_marks,
    GST_TYPE_CL_BASE_TRANSFORM);
GST_ELEMENT_REGISTER_DEFINE (clexposuremarks, "clexposuremarks",
    GST_RANK_NONE, GST_TYPE_CL_EXPOSURE_MARKS);

GType
gst_cl_exposure_marks_flags_get_type (void)
{
  static GType type = 0;
  static const GFlagsValue values[] = {
    {GST_CL_EXPOSURE_MARKS_ZEBRA, "Stripes over the pixels at or above "
          "zebra-level", "zebra"},
    {GST_CL_EXPOSURE_MARKS_ZEBRA_LOW, "Stripes over the pixels at or below "
          "zebra-low-level", "zebra-low"},
    {GST_CL_EXPOSURE_MARKS_FALSE_COLOUR, "Every pixel in the colour of its "
          "luma's band", "false-colour"},
    {GST_CL_EXPOSURE_MARKS_BRNG, "Pixels outside the broadcast range, as "
          "signalstats=out=brng", "brng"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_flags_register_static
        ("GstClExposureMarksFlags", values));
  return type;
}

GType
gst_cl_exposure_marks_legend_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CL_EXPOSURE_MARKS_LEGEND_NONE, "No legend", "none"},
    {GST_CL_EXPOSURE_MARKS_LEGEND_TOP_LEFT, "Top-left corner", "top-left"},
    {GST_CL_EXPOSURE_MARKS_LEGEND_TOP_RIGHT, "Top-right corner",
        "top-right"},
    {GST_CL_EXPOSURE_MARKS_LEGEND_BOTTOM_LEFT, "Bottom-left corner",
        "bottom-left"},
    {GST_CL_EXPOSURE_MARKS_LEGEND_BOTTOM_RIGHT, "Bottom-right corner",
        "bottom-right"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static
        ("GstClExposureMarksLegend", values));
  return type;
}

/* ------------------------------------------------------------------ */
/* Settings */

/* Replaces @dst by a copy of @src. */
static void
settings_copy (GstClExposureMarksSettings *dst,
    const GstClExposureMarksSettings *src)
{
  g_free (dst->bands_text);
  g_free (dst->bands_error);
  *dst = *src;
  dst->bands_text = g_strdup (src->bands_text);
  dst->bands_error = g_strdup (src->bands_error);
}

static void
settings_clear (GstClExposureMarksSettings *s)
{
  g_clear_pointer (&s->bands_text, g_free);
  g_clear_pointer (&s->bands_error, g_free);
}

/* The bands property: its table, or why it is none. */
static void
set_bands (GstClExposureMarksSettings *s, const gchar *text)
{
  GError *err = NULL;

  g_free (s->bands_text);
  g_clear_pointer (&s->bands_error, g_free);
  s->bands_text = g_strdup (text);
  if (!gst_cl_mark_bands_parse (text, &s->bands, &err)) {
    s->bands_error = g_strdup (err->message);
    g_error_free (err);
  }
}

/* ------------------------------------------------------------------ */
/* Frames */

/* Controlled properties take their values at the frame's stream time. */
static void
gst_cl_exposure_marks_before_transform (GstBaseTransform *trans,
    GstBuffer *buffer)
{
  GstClockTime stream_time;

  if (trans->segment.format != GST_FORMAT_TIME)
    return;
  stream_time = gst_segment_to_stream_time (&trans->segment,
      GST_FORMAT_TIME, GST_BUFFER_PTS (buffer));
  if (GST_CLOCK_TIME_IS_VALID (stream_time))
    gst_object_sync_values (GST_OBJECT (trans), stream_time);
}

/* A frame without marks leaves as it came: not made writable (copied),
 * not mapped. The settings are taken here for the frame. */
static GstFlowReturn
gst_cl_exposure_marks_prepare_output_buffer (GstBaseTransform *trans,
    GstBuffer *inbuf, GstBuffer **outbuf)
{
  GstClExposureMarks *self = GST_CL_EXPOSURE_MARKS (trans);

  GST_OBJECT_LOCK (self);
  settings_copy (&self->frame_settings, &self->applied);
  GST_OBJECT_UNLOCK (self);
  self->drawing = self->frame_settings.marks != 0;
  if (!self->drawing) {
    *outbuf = inbuf;
    return GST_FLOW_OK;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->prepare_output_buffer
      (trans, inbuf, outbuf);
}

/* The frame's marks in its format's code values; FALSE after posting an
 * error for a band table that is none. */
static gboolean
frame_spec (GstClExposureMarks *self, const GstVideoInfo *info,
    ClhMarksSpec *spec)
{
  const GstClExposureMarksSettings *s = &self->frame_settings;
  const ClhLevels levels = clh_levels_nominal (GST_VIDEO_INFO_COMP_DEPTH
      (info, 0), GST_VIDEO_INFO_COLORIMETRY (info).range ==
      GST_VIDEO_COLOR_RANGE_16_235, FALSE);
  guint c;

  if ((s->marks & GST_CL_EXPOSURE_MARKS_FALSE_COLOUR) && s->bands_error) {
    GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
        ("bands=\"%s\" is not a false-colour table. %s", s->bands_text ?
            s->bands_text : "", s->bands_error), (NULL));
    return FALSE;
  }
  memset (spec, 0, sizeof (*spec));
  spec->marks = s->marks;
  spec->layout = gst_cl_mark_layout (info);
  for (c = 0; c < 3; c++)
    spec->components[c] = spec->layout == CLH_MARKS_GRAY ? 0 : c;
  spec->zebra_level = clh_levels_at_percent (&levels, s->zebra_level);
  spec->zebra_low_level = clh_levels_at_percent (&levels,
      s->zebra_low_level);
  spec->zebra_period = s->zebra_period;
  spec->zebra_phase = s->zebra_moving ?
      (guint) (self->frame_count % s->zebra_period) : 0;
  gst_cl_mark_colour (info, s->zebra_colour, &spec->zebra_colour);
  gst_cl_mark_colour (info, s->zebra_low_colour, &spec->zebra_low_colour);
  gst_cl_mark_colour (info, s->brng_colour, &spec->brng_colour);
  if (s->marks & GST_CL_EXPOSURE_MARKS_FALSE_COLOUR)
    gst_cl_mark_bands_apply (&s->bands, info, spec);
  spec->legend = (ClhMarksLegendCorner) s->legend;
  gst_cl_mark_colour (info, LEGEND_INK, &spec->legend_ink);
  gst_cl_mark_colour (info, LEGEND_PAPER, &spec->legend_paper);
  return TRUE;
}

/* Marks the frame where it lies, mapped as every element of the plugin
 * maps one (base/gstclbaseframemap.c): a GstVideoMeta whose strides or offsets do
 * not fit the buffer is a STREAM error, never a write past it. A meta
 * larger than the caps (the whole frame behind videocrop's crop meta) is
 * marked whole, so that whatever part is shown carries its marks. */
static GstFlowReturn
gst_cl_exposure_marks_transform_ip (GstBaseTransform *trans,
    GstBuffer *buffer)
{
  GstClExposureMarks *self = GST_CL_EXPOSURE_MARKS (trans);
  GstClBaseTransform *base = GST_CL_BASE_TRANSFORM (trans);
  const GstVideoInfo *info = gst_cl_base_transform_get_info (base);
  guint8 *dest[CLH_MAX_PLANES] = { NULL };
  GstClFrameMap map;
  ClhMarksSpec spec;
  ClhFrame frame;
  GError *err = NULL;
  gboolean ok;
  guint p;

  if (!self->drawing)
    return GST_FLOW_OK;
  self->drawing = FALSE;
  if (!frame_spec (self, info, &spec))
    return GST_FLOW_ERROR;
  if (!gst_cl_frame_map_write (&map, GST_ELEMENT (self), info,
          gst_cl_base_transform_get_format (base), buffer, &frame)) {
    gst_cl_frame_map_clear (&map);
    return GST_FLOW_ERROR;
  }
  /* The planes point into the writable mapping. */
  for (p = 0; p < frame.n_planes; p++)
    dest[p] = (guint8 *) frame.planes[p].data;
  ok = clh_marks_draw (self->engine, &frame, &spec, dest, &err);
  gst_cl_frame_map_clear (&map);
  self->frame_count++;
  return ok ? GST_FLOW_OK : gst_cl_base_transform_engine_error (base, err);
}

static gboolean
gst_cl_exposure_marks_start (GstBaseTransform *trans)
{
  GstClExposureMarks *self = GST_CL_EXPOSURE_MARKS (trans);

  self->drawing = FALSE;
  self->frame_count = 0;
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* The device */

static gboolean
gst_cl_exposure_marks_open (GstClBaseTransform *base, ClhContext *context,
    GError **error)
{
  GstClExposureMarks *self = GST_CL_EXPOSURE_MARKS (base);

  self->engine = clh_marks_new (context, error);
  return self->engine != NULL;
}

static void
gst_cl_exposure_marks_close (GstClBaseTransform *base)
{
  g_clear_pointer (&GST_CL_EXPOSURE_MARKS (base)->engine, clh_marks_free);
}

/* ------------------------------------------------------------------ */
/* Properties */

static void
gst_cl_exposure_marks_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec)
{
  GstClExposureMarks *self = GST_CL_EXPOSURE_MARKS (object);
  GstClExposureMarksSettings *s = &self->set;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_MARKS:
      s->marks = g_value_get_flags (value);
      break;
    case PROP_ZEBRA_LEVEL:
      s->zebra_level = g_value_get_double (value);
      break;
    case PROP_ZEBRA_LOW_LEVEL:
      s->zebra_low_level = g_value_get_double (value);
      break;
    case PROP_ZEBRA_PERIOD:
      s->zebra_period = g_value_get_uint (value);
      break;
    case PROP_ZEBRA_MOVING:
      s->zebra_moving = g_value_get_boolean (value);
      break;
    case PROP_ZEBRA_COLOUR:
      s->zebra_colour = g_value_get_uint (value);
      break;
    case PROP_ZEBRA_LOW_COLOUR:
      s->zebra_low_colour = g_value_get_uint (value);
      break;
    case PROP_BANDS:
      set_bands (s, g_value_get_string (value));
      break;
    case PROP_BRNG_COLOUR:
      s->brng_colour = g_value_get_uint (value);
      break;
    case PROP_LEGEND:
      s->legend = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cl_exposure_marks_get_property (GObject *object, guint prop_id,
    GValue *value, GParamSpec *pspec)
{
  GstClExposureMarks *self = GST_CL_EXPOSURE_MARKS (object);
  const GstClExposureMarksSettings *s = &self->set;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_MARKS:
      g_value_set_flags (value, s->marks);
      break;
    case PROP_ZEBRA_LEVEL:
      g_value_set_double (value, s->zebra_level);
      break;
    case PROP_ZEBRA_LOW_LEVEL:
      g_value_set_double (value, s->zebra_low_level);
      break;
    case PROP_ZEBRA_PERIOD:
      g_value_set_uint (value, s->zebra_period);
      break;
    case PROP_ZEBRA_MOVING:
      g_value_set_boolean (value, s->zebra_moving);
      break;
    case PROP_ZEBRA_COLOUR:
      g_value_set_uint (value, s->zebra_colour);
      break;
    case PROP_ZEBRA_LOW_COLOUR:
      g_value_set_uint (value, s->zebra_low_colour);
      break;
    case PROP_BANDS:
      g_value_set_string (value, s->bands_text);
      break;
    case PROP_BRNG_COLOUR:
      g_value_set_uint (value, s->brng_colour);
      break;
    case PROP_LEGEND:
      g_value_set_enum (value, s->legend);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* GObject calls this once the properties of a g_object_set() (or of the
 * outermost g_object_freeze_notify() ... g_object_thaw_notify(), as
 * gst_object_sync_values() holds around a controller's values) are all
 * stored: they apply here together, so that no frame sees a new level
 * with the old marks. */
static void
gst_cl_exposure_marks_dispatch_properties_changed (GObject *object,
    guint n_pspecs, GParamSpec **pspecs)
{
  GstClExposureMarks *self = GST_CL_EXPOSURE_MARKS (object);

  GST_OBJECT_LOCK (self);
  settings_copy (&self->applied, &self->set);
  GST_OBJECT_UNLOCK (self);
  G_OBJECT_CLASS (parent_class)->dispatch_properties_changed (object,
      n_pspecs, pspecs);
}

static void
gst_cl_exposure_marks_finalize (GObject *object)
{
  GstClExposureMarks *self = GST_CL_EXPOSURE_MARKS (object);

  settings_clear (&self->set);
  settings_clear (&self->applied);
  settings_clear (&self->frame_settings);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

#define PLAYING_PROPERTY (G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING \
    | GST_PARAM_CONTROLLABLE | G_PARAM_STATIC_STRINGS)

static void
install_colour (GObjectClass *gobject_class, guint prop_id,
    const gchar *name, const gchar *nick, const gchar *blurb,
    guint32 default_rgb)
{
  g_object_class_install_property (gobject_class, prop_id,
      g_param_spec_uint (name, nick, blurb, 0, 0xffffff, default_rgb,
          PLAYING_PROPERTY));
}

static void
install_properties (GObjectClass *gobject_class)
{
  g_object_class_install_property (gobject_class, PROP_MARKS,
      g_param_spec_flags ("marks", "Marks", "The marks drawn on the picture",
          GST_TYPE_CL_EXPOSURE_MARKS_FLAGS, DEFAULT_MARKS,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING
          | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_ZEBRA_LEVEL,
      g_param_spec_double ("zebra-level", "Zebra level",
          "Luma level, percent of the nominal range (0 black, 100 white), "
          "at and above which the zebra stripes the picture", -100.0, 200.0,
          DEFAULT_ZEBRA_LEVEL, PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_ZEBRA_LOW_LEVEL,
      g_param_spec_double ("zebra-low-level", "Low zebra level",
          "Luma level, percent of the nominal range, at and below which "
          "the low zebra stripes the picture", -100.0, 200.0,
          DEFAULT_ZEBRA_LOW_LEVEL, PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_ZEBRA_PERIOD,
      g_param_spec_uint ("zebra-period", "Zebra period",
          "Pixels from one zebra stripe to the next (half of them striped)",
          2, CLH_MARKS_MAX_PERIOD, DEFAULT_ZEBRA_PERIOD, PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_ZEBRA_MOVING,
      g_param_spec_boolean ("zebra-moving", "Moving zebra",
          "Move the stripes a pixel a frame, as a monitor's crawl",
          DEFAULT_ZEBRA_MOVING, PLAYING_PROPERTY));
  install_colour (gobject_class, PROP_ZEBRA_COLOUR, "zebra-colour",
      "Zebra colour", "Colour of the zebra's stripes, 0xRRGGBB",
      DEFAULT_ZEBRA_COLOUR);
  install_colour (gobject_class, PROP_ZEBRA_LOW_COLOUR, "zebra-low-colour",
      "Low zebra colour", "Colour of the low zebra's stripes, 0xRRGGBB",
      DEFAULT_ZEBRA_LOW_COLOUR);
  /**
   * GstClExposureMarks:bands:
   *
   * The false-colour table: bands separated by commas, from the lowest
   * luma up; the first is a colour alone (from the lowest code), each
   * other `LEVEL:COLOUR`, LEVEL its lower edge in percent of the nominal
   * range. A colour is a name (black, white, red, green, blue, yellow,
   * cyan, magenta, purple, pink, orange), `#RRGGBB`, `grey` (the pixel's
   * luma as grey) or `none` (the pixel as it is); 1 to 16 bands. The
   * default follows ARRI cameras' false colour: purple under 2.5%
   * (crushed), blue to 4%, green 38-42% (18% grey), pink 52-56% (one stop
   * over: skin), yellow 97-99%, red from 99% (clipping), grey between.
   */
  g_object_class_install_property (gobject_class, PROP_BANDS,
      g_param_spec_string ("bands", "False-colour bands",
          "False-colour table: \"COLOUR, LEVEL:COLOUR, ...\" from the "
          "lowest luma up, levels in percent of the nominal range, colours "
          "by name, #RRGGBB, grey or none", GST_CL_MARK_BANDS_DEFAULT,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING
          | G_PARAM_STATIC_STRINGS));
  install_colour (gobject_class, PROP_BRNG_COLOUR, "brng-colour",
      "BRNG colour", "Colour of the pixels outside the broadcast range, "
      "0xRRGGBB (signalstats' default: yellow)", DEFAULT_BRNG_COLOUR);
  /**
   * GstClExposureMarks:legend:
   *
   * Where the false colour's legend goes: a key of each coloured band's
   * swatch and range in percent, highest on top, white on black, its
   * font one pixel larger every 360 rows of the frame. None on a frame
   * too small for it, and none without `false-colour`.
   */
  g_object_class_install_property (gobject_class, PROP_LEGEND,
      g_param_spec_enum ("legend", "Legend", "Corner of the false colour's "
          "legend (each coloured band's swatch and range), or none",
          GST_TYPE_CL_EXPOSURE_MARKS_LEGEND, DEFAULT_LEGEND,
          PLAYING_PROPERTY));
}

static void
gst_cl_exposure_marks_class_init (GstClExposureMarksClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstClBaseTransformClass *base_class = GST_CL_BASE_TRANSFORM_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (gst_cl_exposure_marks_debug, "clexposuremarks",
      0, "OpenCL exposure marks");

  gobject_class->set_property = gst_cl_exposure_marks_set_property;
  gobject_class->get_property = gst_cl_exposure_marks_get_property;
  gobject_class->dispatch_properties_changed =
      gst_cl_exposure_marks_dispatch_properties_changed;
  gobject_class->finalize = gst_cl_exposure_marks_finalize;
  install_properties (gobject_class);

  gst_element_class_set_static_metadata (element_class,
      "OpenCL exposure marks", "Filter/Effect/Video",
      "Zebra stripes, false colour and out-of-range pixels marked on the "
      "picture, on an OpenCL device", "clhistogram developers");
  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  trans_class->start = GST_DEBUG_FUNCPTR (gst_cl_exposure_marks_start);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_cl_exposure_marks_before_transform);
  trans_class->prepare_output_buffer =
      GST_DEBUG_FUNCPTR (gst_cl_exposure_marks_prepare_output_buffer);
  trans_class->transform_ip =
      GST_DEBUG_FUNCPTR (gst_cl_exposure_marks_transform_ip);
  base_class->doing = "marking";
  base_class->done = "marked";
  base_class->open = GST_DEBUG_FUNCPTR (gst_cl_exposure_marks_open);
  base_class->close = GST_DEBUG_FUNCPTR (gst_cl_exposure_marks_close);

  gst_type_mark_as_plugin_api (GST_TYPE_CL_EXPOSURE_MARKS_FLAGS, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_EXPOSURE_MARKS_LEGEND, 0);
}

static void
gst_cl_exposure_marks_init (GstClExposureMarks *self)
{
  GstClExposureMarksSettings *s = &self->set;

  /* In place, dropping late frames, as a GstVideoFilter without
   * transform_frame is. */
  gst_base_transform_set_in_place (GST_BASE_TRANSFORM (self), TRUE);
  gst_base_transform_set_qos_enabled (GST_BASE_TRANSFORM (self), TRUE);
  s->marks = DEFAULT_MARKS;
  s->zebra_level = DEFAULT_ZEBRA_LEVEL;
  s->zebra_low_level = DEFAULT_ZEBRA_LOW_LEVEL;
  s->zebra_period = DEFAULT_ZEBRA_PERIOD;
  s->zebra_moving = DEFAULT_ZEBRA_MOVING;
  s->zebra_colour = DEFAULT_ZEBRA_COLOUR;
  s->zebra_low_colour = DEFAULT_ZEBRA_LOW_COLOUR;
  s->brng_colour = DEFAULT_BRNG_COLOUR;
  s->legend = DEFAULT_LEGEND;
  set_bands (s, GST_CL_MARK_BANDS_DEFAULT);
  settings_copy (&self->applied, s);
}
