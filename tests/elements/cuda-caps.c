/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Frames in CUDA memory (video/x-raw(memory:CUDAMemory)) at clhistogram,
 * clbackproject and clcamshift, without a GPU: the pad templates offer
 * the caps feature exactly where the plugin is built with GStreamer's CUDA
 * library (HAVE_GST_CUDA, from tests/meson.build), the caps queries keep
 * it (passthrough: the source pad's caps are the sink pad's, features
 * included; clbackproject writes GRAY8 in system memory), a capsfilter of
 * CUDA NV12 upstream negotiates through clhistogram, and the first frame
 * of each stream is told of once in the log: read through the host when
 * negotiated in CUDA memory, copied to the device from system memory.
 * The frames pushed are in system memory (no CUDA device here): the
 * element maps them as it maps a GstCudaMemory's download. */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <string.h>

#define CUDA_FEATURE "memory:CUDAMemory"
#define SIZE_FIELDS "width=64,height=48,framerate=30/1"
#define CUDA_NV12 "video/x-raw(" CUDA_FEATURE "),format=NV12," SIZE_FIELDS

#ifdef HAVE_GST_CUDA
static const gboolean built_with_cuda = TRUE;
#else
static const gboolean built_with_cuda = FALSE;
#endif
#if defined (HAVE_CL_CUDA_POOL) || defined (HAVE_CUDA_EXPORT)
#define NOT_PROPOSED "no CUDA context was found upstream"
#else
#define NOT_PROPOSED "the plugin was built against a CUDA library without " \
  "gst_cuda_memory_export()"
#endif

static gboolean
structure_is_cuda (const GstCaps *caps, guint i)
{
  GstCapsFeatures *f = gst_caps_get_features (caps, i);

  return f && !gst_caps_features_is_any (f)
      && gst_caps_features_contains (f, CUDA_FEATURE);
}

/* The number of @caps' structures in CUDA memory; every other one is in
 * system memory. */
static guint
n_cuda_structures (const GstCaps *caps)
{
  guint i, n = 0;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    if (structure_is_cuda (caps, i))
      n++;
    else
      fail_unless (gst_caps_features_is_equal (gst_caps_get_features (caps,
                  i), GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY));
  }
  return n;
}

static GstCaps *
template_caps (const gchar *element, GstPadDirection direction)
{
  GstElementFactory *factory = gst_element_factory_find (element);
  const GList *l;
  GstCaps *caps = NULL;

  fail_unless (factory != NULL, "no %s", element);
  for (l = gst_element_factory_get_static_pad_templates (factory); l;
      l = l->next) {
    GstStaticPadTemplate *t = l->data;

    if (t->direction == direction)
      caps = gst_static_caps_get (&t->static_caps);
  }
  gst_object_unref (factory);
  fail_unless (caps != NULL);
  return caps;
}

/* Whether @caps' structures in CUDA memory accept @format, and each of
 * their formats is one the same caps accept in system memory (the element
 * counts it). */
static gboolean
cuda_accepts (GstCaps *caps, const gchar *format)
{
  gchar *str = g_strdup_printf ("video/x-raw(" CUDA_FEATURE "),format=%s,"
      SIZE_FIELDS, format);
  GstCaps *probe = gst_caps_from_string (str);
  gboolean accepted = gst_caps_can_intersect (probe, caps);
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstCaps *sys;

    if (!structure_is_cuda (caps, i))
      continue;
    sys = gst_caps_copy_nth (caps, i);
    gst_caps_set_features (sys, 0, NULL);
    fail_unless (gst_caps_is_subset (sys, caps),
        "%" GST_PTR_FORMAT " not in system memory too", sys);
    gst_caps_unref (sys);
  }
  gst_caps_unref (probe);
  g_free (str);
  return accepted;
}

