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
 *   clhistogram-fuzz [--seed S] [--seconds T] [--runs N] [CASE_FILE...]
 *
 * Case files are run first (tests/fuzz-cases/: every input that ever
 * failed); then random inputs from --seed until --seconds or --runs. The
 * input being run is kept in clhistogram-fuzz-input.bin, so that a crash
 * leaves it behind to be added to the cases. Built with -Dfuzzer=enabled
 * (clang), LLVMFuzzerTestOneInput() drives fuzz_one() instead. */
#include <glib/gstdio.h>
#include <gst/gst.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <gst/clhistogram/clhistogram.h>

#include "clh-reference-frame.h"

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

/* Sets @name to a value within its declared range, from the input. */
static void
take_property (Input *in, GstElement *e, const gchar *name)
{
  GParamSpec *p = g_object_class_find_property (G_OBJECT_GET_CLASS (e), name);
  GValue v = G_VALUE_INIT;

  g_value_init (&v, p->value_type);
  if (G_IS_PARAM_SPEC_UINT (p)) {
    GParamSpecUInt *u = G_PARAM_SPEC_UINT (p);
    const guint span = MIN (u->maximum - u->minimum, 70000);
    g_value_set_uint (&v, u->minimum + take_below (in, span + 1));
  } else if (G_IS_PARAM_SPEC_INT (p)) {
    GParamSpecInt *i = G_PARAM_SPEC_INT (p);
    /* In 64 bits: G_MAXINT - G_MININT does not fit a gint. */
    const gint64 span = MIN ((gint64) i->maximum - i->minimum, 70000);

    g_value_set_int (&v, take (in, 1) < 128 ? MAX (i->minimum, -1) :
        (gint) (i->minimum + (gint64) take_below (in, (guint) span + 1)));
  } else if (G_IS_PARAM_SPEC_BOOLEAN (p)) {
    g_value_set_boolean (&v, take (in, 1) & 1);
  } else if (G_IS_PARAM_SPEC_DOUBLE (p)) {
    GParamSpecDouble *d = G_PARAM_SPEC_DOUBLE (p);
    const gdouble lo = MAX (d->minimum, -1e6), hi = MIN (d->maximum, 1e6);
    g_value_set_double (&v, lo + (hi - lo) * take (in, 2) / 65535.0);
  } else if (G_IS_PARAM_SPEC_ENUM (p)) {
    GEnumClass *k = G_PARAM_SPEC_ENUM (p)->enum_class;
    g_value_set_enum (&v, k->values[take_below (in, k->n_values)].value);
  }
  g_object_set_property (G_OBJECT (e), name, &v);
  g_value_unset (&v);
}

/* The elements fuzzed, each with the properties the input changes (NULL
 * ended). */
typedef struct {
  const gchar *factory;
  const gchar *names[10];
} Fuzzed;

static const Fuzzed fuzzed[] = {
  {"clhistogram", {"mode", "bins", "range-min", "range-max",
          "min-saturation", "min-value", "post-messages", "attach-meta",
          "max-frames-in-flight", NULL}},
  {"histogramoverlay", {"x", "y", "width", "height", "alpha", "log-scale",
          NULL}},
  {"clbackproject", {"mode", "bins", "scale", "min-saturation",
          "min-value", "max-value", NULL}},
  /* Not max-iterations: up to 70,000 mean-shift steps a frame only
   * take time. */
  {"clcamshift", {"bins", "min-saturation", "min-value", "max-value",
          "epsilon", "post-messages", NULL}},
};

static void
take_properties (Input *in, GstElement *e, const Fuzzed *f)
{
  guint n = take (in, 1) % 4, n_names = g_strv_length ((gchar **) f->names);
  guint i;

  for (i = 0; i < n; i++)
    take_property (in, e, f->names[take_below (in, n_names)]);
}

/* What the other elements need to read every frame: a model for
 * clbackproject (of its default mode's and bins' length), a window for
 * clcamshift (from the input) and the ROI metas it may start tracks from,
 * a graph over the frame for histogramoverlay. */
