/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A fuzzer for what the plugin's elements read from outside: caps, buffer
 * sizes, GstVideoMeta (format, size, planes, offsets, strides),
 * GstVideoCropMeta and GstVideoRegionOfInterestMeta rectangles, property
 * values within their ranges and their changes between frames. One input
 * is a string of bytes read as those choices (fuzz_one()), run through
 * clhistogram, then through histogramoverlay, clbackproject and clcamshift.
 * Whatever it holds, each frame must come out (from clhistogram with a
 * histogram that accounts for its samples, equal to the golden reference
 * when no crop applies) or end in a clean element error, with no CRITICAL
 * or WARNING (fatal here) and no crash; under AddressSanitizer, no access
 * past a buffer.
 *
 * The same input is then read again for exposure monitoring (the entries
 * of fuzzed[] marked so, which leave the first reading, and so the kept
 * cases, as they were): the caps' range, timestamps, the edges of every
 * property's range (clip levels, alerts, metering and its weights, zones,
 * the overlay's box, thresholds and text, every property of
 * clexposuremarks and of the scopes, clscope and clscopeoverlay, band
 * tables that are none), and, for histogramoverlay,
 * hostile metas: zones anywhere (up to 2^32 - 1), statistics with no
 * samples or more clipped samples than samples, odd depths, ranges and
 * channel names, metering values that are not numbers. There clhistogram's
 * statistics must equal the reference's at the frame's clip levels (the
 * full frame's and its zones'), its metering value lie within the frame's
 * luma, its messages leave the counts out when message-counts said so,
 * and its `exposure` messages start only what is off and clear only what
 * is on, naming what is on afterwards (each zone with its place), with
 * nothing left on once the alerts are off; clexposuremarks with no marks passes the buffer as it
 * came.
 *
 *   clhistogram-fuzz [--seed S] [--seconds T] [--runs N] [CASE_FILE...]
 *
 * Case files are run first (tests/fuzz-cases/: every input that ever
 * failed); then random inputs from --seed until --seconds or --runs. The
 * input being run is kept in clhistogram-fuzz-input.bin, so that a crash
 * leaves it behind to be added to the cases. Built with -Dfuzzer=enabled
 * (clang), LLVMFuzzerTestOneInput() drives fuzz_one() instead. */
#include <math.h>
#include <glib/gstdio.h>
#include <gst/gst.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <gst/clhistogram/clhistogram.h>

#include "clh-reference-frame.h"
#include "clh-reference-stats.h"

typedef struct {
  const guint8 *data;
  gsize size;
  gsize pos;
} Input;

static guint
take (Input *in, guint n)
{
  guint v = 0, i;

  for (i = 0; i < n; i++)
    v = v << 8 | (in->pos < in->size ? in->data[in->pos++] : 0);
  return v;
}

static guint
take_below (Input *in, guint n)
{
  return n ? take (in, 2) % n : 0;
}

static const gchar *const formats[] = {
  "GRAY8", "GRAY16_LE", "GRAY16_BE", "RGB", "BGR", "RGBA", "BGRA", "ARGB",
  "ABGR", "RGBx", "BGRx", "xRGB", "xBGR", "I420", "YV12", "Y41B", "Y42B",
  "Y444", "YUV9", "YVU9", "NV12", "NV21", "NV16", "NV61", "NV24", "YUY2",
  "UYVY", "YVYU", "VYUY", "I420_10LE", "I420_10BE", "I420_12LE",
  "I422_10LE", "I422_12LE", "Y444_10LE", "Y444_10BE", "Y444_12LE",
  "Y444_16LE", "P010_10LE", "P012_LE", "P016_LE",
  /* Not read in place: negotiation must refuse them. */
  "v210", "AYUV64",
};

/* A size edge: mostly small, sometimes the largest the caps allow. */
static guint
take_edge (Input *in)
{
  const guint v = take (in, 1);

  if (v == 255)
    return 16384;
  if (v == 254)
    return 4000 + take_below (in, 400);
  return 1 + v % 97;
}

/* A double of lo..hi; with @edges, often an end of the range, a step
 * inside it, the default or the smallest positive double. */
static gdouble
take_double (Input *in, gdouble lo, gdouble hi, gdouble def, gboolean edges)
{
  if (edges) {
    switch (take (in, 1) % 8) {
      case 0:
        return lo;
      case 1:
        return hi;
      case 2:
        return def;
      case 3:
        return nextafter (lo, hi);
      case 4:
        return nextafter (hi, lo);
      case 5:
        /* The smallest subnormal: above 0, but not by much. */
        return CLAMP (4.9406564584124654e-324, lo, hi);
      default:
        break;
    }
  }
  return lo + (hi - lo) * take (in, 2) / 65535.0;
}

/* An integer of lo..hi; with @edges, often an end or one step inside. */
static gint64
take_int_edge (Input *in, gint64 lo, gint64 hi, gboolean *picked)
{
  const guint how = take (in, 1) % 4;

  *picked = how < 3;
  return how == 0 ? lo : how == 1 ? hi : MIN (lo + 1, hi);
}

/* A 64-bit value of lo..hi: an end, a running time of a few frames or
 * seconds, or any. */
static guint64
take_uint64 (Input *in, guint64 lo, guint64 hi)
{
  guint64 v;

  switch (take (in, 1) % 6) {
    case 0:
      v = lo;
      break;
    case 1:
      v = hi;
      break;
    case 2:
      v = hi - 1;
      break;
    case 3:
      v = (guint64) take (in, 1) * GST_MSECOND;
      break;
    case 4:
      v = (guint64) take (in, 2) * GST_MSECOND;
      break;
    default:
      v = (guint64) take (in, 4) << 32 | take (in, 4);
      break;
  }
  return CLAMP (v, lo, hi);
}

/* A level of a false-colour band as text: numbers, ends of the range,
 * numbers a double does not hold, and things that are none. */
static const gchar *const band_levels[] = {
  "0", "2.5", "38", "97", "99", "100", "-100", "150", "1e308", "-1e308",
  "1e400", "nan", "inf", "", " ", "abc", "5%", "0x10", "-0", "99.9999999",
};
static const gchar *const band_looks[] = {
  "red", "grey", "gray", "none", "purple", "#00ff00", "#FFFFFF", "0x123456",
  "#fff", "#GGGGGG", "#1234567", "", "  blue  ", "Red", "0x", "#",
  "\xff\xfe", "transparent",
};

/* A false-colour table, mostly well formed, from the input. */
static gchar *
take_bands (Input *in)
{
  GString *text = g_string_new (NULL);
  const guint n = take (in, 1) % 19;
  guint i;

  for (i = 0; i < n; i++) {
    const guint how = take (in, 1);

    if (i > 0)
      g_string_append (text, how & 1 ? "," : ", ");
    /* The first band has no level, the others one; now and then not. */
    if ((i > 0) != ((how & 0x30) == 0x30)) {
      if (how & 2)
        g_string_append (text, band_levels[take_below (in,
                    G_N_ELEMENTS (band_levels))]);
      else
        g_string_append_printf (text, "%u", take (in, 1));
      g_string_append_c (text, ':');
    }
    g_string_append (text, band_looks[take_below (in,
                G_N_ELEMENTS (band_looks))]);
  }
  return g_string_free (text, FALSE);
}

/* A string for property @name: a zone grid (mostly "CxR", sometimes
 * none) or a false-colour table. */
static gchar *
take_string (Input *in, const gchar *name)
{
  static const gchar *const odd_grids[] = {
    "", "x", "5x", "x5", "1x1x1", "-1x3", "4294967297x1", "5X5", " 3x3",
    "3x3 ", "0x0", "65x1", "1x65", "64x64", "\xff", "3x3\n", "+2x+2",
  };

  if (g_str_equal (name, "zones")) {
    if (take (in, 1) & 1)
      return g_strdup (odd_grids[take_below (in, G_N_ELEMENTS (odd_grids))]);
    return g_strdup_printf ("%ux%u", take (in, 1) % 70, take (in, 1) % 70);
  }
  if (g_str_equal (name, "bands"))
    return take_bands (in);
  g_error ("the fuzzer has no strings for %s", name);
  return NULL;
}