GST_START_TEST (test_templates)
{
  GstCaps *caps;

  caps = template_caps ("clhistogram", GST_PAD_SINK);
  fail_unless_equals_int (n_cuda_structures (caps) > 0, built_with_cuda);
  if (built_with_cuda) {
    fail_unless (cuda_accepts (caps, "NV12"));
    fail_unless (cuda_accepts (caps, "P010_10LE"));
    fail_unless (cuda_accepts (caps, "P016_LE"));
    fail_unless (cuda_accepts (caps, "Y444"));
    /* Not a decoder's format. */
    fail_if (cuda_accepts (caps, "GRAY8"));
  }
  gst_caps_unref (caps);
  caps = template_caps ("clhistogram", GST_PAD_SRC);
  fail_unless_equals_int (n_cuda_structures (caps) > 0, built_with_cuda);
  gst_caps_unref (caps);

  caps = template_caps ("clcamshift", GST_PAD_SINK);
  fail_unless_equals_int (n_cuda_structures (caps) > 0, built_with_cuda);
  if (built_with_cuda) {
    fail_unless (cuda_accepts (caps, "NV12"));
    /* The trackers read 8-bit samples only. */
    fail_if (cuda_accepts (caps, "P010_10LE"));
  }
  gst_caps_unref (caps);
  caps = template_caps ("clcamshift", GST_PAD_SRC);
  fail_unless_equals_int (n_cuda_structures (caps) > 0, built_with_cuda);
  gst_caps_unref (caps);

  caps = template_caps ("clbackproject", GST_PAD_SINK);
  fail_unless_equals_int (n_cuda_structures (caps) > 0, built_with_cuda);
  if (built_with_cuda)
    fail_unless (cuda_accepts (caps, "NV12"));
  gst_caps_unref (caps);
  /* Its output is written by the host, in system memory. */
  caps = template_caps ("clbackproject", GST_PAD_SRC);
  fail_unless_equals_int (n_cuda_structures (caps), 0);
  gst_caps_unref (caps);
}
GST_END_TEST;

/* @element's sink pad, downstream of the harness taking @downstream: what
 * it accepts and what its caps query gives for @upstream. */
static GstCaps *
sink_query (const gchar *element, const gchar *downstream,
    const gchar *upstream, gboolean *accepted)
{
  GstHarness *h = gst_harness_new (element);
  GstPad *sink = gst_element_get_static_pad (h->element, "sink");
  GstCaps *filter = gst_caps_from_string (upstream);
  GstCaps *result;

  gst_harness_set_sink_caps_str (h, downstream);
  result = gst_pad_query_caps (sink, filter);
  *accepted = gst_pad_query_accept_caps (sink, filter);
  gst_caps_unref (filter);
  gst_object_unref (sink);
  gst_harness_teardown (h);
  return result;
}

/* Without CUDA, a CUDA frame is refused; with it, the queries keep the
 * feature across the element, and system memory stays as it was. */
GST_START_TEST (test_queries_keep_feature)
{
  GstCaps *caps;
  gboolean accepted;

  caps = sink_query ("clhistogram", CUDA_NV12, CUDA_NV12, &accepted);
  fail_unless_equals_int (accepted, built_with_cuda);
  fail_unless_equals_int (gst_caps_is_empty (caps), !built_with_cuda);
  if (built_with_cuda) {
    GstCaps *want = gst_caps_from_string (CUDA_NV12);

    fail_unless (gst_caps_is_equal (caps, want), "%" GST_PTR_FORMAT, caps);
    gst_caps_unref (want);
  }
  gst_caps_unref (caps);

  /* Downstream in system memory only: no CUDA input through a
   * passthrough element. */
  caps = sink_query ("clhistogram", "video/x-raw,format=NV12," SIZE_FIELDS,
      CUDA_NV12, &accepted);
  fail_unless (gst_caps_is_empty (caps));
  gst_caps_unref (caps);

  caps = sink_query ("clhistogram", "video/x-raw,format=NV12," SIZE_FIELDS,
      "video/x-raw,format=NV12," SIZE_FIELDS, &accepted);
  fail_unless (accepted);
  fail_unless_equals_int (n_cuda_structures (caps), 0);
  fail_if (gst_caps_is_empty (caps));
  gst_caps_unref (caps);

  caps = sink_query ("clcamshift", CUDA_NV12, CUDA_NV12, &accepted);
  fail_unless_equals_int (accepted, built_with_cuda);
  fail_unless_equals_int (n_cuda_structures (caps) > 0, built_with_cuda);
  gst_caps_unref (caps);

  /* clbackproject: GRAY8 in system memory downstream, CUDA NV12 upstream. */
  caps = sink_query ("clbackproject", "video/x-raw,format=GRAY8,"
      SIZE_FIELDS, CUDA_NV12, &accepted);
  fail_unless_equals_int (accepted, built_with_cuda);
  fail_unless_equals_int (n_cuda_structures (caps) > 0, built_with_cuda);
  gst_caps_unref (caps);
}
GST_END_TEST;