static void
set_up (Input *in, GstElement *e, const Fuzzed *f, guint width, guint height)
{
  if (g_str_equal (f->factory, "histogramoverlay")) {
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

static GstBuffer *
take_buffer (Input *in, const GstVideoInfo *info, gboolean *crop,
    gboolean *vmeta)
{
  const guint how = take (in, 1);
  gsize size = info->size;
  GstBuffer *b;
  GstMapInfo map;
  guint32 seed = take (in, 4);
  gsize i;

  if (how % 7 == 0)
    size = size > 0 ? take_below (in, MIN (size, 65535)) : 0;
  else if (how % 7 == 1)
    size += take (in, 1);
  b = gst_buffer_new_allocate (NULL, size, NULL);
  gst_buffer_map (b, &map, GST_MAP_WRITE);
  for (i = 0; i < map.size; i++) {
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

/* Every channel accounts for its samples; with no crop and a meta (if
 * any) describing the caps' frame, the counts are the reference's. */
static void
check_output (GstBuffer *out, GstBuffer *in, const GstVideoInfo *info,
    gboolean exact)
{
  GstHistogramMeta *meta = gst_buffer_get_histogram_meta (out);
  ClhHistogramSpec spec;
  ClhHistogram want;
  guint c, b, n_bins;

  if (!meta)
    return;
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
  /* The meta does not carry hue's masks: those are checked above only. */
  if (!exact || meta->info.n_dims != 1
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

typedef struct {
  GstBuffer *buffer;
  gboolean exact;
} Sent;

/* A frame counted with a crop meta counts the crop's rectangle. */
static void
check_crop (GstBuffer *out, GstBuffer *in)
{
  GstHistogramMeta *meta = gst_buffer_get_histogram_meta (out);
  GstVideoCropMeta *crop = gst_buffer_get_video_crop_meta (in);

  if (!meta || !crop)
    return;
  g_assert_cmpuint (meta->region.width, ==, crop->width);
  g_assert_cmpuint (meta->region.height, ==, crop->height);
}

/* Pulls what came out, each against the oldest frame sent. */
static void
pull_and_check (GstHarness *h, GQueue *sent, const GstVideoInfo *info)
{
  GstBuffer *out;

  while ((out = gst_harness_try_pull (h))) {
    Sent *s = g_queue_pop_head (sent);

    g_assert_nonnull (s);
    check_output (out, s->buffer, info, s->exact);
    check_crop (out, s->buffer);
    gst_buffer_unref (out);
    gst_buffer_unref (s->buffer);
    g_free (s);
  }
}

/* Drops whatever came out and was not pulled yet. */
static void
drop_output (GstHarness *h)
{
  GstBuffer *out;

  while ((out = gst_harness_try_pull (h)))
    gst_buffer_unref (out);
}

static void
sent_free (gpointer data)
{
  Sent *s = data;

  gst_buffer_unref (s->buffer);
  g_free (s);
}

/* One input, through a new element of @f's. */
static void
fuzz_element (const guint8 *data, gsize size, const Fuzzed *f)
{
  const gboolean counts = g_str_equal (f->factory, "clhistogram");
  Input in = { data, size, 0 };
  GstHarness *h = gst_harness_new (f->factory);
  GstBus *bus = gst_bus_new ();
  const gchar *format = formats[take_below (&in, G_N_ELEMENTS (formats))];
  const guint width = take_edge (&in);
  const guint height = width > 1024 ? 1 + take (&in, 1) % 16 : take_edge (&in);
  GQueue sent = G_QUEUE_INIT;
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=%u,height=%u,"
      "framerate=%u/1", format, width, height, take (&in, 1) % 61);
  GstVideoInfo info;
  GstSegment segment;
  guint frames = 1 + take (&in, 1) % 4, i;

  gst_element_set_bus (h->element, bus);
  gst_harness_set_live (h, take (&in, 1) & 1);
  if (!counts)
    set_up (&in, h->element, f, width, height);
  take_properties (&in, h->element, f);
  {
    GstCaps *parsed = gst_caps_from_string (caps);

    g_assert_true (gst_video_info_from_caps (&info, parsed));
    gst_harness_set_src_caps (h, parsed);
  }

  for (i = 0; i < frames; i++) {
    gboolean crop, vmeta;
    Sent *s = g_new0 (Sent, 1);
    GstFlowReturn flow;

    s->buffer = take_buffer (&in, &info, &crop, &vmeta);
    if (g_str_equal (f->factory, "histogramoverlay"))
      add_histogram (s->buffer, width, height);
    s->exact = !crop && !vmeta && gst_buffer_get_size (s->buffer) >= info.size;
    g_queue_push_tail (&sent, s);
    flow = gst_harness_push (h, gst_buffer_ref (s->buffer));
    if (flow != GST_FLOW_OK) {
      if (flow == GST_FLOW_ERROR)
        g_assert_true (pop_error (bus));
      else
        g_assert_cmpint (flow, ==, GST_FLOW_NOT_NEGOTIATED);
      /* What was in flight is dropped with the failing frame. */
      if (counts)
        pull_and_check (h, &sent, &info);
      break;
    }
    /* Frames in flight come out later, or at EOS. */
    if (counts)
      pull_and_check (h, &sent, &info);
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
    }
  }
  gst_harness_push_event (h, gst_event_new_eos ());
  if (counts)
    pull_and_check (h, &sent, &info);
  else
    drop_output (h);
  g_queue_clear_full (&sent, sent_free);
  pop_error (bus);

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
      G_GINT64_FORMAT ": no failure\n", argc - 1, done, seed);
  g_remove ("clhistogram-fuzz-input.bin");
  gst_deinit ();
  return 0;
}
#endif