/* A GstValueArray of doubles within @element's range, of a length around
 * the limits the elements set (32 percentiles, 4096 weights) or a zone
 * grid's. */
static void
take_double_array (Input *in, GParamSpec *element, GValue *array)
{
  static const guint lengths[] = { 0, 1, 4, 9, 25, 32, 33, 4096, 4097 };
  GParamSpecDouble *d = G_PARAM_SPEC_DOUBLE (element);
  const guint how = take (in, 1);
  const guint n = how & 1 ? lengths[how / 2 % G_N_ELEMENTS (lengths)] :
      how / 2 % 70;
  guint i;

  for (i = 0; i < n; i++) {
    GValue v = G_VALUE_INIT;

    g_value_init (&v, G_TYPE_DOUBLE);
    g_value_set_double (&v, take_double (in, d->minimum, d->maximum,
            d->default_value, TRUE));
    gst_value_array_append_and_take_value (array, &v);
  }
}

/* Sets @name to a value within its declared range, from the input; with
 * @edges (the exposure entries), numbers are often the ends of their
 * range. Values GLib would refuse (out of range, NaN) are never set:
 * GLib stops them with a warning before any element sees them. */
static void
take_property (Input *in, GstElement *e, const gchar *name, gboolean edges)
{
  GParamSpec *p = g_object_class_find_property (G_OBJECT_GET_CLASS (e), name);
  GValue v = G_VALUE_INIT;
  gboolean picked = FALSE;
  gint64 edge = 0;

  g_assert (p);
  g_value_init (&v, p->value_type);
  if (G_IS_PARAM_SPEC_UINT (p)) {
    GParamSpecUInt *u = G_PARAM_SPEC_UINT (p);
    const guint span = MIN (u->maximum - u->minimum, 70000);

    if (edges)
      edge = take_int_edge (in, u->minimum, u->maximum, &picked);
    g_value_set_uint (&v, picked ? (guint) edge :
        u->minimum + take_below (in, span + 1));
  } else if (G_IS_PARAM_SPEC_INT (p)) {
    GParamSpecInt *i = G_PARAM_SPEC_INT (p);
    /* In 64 bits: G_MAXINT - G_MININT does not fit a gint. */
    const gint64 span = MIN ((gint64) i->maximum - i->minimum, 70000);

    if (edges)
      edge = take_int_edge (in, i->minimum, i->maximum, &picked);
    if (picked)
      g_value_set_int (&v, (gint) edge);
    else
      g_value_set_int (&v, take (in, 1) < 128 ? MAX (i->minimum, -1) :
          (gint) (i->minimum + (gint64) take_below (in, (guint) span + 1)));
  } else if (G_IS_PARAM_SPEC_UINT64 (p)) {
    GParamSpecUInt64 *u = G_PARAM_SPEC_UINT64 (p);

    g_value_set_uint64 (&v, take_uint64 (in, u->minimum, u->maximum));
  } else if (G_IS_PARAM_SPEC_BOOLEAN (p)) {
    g_value_set_boolean (&v, take (in, 1) & 1);
  } else if (G_IS_PARAM_SPEC_DOUBLE (p)) {
    GParamSpecDouble *d = G_PARAM_SPEC_DOUBLE (p);
    const gdouble lo = MAX (d->minimum, -1e6), hi = MIN (d->maximum, 1e6);

    g_value_set_double (&v, take_double (in, lo, hi, d->default_value,
            edges));
  } else if (G_IS_PARAM_SPEC_ENUM (p)) {
    GEnumClass *k = G_PARAM_SPEC_ENUM (p)->enum_class;
    g_value_set_enum (&v, k->values[take_below (in, k->n_values)].value);
  } else if (G_IS_PARAM_SPEC_FLAGS (p)) {
    g_value_set_flags (&v, take (in, 2) & G_PARAM_SPEC_FLAGS (p)->
        flags_class->mask);
  } else if (G_IS_PARAM_SPEC_STRING (p)) {
    g_value_take_string (&v, take_string (in, name));
  } else if (GST_IS_PARAM_SPEC_ARRAY_LIST (p)
      && G_IS_PARAM_SPEC_DOUBLE (GST_PARAM_SPEC_ARRAY_LIST (p)->element_spec)) {
    take_double_array (in, GST_PARAM_SPEC_ARRAY_LIST (p)->element_spec, &v);
  } else {
    g_error ("the fuzzer cannot set %s's %s", G_OBJECT_TYPE_NAME (e), name);
  }
  /* What GObject itself would refuse is GObject's to judge, not the
   * element's: the value goes in as the param spec takes it. Under
   * AddressSanitizer, at times, GStreamer 1.22 judged an array of doubles
   * all within the element spec's range out of it (a GObject warning,
   * fatal here). */
  g_param_value_validate (p, &v);
  g_object_set_property (G_OBJECT (e), name, &v);
  g_value_unset (&v);
}

/* The elements fuzzed, each with the properties the input changes (NULL
 * ended); @exposure entries read the input again for exposure
 * monitoring (the header comment). */
typedef struct {
  const gchar *factory;
  gboolean exposure;
  const gchar *names[24];
} Fuzzed;

static const Fuzzed fuzzed[] = {
  {"clhistogram", FALSE, {"mode", "bins", "range-min", "range-max",
          "min-saturation", "min-value", "post-messages", "attach-meta",
          "max-frames-in-flight", NULL}},
  {"histogramoverlay", FALSE, {"x", "y", "width", "height", "alpha",
          "log-scale", NULL}},
  {"clbackproject", FALSE, {"mode", "bins", "scale", "min-saturation",
          "min-value", "max-value", NULL}},
  /* Not max-iterations: up to 70,000 mean-shift steps a frame only
   * take time. */
  {"clcamshift", FALSE, {"bins", "min-saturation", "min-value",
          "max-value", "epsilon", "post-messages", NULL}},
  {"clhistogram", TRUE, {"clip-low-level", "clip-high-level",
          "message-counts", "alert-clipped", "alert-crushed",
          "alert-hysteresis", "alert-hold", "metering", "metering-weights",
          "zones", "mode", "statistics", "percentiles", "full-frame",
          "max-frames-in-flight", "post-messages", NULL}},
  {"histogramoverlay", TRUE, {"size", "corner", "graticule", "legal-marks",
          "legend", "clipping-text", "clip-indicators", "zones",
          "zone-clipped", "zone-crushed", "zone-labels", "alpha",
          "log-scale", "x", "y", "width", "height", NULL}},
  {"clexposuremarks", TRUE, {"marks", "zebra-level", "zebra-low-level",
          "zebra-period", "zebra-moving", "zebra-colour", "zebra-low-colour",
          "brng-colour", "bands", "legend", NULL}},
  /* The scopes read no metas of histograms, but every video meta, crop,
   * size and format the others do. */
  {"clscope", TRUE, {"scopes", "scale", "graticule", "intensity",
          "vectorscope-zoom", NULL}},
  {"clscopeoverlay", TRUE, {"scopes", "scale", "graticule", "intensity",
          "vectorscope-zoom", "corner", "size", "alpha", NULL}},
};

static void
take_properties (Input *in, GstElement *e, const Fuzzed *f)
{
  guint n = take (in, 1) % 4, n_names = g_strv_length ((gchar **) f->names);
  guint i;

  for (i = 0; i < n; i++)
    take_property (in, e, f->names[take_below (in, n_names)], f->exposure);
}

/* What the other elements need to read every frame: a model for
 * clbackproject (of its default mode's and bins' length), a window for
 * clcamshift (from the input) and the ROI metas it may start tracks from,
 * a graph over the frame for histogramoverlay. */