static guint n_told, n_system;

static void
count_host_reads (GstDebugCategory *category, GstDebugLevel level,
    const gchar *file, const gchar *function, gint line, GObject *object,
    GstDebugMessage *message, gpointer user_data)
{
  const gchar *text = gst_debug_message_get (message);

  /* No pool of exportable memory is proposed: with no decoder upstream to
   * answer the context query, or built against a CUDA library later than
   * 1.22's; the line says why. */
  if (level == GST_LEVEL_WARNING && text
      && strstr (text, "frames in CUDA memory are copied to the host and "
          "back to the device (slower): no pool of exportable CUDA memory "
          "was proposed upstream: " NOT_PROPOSED))
    g_atomic_int_inc (&n_told);
  /* The other way's line, which device checks compare against. */
  if (level == GST_LEVEL_INFO && text
      && strstr (text, "frames in system memory are copied to the OpenCL "
          "device"))
    g_atomic_int_inc (&n_system);
}

static void
push_frames (GstHarness *h, guint n)
{
  guint i;

  for (i = 0; i < n; i++) {
    GstBuffer *in = gst_harness_create_buffer (h, 64 * 48 * 3 / 2), *out;

    gst_buffer_memset (in, 0, 0x80, 64 * 48 * 3 / 2);
    out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
    fail_unless (out != NULL);
    /* Passthrough: the buffer leaves as it came, with a meta at most. */
    fail_unless (gst_buffer_peek_memory (out, 0)
        == gst_buffer_peek_memory (in, 0));
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
}

/* A capsfilter of CUDA NV12 upstream of clhistogram: the caps reach the
 * harness's sink as they left the filter, and each stream's first frame
 * says once that it is read through the host, and why. */
GST_START_TEST (test_capsfilter_through)
{
  GstHarness *h;
  GstCaps *caps, *want;

  if (!built_with_cuda) {
    GST_INFO ("built without GStreamer's CUDA library");
    return;
  }
  gst_debug_set_threshold_for_name ("clhistogram", GST_LEVEL_INFO);
  gst_debug_add_log_function (count_host_reads, NULL, NULL);
  g_atomic_int_set (&n_told, 0);
  g_atomic_int_set (&n_system, 0);

  h = gst_harness_new_parse ("capsfilter caps=\"" CUDA_NV12 "\" ! "
      "clhistogram");
  gst_harness_set_src_caps_str (h, CUDA_NV12);
  push_frames (h, 3);
  caps = gst_pad_get_current_caps (h->sinkpad);
  want = gst_caps_from_string (CUDA_NV12);
  fail_unless (caps != NULL);
  fail_unless (gst_caps_is_subset (caps, want), "%" GST_PTR_FORMAT, caps);
  fail_unless (structure_is_cuda (caps, 0));
  gst_caps_unref (caps);
  gst_caps_unref (want);
  fail_unless_equals_int (g_atomic_int_get (&n_told), 1);

  /* A new stream is told of again, once. */
  fail_unless (gst_harness_push_event (h,
          gst_event_new_stream_start ("second")));
  push_frames (h, 2);
  fail_unless_equals_int (g_atomic_int_get (&n_told), 2);
  fail_unless_equals_int (g_atomic_int_get (&n_system), 0);
  gst_harness_teardown (h);

  /* Frames in system memory take the other way, said once a stream. */
  h = gst_harness_new ("clhistogram");
  gst_harness_set_src_caps_str (h, "video/x-raw,format=NV12," SIZE_FIELDS);
  push_frames (h, 2);
  fail_unless_equals_int (g_atomic_int_get (&n_system), 1);
  fail_unless (gst_harness_push_event (h,
          gst_event_new_stream_start ("third")));
  push_frames (h, 2);
  gst_harness_teardown (h);
  fail_unless_equals_int (g_atomic_int_get (&n_told), 2);
  fail_unless_equals_int (g_atomic_int_get (&n_system), 2);

  gst_debug_remove_log_function (count_host_reads);
}
GST_END_TEST;

static Suite *
cuda_caps_suite (void)
{
  Suite *s = suite_create ("cuda-caps");
  TCase *tc = tcase_create ("caps");

  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_templates);
  tcase_add_test (tc, test_queries_keep_feature);
  tcase_add_test (tc, test_capsfilter_through);
  suite_add_tcase (s, tc);
  return s;
}

GST_CHECK_MAIN (cuda_caps);