static void
set_up (Input *in, GstElement *e, const Fuzzed *f, guint width, guint height)
{
  /* The exposure entries' overlay keeps its box relative to the frame
   * half of the time. */
  if (f->exposure && take (in, 1) & 1)
    return;
  if (g_str_equal (f->factory, "clhistogram")) {
    static const guint64 holds[] = {
      0, 1, GST_MSECOND, GST_SECOND / 30, 200 * GST_MSECOND,
    };
    gchar *zones = g_strdup_printf ("%ux%u", take (in, 1) % 7,
        take (in, 1) % 7);

    /* Alerts that start and clear within a few frames, on zones. */
    g_object_set (e, "alert-clipped", (gdouble) (take (in, 1) % 60),
        "alert-crushed", (gdouble) (take (in, 1) % 60), "alert-hold",
        holds[take_below (in, G_N_ELEMENTS (holds))], "zones", zones, NULL);
    g_free (zones);
  } else if (g_str_equal (f->factory, "histogramoverlay")) {
    g_object_set (e, "x", 0, "y", 0, "width", (gint) width, "height",
        (gint) height, "alpha", 1.0, NULL);
  } else if (g_str_equal (f->factory, "clbackproject")) {
    gst_util_set_object_arg (G_OBJECT (e), "model", "<1.0, 2.0, 3.0, 4.0, "
        "5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0>");
  } else if (g_str_equal (f->factory, "clcamshift")) {
    gchar *window = g_strdup_printf ("<%d, %d, %d, %d>",
        (gint) take_below (in, width + 2), (gint) take_below (in, height + 2),
        1 + (gint) take_below (in, width + 2),
        1 + (gint) take_below (in, height + 2));

    gst_util_set_object_arg (G_OBJECT (e), "window", window);
    g_object_set (e, "track-type", "face", NULL);
    g_free (window);
  }
}

/* A luma histogram of the frame for histogramoverlay to draw. */
static void
add_histogram (GstBuffer *b, guint width, guint height)
{
  const gchar *const names[] = { "Y" };
  const guint32 counts[4] = { 3, 1, 4, 1 };
  const guint shape[1] = { 4 };
  const GstHistogramRegion frame = { GST_HISTOGRAM_REGION_FRAME, 0, 0, 0,
    width, height
  };
  GstHistogramInfo info;

  gst_histogram_info_init (&info);
  g_assert_true (gst_histogram_info_set_format (&info,
          GST_HISTOGRAM_MODE_LUMA, 1, names, 1, shape));
  gst_buffer_add_histogram_meta (b, &info, &frame, counts, 4);
}

/* A count of @samples: none, one, half, all, one more than all (wrapping
 * at 2^64), the most there can be, or any. */
static guint64
take_count (Input *in, guint64 samples)
{
  switch (take (in, 1) % 8) {
    case 0:
      return 0;
    case 1:
      return 1;
    case 2:
      return samples / 2;
    case 3:
      return samples;
    case 4:
      return samples + 1;
    case 5:
      return G_MAXUINT64;
    default:
      return take (in, 4);
  }
}

static const gdouble odd_doubles[] = {
  0.0, -1.0, 128.5, 1e308, -1e308, NAN, INFINITY, -INFINITY,
};

/* Statistics for channel @c of @meta as an upstream element may make
 * them: no samples, more clipped (or out of legal range) than samples,
 * any min, max, mean (not a number too) and clip levels. What
 * gst_histogram_meta_set_statistics() refuses is not given. */
static void
take_hostile_statistics (Input *in, GstHistogramMeta *meta, guint c)
{
  static const guint64 samples[] = {
    0, 1, 3, 100, G_MAXUINT64 - 1, G_MAXUINT64,
  };
  GstHistogramStatistics st = { 0 };
  const guint how = take (in, 1);
  gdouble points[2] = { 0.0, 100.0 };
  guint values[2];

  st.flags = how & 3;
  st.samples = how & 4 ? meta->pixels : samples[take_below (in,
          G_N_ELEMENTS (samples))];
  st.below = how & 8 ? st.samples / 3 : 0;
  st.above = how & 16 ? st.samples - st.below : 0;
  st.min = take (in, 4);
  st.max = take (in, 4);
  st.mean = odd_doubles[take_below (in, G_N_ELEMENTS (odd_doubles))];
  st.clipped_low = take_count (in, st.samples);
  st.clipped_high = take_count (in, st.samples);
  st.below_legal = take_count (in, st.samples);
  st.above_legal = take_count (in, st.samples);
  st.clip_low_level = take (in, 4);
  st.clip_high_level = take (in, 4);
  if (how & 32) {
    values[0] = take (in, 4);
    values[1] = take (in, 4);
    st.n_percentiles = 2;
    st.percentile_points = points;
    st.percentiles = values;
  }
  g_assert_true (gst_histogram_meta_set_statistics (meta, c, &st));
}

static const gchar *const hostile_names[] = {
  "Y", "R", "G", "B", "U", "V", "max", "A", "hue", "\xff\xfe", "",
  "a channel whose name is far longer than any legend has room for",
};

/* A histogram in @region as an upstream element may attach it: up to 8
 * channels of any names, 1-D or 2-D, odd modes, depths, video ranges and
 * binned ranges (the low end over the high), counts of any size (all
 * 2^32 - 1 too), hostile statistics and metering values. The bins are
 * at most @max_bins. */
static void
take_hostile_meta (Input *in, GstBuffer *b, const GstHistogramRegion *region,
    guint max_bins)
{
  static const guint bins[] = { 1, 2, 4, 16, 255, 256, 1000, 4096, 65536 };
  static const guint depths[] = { 0, 1, 7, 8, 10, 12, 16, 17, 32, G_MAXUINT };
  static const guint ends[] = { 0, 15, 16, 235, 255, 1023, 65535, G_MAXUINT };
  static const GstHistogramMode modes[] = {
    GST_HISTOGRAM_MODE_LUMA, GST_HISTOGRAM_MODE_CHANNELS,
    GST_HISTOGRAM_MODE_MAX, GST_HISTOGRAM_MODE_HUE,
    GST_HISTOGRAM_MODE_HUE_SATURATION, (GstHistogramMode) 77,
  };
  const gchar *names[GST_HISTOGRAM_INFO_MAX_CHANNELS];
  const guint n_channels = 1 + take (in, 1) % GST_HISTOGRAM_INFO_MAX_CHANNELS;
  const guint n_dims = take (in, 1) % 8 == 0 ? 2 : 1;
  guint shape[2], c;
  GstHistogramInfo info;
  GstHistogramMeta *meta;
  guint32 *counts, seed;
  gsize n, i;
  guint how;

  shape[0] = MIN (bins[take_below (in, G_N_ELEMENTS (bins))], max_bins);
  shape[1] = 1 + take (in, 1) % 8;
  for (c = 0; c < n_channels; c++)
    names[c] = hostile_names[take_below (in, G_N_ELEMENTS (hostile_names))];
  gst_histogram_info_init (&info);
  g_assert_true (gst_histogram_info_set_format (&info,
          GST_HISTOGRAM_MODE_LUMA, n_channels, names, n_dims, shape));
  info.mode = modes[take_below (in, G_N_ELEMENTS (modes))];
  info.depth = depths[take_below (in, G_N_ELEMENTS (depths))];
  info.video_range = (GstVideoColorRange) (take (in, 1) % 4);
  info.range_min = take (in, 1) & 1 ? 0 : ends[take_below (in,
          G_N_ELEMENTS (ends))];
  info.range_max = take (in, 1) & 1 ? 255 : ends[take_below (in,
          G_N_ELEMENTS (ends))];

  n = (gsize) info.n_channels * info.n_bins;
  counts = g_new (guint32, n);
  how = take (in, 1) % 4;
  seed = take (in, 4);
  for (i = 0; i < n; i++) {
    seed = seed * 1664525u + 1013904223u;
    counts[i] = how == 0 ? 0 : how == 1 ? G_MAXUINT32 : how == 2 ?
        seed >> (seed & 31) : (i == n / 2 ? G_MAXUINT32 : seed >> 28);
  }
  meta = gst_buffer_add_histogram_meta (b, &info, region, counts, n);
  g_assert_nonnull (meta);
  g_free (counts);
  for (c = 0; c < n_channels; c++)
    take_hostile_statistics (in, meta, c);
  if (take (in, 1) % 4 == 0)
    gst_histogram_meta_set_metering (meta,
        odd_doubles[take_below (in, G_N_ELEMENTS (odd_doubles))],
        odd_doubles[take_below (in, G_N_ELEMENTS (odd_doubles))]);
}

/* A coordinate or side of a rectangle on a side of @size pixels: 0, 1,
 * inside, the whole side, past it, or near 2^32. */
static guint
take_side (Input *in, guint size)
{
  switch (take (in, 1) % 6) {
    case 0:
      return 0;
    case 1:
      return 1;
    case 2:
      return size;
    case 3:
      return G_MAXUINT - take (in, 1);
    case 4:
      return size + take (in, 1);
    default:
      return take_below (in, size + 1);
  }
}

/* What histogramoverlay finds on a frame from a hostile upstream: a
 * full-frame histogram or none (or two), and up to 69 zones (some not
 * called so) anywhere. */
static void
add_hostile_metas (Input *in, GstBuffer *b, guint width, guint height)
{
  static const gchar *const types[] = {
    "zone", "zone", "zone", "zone", "region", "frame", "face",
  };
  const guint how = take (in, 1);
  const guint n_zones = how & 4 ? take (in, 1) % 70 : take (in, 1) % 10;
  guint i;

  if (how & 1) {
    const GstHistogramRegion frame = { GST_HISTOGRAM_REGION_FRAME, 0, 0, 0,
      width, height
    };

    take_hostile_meta (in, b, &frame, G_MAXUINT);
    if (how & 2)
      take_hostile_meta (in, b, &frame, 256);
  }
  for (i = 0; i < n_zones; i++) {
    GstHistogramRegion zone = { types[take_below (in, G_N_ELEMENTS (types))],
      (gint) take (in, 4), 0, 0, 0, 0
    };

    zone.x = take_side (in, width);
    zone.y = take_side (in, height);
    zone.width = take_side (in, width);
    zone.height = take_side (in, height);
    take_hostile_meta (in, b, &zone, 16);
  }
}

/* A GstVideoMeta mostly like the caps', with hostile changes. */
static void
take_video_meta (Input *in, GstBuffer *b, const GstVideoInfo *info)
{
  gsize offsets[GST_VIDEO_MAX_PLANES];
  gint strides[GST_VIDEO_MAX_PLANES];
  GstVideoFormat format = GST_VIDEO_INFO_FORMAT (info);
  guint width = GST_VIDEO_INFO_WIDTH (info);
  guint height = GST_VIDEO_INFO_HEIGHT (info);
  guint n_planes = GST_VIDEO_INFO_N_PLANES (info), p;
  const guint how = take (in, 1);

  for (p = 0; p < GST_VIDEO_MAX_PLANES; p++) {
    offsets[p] = GST_VIDEO_INFO_PLANE_OFFSET (info, p);
    strides[p] = GST_VIDEO_INFO_PLANE_STRIDE (info, p);
  }
  switch (how % 10) {
    case 0:
      format = gst_video_format_from_string (formats[take_below (in,
                  G_N_ELEMENTS (formats))]);
      break;
    case 1:
      n_planes = 1 + take_below (in, 4);
      break;
    case 2:
      width += take_below (in, 9) - 4;
      height += take_below (in, 9) - 4;
      break;
    case 3:
      offsets[take_below (in, 4)] = G_MAXSIZE - take (in, 2);
      break;
    case 4:
      offsets[take_below (in, 4)] += take (in, 2);
      break;
    case 5:
      strides[take_below (in, 4)] = (gint) take (in, 4);
      break;
    case 6:
      strides[take_below (in, 4)] -= take_below (in, 64);
      break;
    default:
      break;
  }
  gst_buffer_add_video_meta_full (b, GST_VIDEO_FRAME_FLAG_NONE, format,
      width, height, n_planes, offsets, strides);
}

/* A frame of @info's size, or of a hostile one, with hostile metas;
 * @exposure (the exposure entries) makes most frames plain (so that
 * their statistics are checked) and half of them one level throughout
 * (so that alerts start and clear as frames change). */
static GstBuffer *
take_buffer (Input *in, const GstVideoInfo *info, gboolean *crop,
    gboolean *vmeta, gboolean exposure)
{
  guint how = take (in, 1);
  gsize size = info->size;
  GstBuffer *b;
  GstMapInfo map;
  guint32 seed = take (in, 4);
  gboolean flat = FALSE;
  guint8 level = 0;
  gsize i;

  if (exposure) {
    const guint style = take (in, 1);

    if (style & 3)
      how = 2;
    flat = style & 4;
    level = take (in, 1);
  }
  if (how % 7 == 0)
    size = size > 0 ? take_below (in, MIN (size, 65535)) : 0;
  else if (how % 7 == 1)
    size += take (in, 1);
  b = gst_buffer_new_allocate (NULL, size, NULL);
  gst_buffer_map (b, &map, GST_MAP_WRITE);
  if (flat)
    memset (map.data, level, map.size);
  for (i = 0; i < map.size && !flat; i++) {
    seed = seed * 1664525u + 1013904223u;
    map.data[i] = seed >> 24;
  }
  gst_buffer_unmap (b, &map);
  *vmeta = how & 8;
  if (*vmeta)
    take_video_meta (in, b, info);
  *crop = how & 16;
  if (*crop) {
    GstVideoCropMeta *c = gst_buffer_add_video_crop_meta (b);
    c->x = take_below (in, GST_VIDEO_INFO_WIDTH (info) + 2);
    c->y = take_below (in, GST_VIDEO_INFO_HEIGHT (info) + 2);
    c->width = take_below (in, GST_VIDEO_INFO_WIDTH (info) + 2);
    c->height = take_below (in, GST_VIDEO_INFO_HEIGHT (info) + 2);
    if (how & 32)
      c->x = G_MAXUINT - take (in, 1);
  }
  if (how & 64)
    gst_buffer_add_video_region_of_interest_meta (b, "face",
        take (in, 2), take (in, 2), take (in, 2), take (in, 2));
  return b;
}

static gboolean
pop_error (GstBus *bus)
{
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  GError *err = NULL;

  if (!msg)
    return FALSE;
  gst_message_parse_error (msg, &err, NULL);
  g_assert (err && err->message && *err->message);
  g_clear_error (&err);
  gst_message_unref (msg);
  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR)))
    gst_message_unref (msg);
  return TRUE;
}

/* Every channel of @meta accounts for its samples. */
static void
check_accounts (GstHistogramMeta *meta)
{
  guint c, b, n_bins;

  for (c = 0; c < meta->info.n_channels; c++) {
    const guint32 *counts = gst_histogram_meta_get_counts (meta, c, &n_bins);
    guint64 sum = gst_histogram_meta_get_statistics (meta, c)->below
        + gst_histogram_meta_get_statistics (meta, c)->above;

    for (b = 0; b < n_bins; b++)
      sum += counts[b];
    /* Hue counts leave out pixels under the saturation and value masks. */
    if (meta->info.mode == GST_HISTOGRAM_MODE_HUE
        || meta->info.mode == GST_HISTOGRAM_MODE_HUE_SATURATION)
      g_assert_cmpuint (sum, <=,
          gst_histogram_meta_get_statistics (meta, c)->samples);
    else
      g_assert_cmpuint (sum, ==,
          gst_histogram_meta_get_statistics (meta, c)->samples);
  }
}

/* Every histogram's channels account for their samples; with no crop
 * and a meta (if any) describing the caps' frame, the full frame's counts
 * are the reference's. */
static void
check_output (GstBuffer *out, GstBuffer *in, const GstVideoInfo *info,
    gboolean exact)
{
  GstHistogramMeta *meta = gst_buffer_get_histogram_meta_for_region (out,
      GST_HISTOGRAM_REGION_FRAME, 0);
  GList *metas = gst_buffer_get_histogram_metas (out), *l;
  ClhHistogramSpec spec;
  ClhHistogram want;
  guint c, b, n_bins;

  for (l = metas; l; l = l->next)
    check_accounts (l->data);
  g_list_free (metas);
  /* The meta does not carry hue's masks: those are checked above only. */
  if (!meta || !exact || meta->info.n_dims != 1
      || meta->info.mode == GST_HISTOGRAM_MODE_HUE)
    return;
  g_assert_true (clh_reference_histogram_of_buffer (info, in,
          gst_histogram_mode_get_nick (meta->info.mode), meta->info.shape[0],
          meta->info.range_min, meta->info.range_max, &spec, &want));
  for (c = 0; c < meta->info.n_channels; c++) {
    const guint32 *counts = gst_histogram_meta_get_counts (meta, c, &n_bins);
    for (b = 0; b < n_bins; b++)
      if (counts[b] != want.counts[c * n_bins + b])
        g_error ("%s %ux%u, mode %s, %u bins over %u..%u: channel %u bin %u "
            "is %u, the reference says %u", GST_VIDEO_INFO_NAME (info),
            GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
            gst_histogram_mode_get_nick (meta->info.mode), n_bins,
            meta->info.range_min, meta->info.range_max, c, b, counts[b],
            want.counts[c * n_bins + b]);
  }
  g_free (want.counts);
}

/* A frame sent, with what the element's properties were when it went
 * (the exposure entries check its output against them). */
typedef struct {
  GstBuffer *buffer;
  gboolean exact;
  gdouble clip_low, clip_high;
  gboolean message_counts;
  gboolean alerts_on;
  /* The metering property's nick. */
  const gchar *metering;
  guint marks;
} Sent;

/* What the exposure entries follow across an input: the frames' message
 * settings by timestamp, the alerts on after each `exposure` message
 * (the frame as G_MININT, zones by id), and the last frame out. */
typedef struct {
  GArray *sent_counts;
  GArray *active[2];
  gboolean last_out_alerts_on;
  gboolean last_out_counted;
  gboolean any_out;
} Watch;

typedef struct {
  GstClockTime pts;
  gboolean message_counts;
} SentCounts;

#define FRAME_AREA G_MININT

/* What the exposure entries checked, for the last line: histograms'
 * statistics, metering values, `histogram` messages matched to their
 * frame, `exposure` messages, frames drawn over with hostile metas, and
 * frames out of the scopes. */
static struct {
  guint64 statistics, metering, messages, exposure, hostile, scoped;
} checked;

/* A frame counted with a crop meta counts the crop's rectangle. */
static void
check_crop (GstBuffer *out, GstBuffer *in)
{
  GstHistogramMeta *meta = gst_buffer_get_histogram_meta_for_region (out,
      GST_HISTOGRAM_REGION_FRAME, 0);
  GstVideoCropMeta *crop = gst_buffer_get_video_crop_meta (in);

  if (!meta || !crop)
    return;
  g_assert_cmpuint (meta->region.width, ==, crop->width);
  g_assert_cmpuint (meta->region.height, ==, crop->height);
}

/* One histogram's statistics against the reference's at the clip levels
 * the frame went with: samples, min, max, the exact mean, percentiles,
 * the clip levels as code values and the samples at or beyond them, the
 * samples outside the legal range. */
static void
check_meta_statistics (GstHistogramMeta *meta, const Sent *s,
    const GstVideoInfo *info)
{
  const gboolean limited = GST_VIDEO_INFO_COLORIMETRY (info).range
      == GST_VIDEO_COLOR_RANGE_16_235;
  const GstHistogramStatistics *first =
      gst_histogram_meta_get_statistics (meta, 0);
  const gchar *mode = gst_histogram_mode_get_nick (meta->info.mode);
  const ClhRect rect = { (gint) meta->region.x, (gint) meta->region.y,
    (gint) meta->region.width, (gint) meta->region.height
  };
  ClhStats want[CLH_MAX_CHANNELS];
  guint c, i;

  if (!(first->flags & GST_HISTOGRAM_STATISTICS_FLAG_SUMMARY))
    return;
  g_assert_true (meta->info.mode == GST_HISTOGRAM_MODE_LUMA
      || meta->info.mode == GST_HISTOGRAM_MODE_CHANNELS
      || meta->info.mode == GST_HISTOGRAM_MODE_MAX);
  g_assert_cmpuint (meta->info.n_channels, <=, CLH_MAX_CHANNELS);
  if (!clh_reference_stats_of_buffer_region_clipped (info, s->buffer, mode,
          &rect, s->clip_low, s->clip_high, first->percentile_points,
          first->n_percentiles, want))
    return;
  for (c = 0; c < meta->info.n_channels; c++) {
    const GstHistogramStatistics *st =
        gst_histogram_meta_get_statistics (meta, c);
    const gchar *name = gst_histogram_meta_get_channel_name (meta, c);
    const gboolean chroma = g_str_equal (name, "U")
        || g_str_equal (name, "V");
    const guint low = clh_reference_clip_level (meta->info.depth, limited,
        chroma, s->clip_low);
    const guint high = clh_reference_clip_level (meta->info.depth, limited,
        chroma, s->clip_high);
    const gdouble mean = want[c].samples ? (gdouble) want[c].sum
        / (gdouble) want[c].samples : 0.0;
    gboolean same = st->samples == want[c].samples && st->min == want[c].min
        && st->max == want[c].max && st->mean == mean
        && st->clipped_low == want[c].clipped_low
        && st->clipped_high == want[c].clipped_high
        && st->clip_low_level == low && st->clip_high_level == high;

    if (st->flags & GST_HISTOGRAM_STATISTICS_FLAG_LEGAL_RANGE)
      same = same && st->below_legal == want[c].below_legal
          && st->above_legal == want[c].above_legal;
    for (i = 0; i < st->n_percentiles; i++)
      same = same && st->percentiles[i] == want[c].percentiles[i];
    if (!same)
      g_error ("%s %ux%u (%s range), mode %s, %s %d at %u,%u %ux%u, clip "
          "levels %.17g%% and %.17g%%, channel %s: samples %"
          G_GUINT64_FORMAT ", min %u, max %u, mean %.17g, clipped %"
          G_GUINT64_FORMAT " at or under %u and %" G_GUINT64_FORMAT
          " at or over %u; the reference says %" G_GUINT64_FORMAT ", %u, %u, "
          "%.17g, %" G_GUINT64_FORMAT " at or under %u and %" G_GUINT64_FORMAT
          " at or over %u", GST_VIDEO_INFO_NAME (info),
          GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
          limited ? "limited" : "full", mode, meta->region.type,
          meta->region.id, meta->region.x, meta->region.y,
          meta->region.width, meta->region.height, s->clip_low, s->clip_high,
          name, st->samples, st->min, st->max, st->mean, st->clipped_low,
          st->clip_low_level, st->clipped_high, st->clip_high_level,
          want[c].samples, want[c].min, want[c].max, mean,
          want[c].clipped_low, low, want[c].clipped_high, high);
  }
  checked.statistics++;
}

/* The statistics of the full frame and of the first zones, when the
 * frame is the caps' frame, uncropped. */
static void
check_statistics (GstBuffer *out, const Sent *s, const GstVideoInfo *info)
{
  GList *metas, *l;
  guint n_checked = 0;

  if (!s->exact)
    return;
  metas = gst_buffer_get_histogram_metas (out);
  for (l = metas; l && n_checked < 16; l = l->next) {
    GstHistogramMeta *meta = l->data;

    if (g_strcmp0 (meta->region.type, GST_HISTOGRAM_REGION_FRAME) != 0
        && g_strcmp0 (meta->region.type, "zone") != 0)
      continue;
    check_meta_statistics (meta, s, info);
    n_checked++;
  }
  g_list_free (metas);
}

/* The metering value is a number within the frame's luma, and, for
 * `average` with the full frame, its mean. */
static void
check_metering (GstBuffer *out, const Sent *s)
{
  GstHistogramMeta *meta = gst_buffer_get_histogram_meta (out);
  GstHistogramMeta *frame = gst_buffer_get_histogram_meta_for_region (out,
      GST_HISTOGRAM_REGION_FRAME, 0);
  const GstHistogramStatistics *luma;
  gdouble value, percent, slack;

  if (!meta || !gst_histogram_meta_get_metering (meta, &value, &percent))
    return;
  g_assert_cmpstr (s->metering, !=, "none");
  g_assert_true (isfinite (value) && isfinite (percent));
  if (!frame || g_strcmp0 (gst_histogram_meta_get_channel_name (frame, 0),
          "Y") != 0)
    return;
  luma = gst_histogram_meta_get_statistics (frame, 0);
  if (!(luma->flags & GST_HISTOGRAM_STATISTICS_FLAG_SUMMARY))
    return;
  slack = 1e-9 * MAX (1.0, luma->max);
  if (value < luma->min - slack || value > luma->max + slack)
    g_error ("metering=%s gave %.17g, outside the frame's luma %u..%u",
        s->metering, value, luma->min, luma->max);
  if (g_str_equal (s->metering, "average"))
    g_assert_cmpfloat (value, ==, luma->mean);
  checked.metering++;
}

/* Pulls what came out, each against the oldest frame sent. */
static void
pull_and_check (GstHarness *h, GQueue *sent, const GstVideoInfo *info,
    Watch *watch)
{
  GstBuffer *out;

  while ((out = gst_harness_try_pull (h))) {
    Sent *s = g_queue_pop_head (sent);

    g_assert_nonnull (s);
    check_output (out, s->buffer, info, s->exact);
    check_crop (out, s->buffer);
    if (watch) {
      check_statistics (out, s, info);
      check_metering (out, s);
      watch->any_out = TRUE;
      watch->last_out_alerts_on = s->alerts_on;
      watch->last_out_counted = gst_buffer_get_histogram_meta (out) != NULL;
    }
    gst_buffer_unref (out);
    gst_buffer_unref (s->buffer);
    g_free (s);
  }
}

/* clexposuremarks: a frame without marks leaves as the very buffer that
 * came. */
static void
pull_marked (GstHarness *h, GQueue *sent)
{
  GstBuffer *out;

  while ((out = gst_harness_try_pull (h))) {
    Sent *s = g_queue_pop_head (sent);

    g_assert_nonnull (s);
    if (s->marks == 0)
      g_assert_true (out == s->buffer);
    gst_buffer_unref (out);
    gst_buffer_unref (s->buffer);
    g_free (s);
  }
}

/* Drops whatever came out and was not pulled yet; returns how much. */
static guint
drop_output (GstHarness *h)
{
  GstBuffer *out;
  guint n = 0;

  while ((out = gst_harness_try_pull (h))) {
    gst_buffer_unref (out);
    n++;
  }
  return n;
}

static void
sent_free (gpointer data)
{
  Sent *s = data;

  gst_buffer_unref (s->buffer);
  g_free (s);
}

/* The element's settings now, kept with the frame about to go. */
static void
note_settings (GstElement *e, Sent *s)
{
  GObjectClass *k = G_OBJECT_GET_CLASS (e);

  s->message_counts = TRUE;
  if (g_object_class_find_property (k, "clip-low-level")) {
    GParamSpec *p = g_object_class_find_property (k, "metering");
    gdouble clipped, crushed;
    gint metering;

    g_object_get (e, "clip-low-level", &s->clip_low, "clip-high-level",
        &s->clip_high, "message-counts", &s->message_counts,
        "alert-clipped", &clipped, "alert-crushed", &crushed, "metering",
        &metering, NULL);
    s->alerts_on = clipped > 0.0 || crushed > 0.0;
    s->metering = g_enum_get_value (G_PARAM_SPEC_ENUM (p)->enum_class,
        metering)->value_nick;
  }
  if (g_object_class_find_property (k, "marks"))
    g_object_get (e, "marks", &s->marks, NULL);
}

/* A timestamp after @pts: a frame later, a nanosecond later, far later,
 * none (the alerts' hold cannot pass), or earlier. */
static GstClockTime
take_pts (Input *in, GstClockTime pts)
{
  const GstClockTime base = GST_CLOCK_TIME_IS_VALID (pts) ? pts : 0;

  switch (take (in, 1) % 8) {
    case 0:
      return base + 1;
    case 1:
      return base + (G_GUINT64_CONSTANT (1) << 60);
    case 2:
      return GST_CLOCK_TIME_NONE;
    case 3:
      return base / 2;
    case 4:
      return base + take (in, 1) * GST_MSECOND;
    default:
      return base + GST_SECOND / 30;
  }
}

/* A histogram of a message (the top level's or a region's) holds its
 * counts when, and only when, @message_counts. */
static void
check_counts_field (const GstStructure *st, gboolean message_counts)
{
  if (gst_structure_has_field (st, "counts") != message_counts)
    g_error ("a frame sent with message-counts=%s has a %s message %s "
        "counts", message_counts ? "true" : "false",
        gst_structure_get_name (st), message_counts ? "without" : "with");
}

/* The `histogram` message of a frame sent with message-counts FALSE has
 * no counts, and one sent with TRUE has them (frames whose timestamp is
 * not theirs alone aside). */
static void
check_histogram_message (const GstStructure *st, const Watch *watch)
{
  guint64 ts;
  const SentCounts *match = NULL;
  const GValue *regions;
  guint i, n = 0;

  g_assert_true (gst_structure_get_uint64 (st, "timestamp", &ts));
  for (i = 0; i < watch->sent_counts->len; i++) {
    const SentCounts *c = &g_array_index (watch->sent_counts, SentCounts, i);

    if (c->pts == ts) {
      match = c;
      n++;
    }
  }
  if (gst_structure_has_field (st, "metering")) {
    gdouble value;

    g_assert_true (gst_structure_get_double (st, "metering", &value));
    g_assert_true (isfinite (value));
  }
  if (n != 1 || !GST_CLOCK_TIME_IS_VALID (ts))
    return;
  /* Without the full frame the top level has no histogram of its own. */
  if (gst_structure_has_field (st, "samples"))
    check_counts_field (st, match->message_counts);
  regions = gst_structure_get_value (st, "regions");
  for (i = 0; i < gst_value_array_get_size (regions); i++)
    check_counts_field (gst_value_get_structure (gst_value_array_get_value
            (regions, i)), match->message_counts);
  checked.messages++;
}

static gboolean
area_is_on (const GArray *active, gint id)
{
  guint i;

  for (i = 0; i < active->len; i++)
    if (g_array_index (active, gint, i) == id)
      return TRUE;
  return FALSE;
}

/* Turns area @id on or off in @active, which must hold it off or on. */
static void
switch_area (GArray *active, gint id, gboolean start, const gchar *alert)
{
  guint i;

  if (start) {
    if (area_is_on (active, id))
      g_error ("the %s alert of area %d started while on", alert, id);
    g_array_append_val (active, id);
    return;
  }
  for (i = 0; i < active->len; i++)
    if (g_array_index (active, gint, i) == id) {
      g_array_remove_index (active, i);
      return;
    }
  g_error ("the %s alert of area %d cleared while off", alert, id);
}

/* The places of the zones of @ids (an `exposure` message's `zones` or
 * `active-zones`): @stem-row, @stem-column and @stem-position, one each,
 * a zone's column and row no more than its id, its position named. */
static void
check_places (const GstStructure *st, const gchar *ids, const gchar *stem)
{
  const GValue *zones = gst_structure_get_value (st, ids);
  gchar *names[3] = { g_strconcat (stem, "-row", NULL),
    g_strconcat (stem, "-column", NULL), g_strconcat (stem, "-position",
        NULL)
  };
  const GValue *rows = gst_structure_get_value (st, names[0]);
  const GValue *columns = gst_structure_get_value (st, names[1]);
  const GValue *positions = gst_structure_get_value (st, names[2]);
  guint i;

  g_assert_nonnull (rows);
  g_assert_nonnull (columns);
  g_assert_nonnull (positions);
  g_assert_cmpuint (gst_value_array_get_size (rows), ==,
      gst_value_array_get_size (zones));
  g_assert_cmpuint (gst_value_array_get_size (columns), ==,
      gst_value_array_get_size (zones));
  g_assert_cmpuint (gst_value_array_get_size (positions), ==,
      gst_value_array_get_size (zones));
  for (i = 0; i < gst_value_array_get_size (zones); i++) {
    const guint id = (guint) g_value_get_int (gst_value_array_get_value
        (zones, i));
    const gchar *position = g_value_get_string (gst_value_array_get_value
        (positions, i));

    g_assert_cmpuint (g_value_get_uint (gst_value_array_get_value (rows, i)),
        <=, id);
    g_assert_cmpuint (g_value_get_uint (gst_value_array_get_value (columns,
                i)), <=, id);
    g_assert_true (position && *position);
  }
  for (i = 0; i < G_N_ELEMENTS (names); i++)
    g_free (names[i]);
}

/* An `exposure` message starts only what is off and clears only what is
 * on; a start's shares reach its threshold; what it says is on
 * afterwards is what its starts and clears leave on; each zone has its
 * place. */
static void
check_exposure_message (const GstStructure *st, Watch *watch)
{
  const gchar *alert = gst_structure_get_string (st, "alert");
  const gchar *event = gst_structure_get_string (st, "event");
  const gboolean start = g_strcmp0 (event, "start") == 0;
  GArray *active;
  const GValue *zones, *percents, *on;
  gboolean frame, frame_active, any_active;
  gdouble threshold, percent;
  guint i;

  g_assert_true (g_strcmp0 (alert, "clipped") == 0
      || g_strcmp0 (alert, "crushed") == 0);
  g_assert_true (start || g_strcmp0 (event, "clear") == 0);
  active = watch->active[g_str_equal (alert, "crushed")];
  g_assert_true (gst_structure_get_double (st, "threshold", &threshold));
  g_assert_true (gst_structure_get_boolean (st, "frame", &frame));
  zones = gst_structure_get_value (st, "zones");
  percents = gst_structure_get_value (st, "zone-percent");
  g_assert_cmpuint (gst_value_array_get_size (zones), ==,
      gst_value_array_get_size (percents));
  g_assert_true (frame || gst_value_array_get_size (zones) > 0);
  if (start)
    g_assert_cmpfloat (threshold, >, 0.0);
  if (frame) {
    g_assert_true (gst_structure_get_double (st, "frame-percent", &percent));
    if (start)
      g_assert_cmpfloat (percent, >=, threshold);
    switch_area (active, FRAME_AREA, start, alert);
  }
  for (i = 0; i < gst_value_array_get_size (zones); i++) {
    percent = g_value_get_double (gst_value_array_get_value (percents, i));
    if (start)
      g_assert_cmpfloat (percent, >=, threshold);
    switch_area (active, g_value_get_int (gst_value_array_get_value (zones,
                i)), start, alert);
  }
  g_assert_true (gst_structure_get_boolean (st, "frame-active",
          &frame_active));
  g_assert_true (gst_structure_get_boolean (st, "active", &any_active));
  on = gst_structure_get_value (st, "active-zones");
  g_assert_true (frame_active == area_is_on (active, FRAME_AREA));
  g_assert_cmpuint (gst_value_array_get_size (on) + frame_active, ==,
      active->len);
  g_assert_true (any_active == (active->len > 0));
  for (i = 0; i < gst_value_array_get_size (on); i++)
    g_assert_true (area_is_on (active, g_value_get_int
            (gst_value_array_get_value (on, i))));
  check_places (st, "zones", "zone");
  check_places (st, "active-zones", "active-zone");
  checked.exposure++;
}

/* Reads every message on @bus in order; TRUE if one was an error (with
 * a text). */
static gboolean
check_messages (GstBus *bus, Watch *watch)
{
  gboolean error = FALSE;
  GstMessage *msg;

  while ((msg = gst_bus_pop (bus))) {
    const GstStructure *st = gst_message_get_structure (msg);

    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      GError *err = NULL;

      gst_message_parse_error (msg, &err, NULL);
      g_assert (err && err->message && *err->message);
      g_clear_error (&err);
      error = TRUE;
    } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT && st
        && gst_structure_has_name (st, "histogram")) {
      check_histogram_message (st, watch);
    } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT && st
        && gst_structure_has_name (st, "exposure")) {
      check_exposure_message (st, watch);
    }
    gst_message_unref (msg);
  }
  return error;
}

/* Caps for @format at the size given, with the range and matrix the
 * input picks (the exposure entries; none otherwise). */
static gchar *
take_caps (Input *in, const gchar *format, guint width, guint height,
    guint fps, gboolean exposure, GstVideoInfo *info)
{
  static const GstVideoColorimetry colorimetries[] = {
    {GST_VIDEO_COLOR_RANGE_16_235, GST_VIDEO_COLOR_MATRIX_BT601,
        GST_VIDEO_TRANSFER_BT709, GST_VIDEO_COLOR_PRIMARIES_SMPTE170M},
    {GST_VIDEO_COLOR_RANGE_0_255, GST_VIDEO_COLOR_MATRIX_BT601,
        GST_VIDEO_TRANSFER_BT709, GST_VIDEO_COLOR_PRIMARIES_SMPTE170M},
    {GST_VIDEO_COLOR_RANGE_16_235, GST_VIDEO_COLOR_MATRIX_BT709,
        GST_VIDEO_TRANSFER_BT709, GST_VIDEO_COLOR_PRIMARIES_BT709},
    {GST_VIDEO_COLOR_RANGE_0_255, GST_VIDEO_COLOR_MATRIX_RGB,
        GST_VIDEO_TRANSFER_SRGB, GST_VIDEO_COLOR_PRIMARIES_BT709},
    {GST_VIDEO_COLOR_RANGE_16_235, GST_VIDEO_COLOR_MATRIX_RGB,
        GST_VIDEO_TRANSFER_SRGB, GST_VIDEO_COLOR_PRIMARIES_BT709},
  };
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=%u,height=%u,"
      "framerate=%u/1", format, width, height, fps);
  const guint pick = exposure ? take (in, 1) % (G_N_ELEMENTS (colorimetries)
      + 1) : 0;
  GstCaps *parsed;

  if (pick > 0) {
    gchar *c = gst_video_colorimetry_to_string (&colorimetries[pick - 1]);
    gchar *with = g_strdup_printf ("%s,colorimetry=%s", caps, c);

    parsed = gst_caps_from_string (with);
    if (gst_video_info_from_caps (info, parsed)) {
      g_free (caps);
      caps = with;
    } else {
      g_free (with);
    }
    gst_caps_unref (parsed);
    g_free (c);
  }
  parsed = gst_caps_from_string (caps);
  g_assert_true (gst_video_info_from_caps (info, parsed));
  gst_caps_unref (parsed);
  return caps;
}

/* One input, through a new element of @f's. */
static void
fuzz_element (const guint8 *data, gsize size, const Fuzzed *f)
{
  const gboolean counts = g_str_equal (f->factory, "clhistogram");
  const gboolean marks = g_str_equal (f->factory, "clexposuremarks");
  const gboolean scope = g_str_has_prefix (f->factory, "clscope");
  Input in = { data, size, 0 };
  GstHarness *h = gst_harness_new (f->factory);
  GstBus *bus = gst_bus_new ();
  const gchar *format = formats[take_below (&in, G_N_ELEMENTS (formats))];
  const guint width = take_edge (&in);
  const guint height = width > 1024 ? 1 + take (&in, 1) % 16 : take_edge (&in);
  GQueue sent = G_QUEUE_INIT;
  GstVideoInfo info;
  gchar *caps = take_caps (&in, format, width, height, take (&in, 1) % 61,
      f->exposure, &info);
  Watch watch = { NULL };
  GstSegment segment;
  GstClockTime pts = GST_CLOCK_TIME_NONE;
  gboolean flushed = FALSE, failed = FALSE;
  /* Alerts need frames to start, hold and clear. */
  guint frames = 1 + take (&in, 1) % (f->exposure ? 12 : 4), i;

  if (f->exposure) {
    watch.sent_counts = g_array_new (FALSE, FALSE, sizeof (SentCounts));
    watch.active[0] = g_array_new (FALSE, FALSE, sizeof (gint));
    watch.active[1] = g_array_new (FALSE, FALSE, sizeof (gint));
  }
  gst_element_set_bus (h->element, bus);
  gst_harness_set_live (h, take (&in, 1) & 1);
  if (!counts || f->exposure)
    set_up (&in, h->element, f, width, height);
  take_properties (&in, h->element, f);
  gst_harness_set_src_caps_str (h, caps);

  for (i = 0; i < frames; i++) {
    gboolean crop, vmeta;
    Sent *s = g_new0 (Sent, 1);
    GstFlowReturn flow;

    s->buffer = take_buffer (&in, &info, &crop, &vmeta, f->exposure);
    if (g_str_equal (f->factory, "histogramoverlay")) {
      if (f->exposure) {
        add_hostile_metas (&in, s->buffer, width, height);
        checked.hostile++;
      } else
        add_histogram (s->buffer, width, height);
    }
    s->exact = !crop && !vmeta && gst_buffer_get_size (s->buffer) >= info.size;
    if (f->exposure) {
      SentCounts note;

      pts = take_pts (&in, pts);
      GST_BUFFER_PTS (s->buffer) = pts;
      GST_BUFFER_DURATION (s->buffer) = GST_SECOND / 30;
      note_settings (h->element, s);
      note.pts = pts;
      note.message_counts = s->message_counts;
      g_array_append_val (watch.sent_counts, note);
    }
    g_queue_push_tail (&sent, s);
    flow = gst_harness_push (h, gst_buffer_ref (s->buffer));
    if (flow != GST_FLOW_OK) {
      if (flow == GST_FLOW_ERROR)
        g_assert_true (pop_error (bus));
      else
        g_assert_cmpint (flow, ==, GST_FLOW_NOT_NEGOTIATED);
      failed = TRUE;
      /* What was in flight is dropped with the failing frame. */
      if (counts)
        pull_and_check (h, &sent, &info, f->exposure ? &watch : NULL);
      break;
    }
    /* Frames in flight come out later, or at EOS. */
    if (counts)
      pull_and_check (h, &sent, &info, f->exposure ? &watch : NULL);
    else if (marks)
      pull_marked (h, &sent);
    else if (scope)
      checked.scoped += drop_output (h);
    else
      drop_output (h);
    take_properties (&in, h->element, f);
    if (take (&in, 1) % 8 == 0) {
      gst_harness_push_event (h, gst_event_new_flush_start ());
      gst_harness_push_event (h, gst_event_new_flush_stop (TRUE));
      gst_segment_init (&segment, GST_FORMAT_TIME);
      gst_harness_push_event (h, gst_event_new_segment (&segment));
      /* Frames in flight may have left, once counted, on a thread of the
       * element before the flush, after the pull above: the harness keeps
       * them, where a sink would drop them at the flush. Those still
       * pending were dropped. */
      drop_output (h);
      g_queue_clear_full (&sent, sent_free);
      flushed = TRUE;
    }
  }
  gst_harness_push_event (h, gst_event_new_eos ());
  if (counts)
    pull_and_check (h, &sent, &info, f->exposure ? &watch : NULL);
  else if (marks && !failed)
    pull_marked (h, &sent);
  else if (scope)
    checked.scoped += drop_output (h);
  else
    drop_output (h);
  g_queue_clear_full (&sent, sent_free);
  if (f->exposure) {
    /* Every frame has left, its messages before it. */
    if (check_messages (bus, &watch))
      failed = TRUE;
    /* Alerts turned off clear what was on, from the next frame counted. */
    if (!flushed && !failed && watch.any_out && watch.last_out_counted
        && !watch.last_out_alerts_on && (watch.active[0]->len > 0
            || watch.active[1]->len > 0))
      g_error ("the alerts are off and %u alerts are still on",
          watch.active[0]->len + watch.active[1]->len);
    g_array_unref (watch.sent_counts);
    g_array_unref (watch.active[0]);
    g_array_unref (watch.active[1]);
  } else {
    pop_error (bus);
  }

  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
  g_free (caps);
}

/* One input, through each element. */
static void
fuzz_one (const guint8 *data, gsize size)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (fuzzed); i++)
    fuzz_element (data, size, &fuzzed[i]);
}

/* Any WARNING or CRITICAL, from any library, is a failure: abort, so that
 * the input is kept. */
static void
abort_on_warning (const gchar *domain, GLogLevelFlags level,
    const gchar *message, gpointer user_data)
{
  g_log_default_handler (domain, level, message, user_data);
  if (level & (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING
          | G_LOG_LEVEL_ERROR))
    abort ();
}

#ifdef CLH_LIBFUZZER
int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  static gboolean initialised;

  if (!initialised) {
    gst_init (NULL, NULL);
    g_log_set_default_handler (abort_on_warning, NULL);
    initialised = TRUE;
  }
  fuzz_one (data, size);
  return 0;
}
#else

static void
run_kept (const gchar *path, const guint8 *data, gsize size)
{
  if (!g_file_set_contents ("clhistogram-fuzz-input.bin", (const gchar *) data,
          size, NULL))
    g_error ("cannot keep the input being run");
  if (path)
    g_print ("case %s\n", path);
  fuzz_one (data, size);
}

int
main (int argc, char **argv)
{
  gint64 seed = 1, seconds = 60, runs = G_MAXINT64, done = 0;
  GOptionEntry entries[] = {
    {"seed", 0, 0, G_OPTION_ARG_INT64, &seed, "first random input", "S"},
    {"seconds", 0, 0, G_OPTION_ARG_INT64, &seconds, "stop after", "T"},
    {"runs", 0, 0, G_OPTION_ARG_INT64, &runs, "stop after N inputs", "N"},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("[CASE_FILE...]");
  GError *err = NULL;
  gint64 end;
  gint i;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &err))
    g_error ("%s", err->message);
  g_option_context_free (ctx);
  g_log_set_default_handler (abort_on_warning, NULL);

  for (i = 1; i < argc; i++) {
    gchar *data;
    gsize size;

    if (!g_file_get_contents (argv[i], &data, &size, &err))
      g_error ("%s", err->message);
    run_kept (argv[i], (const guint8 *) data, size);
    g_free (data);
  }

  end = g_get_monotonic_time () + seconds * G_USEC_PER_SEC;
  while (done < runs && g_get_monotonic_time () < end) {
    GRand *rand = g_rand_new_with_seed ((guint32) (seed + done));
    guint8 data[256];
    guint j;

    for (j = 0; j < sizeof (data); j++)
      data[j] = g_rand_int (rand);
    g_rand_free (rand);
    run_kept (NULL, data, sizeof (data));
    done++;
  }
  g_print ("%u case files and %" G_GINT64_FORMAT " random inputs from seed %"
      G_GINT64_FORMAT ": no failure (checked: %" G_GUINT64_FORMAT
      " statistics, %" G_GUINT64_FORMAT " metering values, %"
      G_GUINT64_FORMAT " histogram messages, %" G_GUINT64_FORMAT
      " exposure messages; %" G_GUINT64_FORMAT " frames of hostile metas "
      "drawn over, %" G_GUINT64_FORMAT " out of the scopes)\n", argc - 1,
      done, seed, checked.statistics, checked.metering, checked.messages,
      checked.exposure, checked.hostile, checked.scoped);
  g_remove ("clhistogram-fuzz-input.bin");
  gst_deinit ();
  return 0;
}
#endif
