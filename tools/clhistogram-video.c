/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clhistogram-video: decodes a video, runs every frame through clhistogram,
 * prints each frame's histogram from its GstHistogramMeta and checks it
 * against the golden reference computed from the same frame.
 *
 *   clhistogram-video [--format GRAY8] [--mode luma] [--bins 256] VIDEO
 *
 * Exits 0 when every frame's histogram equals the reference. */
#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>
#include <gst/clhistogram/clhistogram.h>

#include "clh-reference-frame.h"

typedef struct {
  gchar *format;
  gchar *mode;
  gint bins;
  gint width;
  gint height;
  gchar *device;
  gboolean quiet;
  gboolean as_decoded;
  gint expect_frames;
  gint max_frames;
} Options;

typedef struct {
  guint frames;
  guint mismatches;
  gchar *caps;                  /* "600x480 GRAY8", as counted */
} Tally;

/* The meta's histogram against the reference of the same frame, with the
 * bins the element used (its per-mode default when --bins is not given). */
static gboolean
frame_equals_reference (GstSample *sample, const Options *opt,
    GstHistogramMeta *meta)
{
  GstVideoInfo info;
  ClhHistogramSpec spec;
  ClhHistogram want;
  gboolean equal;
  guint c;

  if (!gst_video_info_from_caps (&info, gst_sample_get_caps (sample))
      || !clh_reference_histogram_of_buffer (&info,
          gst_sample_get_buffer (sample), opt->mode, meta->shape[0], 0, -1,
          &spec, &want))
    return FALSE;

  equal = meta->n_channels == clh_histogram_spec_n_channels (&spec)
      && meta->n_bins == clh_histogram_spec_n_bins (&spec)
      && memcmp (meta->counts, want.counts,
      sizeof (guint32) * meta->n_channels * meta->n_bins) == 0;
  for (c = 0; equal && c < meta->n_channels; c++)
    equal = meta->samples[c] == want.samples[c]
        && meta->below[c] == want.below[c] && meta->above[c] == want.above[c];
  g_free (want.counts);
  return equal;
}

static void
print_frame (guint index, GstBuffer *buffer, GstHistogramMeta *meta,
    gboolean equal)
{
  GString *line = g_string_new (NULL);
  guint c, b, n_bins;

  g_string_append_printf (line, "frame %u %" GST_TIME_FORMAT, index,
      GST_TIME_ARGS (GST_BUFFER_PTS (buffer)));
  for (c = 0; c < meta->n_channels; c++) {
    const guint32 *counts = gst_histogram_meta_get_counts (meta, c, &n_bins);
    g_string_append_printf (line, " %s:",
        gst_histogram_meta_get_channel_name (meta, c));
    for (b = 0; b < n_bins; b++)
      g_string_append_printf (line, " %u", counts[b]);
  }
  g_string_append (line, equal ? " = reference" : " DIFFERS FROM REFERENCE");
  g_print ("%s\n", line->str);
  g_string_free (line, TRUE);
}

static gboolean
run (const gchar *video, const Options *opt, Tally *tally)
{
  gchar *uri_path = g_strescape (video, NULL);
  gchar *bins = opt->bins > 0 ? g_strdup_printf ("bins=%d", opt->bins) :
      g_strdup ("");
  gchar *convert = opt->as_decoded ? g_strdup ("") :
      g_strdup_printf ("videoconvert ! videoscale ! "
      "video/x-raw,format=%s,width=%d,height=%d !", opt->format, opt->width,
      opt->height);
  gchar *description = g_strdup_printf ("filesrc location=\"%s\" ! decodebin "
      "! %s clhistogram name=hist mode=%s %s device=\"%s\" "
      "post-messages=false ! appsink name=sink sync=false", uri_path,
      convert, opt->mode, bins, opt->device);
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (description, &err);
  GstElement *sink, *hist;
  GstSample *sample;
  GstMessage *msg;
  gchar *device_name = NULL;
  guint n_bins = 0;
  gboolean ok = TRUE;

  g_free (uri_path);
  g_free (description);
  g_free (convert);
  g_free (bins);
  if (!pipeline) {
    g_printerr ("Could not build the pipeline: %s\n", err->message);
    g_clear_error (&err);
    return FALSE;
  }
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  hist = gst_bin_get_by_name (GST_BIN (pipeline), "hist");
  gst_element_set_state (pipeline, GST_STATE_PLAYING);

  /* Pull until EOS; an error does not wake appsink, so look at the bus
   * whenever no frame came for a while. */
  msg = NULL;
  while (TRUE) {
    sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        100 * GST_MSECOND);
    if (!sample) {
      msg = gst_bus_pop_filtered (GST_ELEMENT_BUS (pipeline),
          GST_MESSAGE_ERROR);
      if (msg || gst_app_sink_is_eos (GST_APP_SINK (sink)))
        break;
      continue;
    }
    GstBuffer *buffer = gst_sample_get_buffer (sample);
    GstHistogramMeta *meta = gst_buffer_get_histogram_meta (buffer);
    gboolean equal = meta && frame_equals_reference (sample, opt, meta);

    if (!tally->caps) {
      GstVideoInfo info;
      if (gst_video_info_from_caps (&info, gst_sample_get_caps (sample)))
        tally->caps = g_strdup_printf ("%dx%d %s", GST_VIDEO_INFO_WIDTH (&info),
            GST_VIDEO_INFO_HEIGHT (&info), GST_VIDEO_INFO_NAME (&info));
    }
    if (!opt->quiet && meta)
      print_frame (tally->frames, buffer, meta, equal);
    if (!equal) {
      g_printerr ("frame %u: %s\n", tally->frames, meta ?
          "histogram differs from the golden reference" : "no histogram meta");
      tally->mismatches++;
    }
    tally->frames++;
    gst_sample_unref (sample);
    if (opt->max_frames > 0 && tally->frames >= (guint) opt->max_frames)
      break;
  }

  if (!msg)
    msg = gst_bus_pop_filtered (GST_ELEMENT_BUS (pipeline),
        GST_MESSAGE_ERROR);
  if (msg) {
    gchar *debug = NULL;
    gst_message_parse_error (msg, &err, &debug);
    g_printerr ("Error from %s: %s\n%s\n", GST_OBJECT_NAME (msg->src),
        err->message, debug ? debug : "");
    g_clear_error (&err);
    g_free (debug);
    gst_message_unref (msg);
    ok = FALSE;
  }
  g_object_get (hist, "device-name", &device_name, NULL);
  g_object_get (hist, "bins", &n_bins, NULL);
  g_print ("%u frames of %s as %s, mode %s, %u bins, on %s: %u differ "
      "from the golden reference\n", tally->frames, video, tally->caps ?
      tally->caps : "(no caps)", opt->mode, n_bins,
      device_name ? device_name : "(no device)", tally->mismatches);
  g_free (device_name);

  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (hist);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  return ok;
}

int
main (int argc, char **argv)
{
  Options opt = { NULL, NULL, 0, 600, 480, NULL, FALSE, FALSE, -1, 0 };
  Tally tally = { 0, 0, NULL };
  GOptionEntry entries[] = {
    {"format", 'f', 0, G_OPTION_ARG_STRING, &opt.format,
        "Raw format to convert to (GRAY8, RGBA, I420, NV12, ...)", "GRAY8"},
    {"mode", 'm', 0, G_OPTION_ARG_STRING, &opt.mode,
        "What to count: luma, channels, max, hue, hue-saturation, rgb",
        "luma"},
    {"bins", 'b', 0, G_OPTION_ARG_INT, &opt.bins,
        "Bins per channel (default: the element's for the mode)", "N"},
    {"width", 'W', 0, G_OPTION_ARG_INT, &opt.width, "Width to scale to",
        "600"},
    {"height", 'H', 0, G_OPTION_ARG_INT, &opt.height, "Height to scale to",
        "480"},
    {"device", 'd', 0, G_OPTION_ARG_STRING, &opt.device,
        "OpenCL device (clhistogram's device property)", "auto"},
    {"as-decoded", 0, 0, G_OPTION_ARG_NONE, &opt.as_decoded,
        "Count frames as the decoder outputs them: no videoconvert, no "
        "videoscale (--format, --width and --height are ignored)", NULL},
    {"quiet", 'q', 0, G_OPTION_ARG_NONE, &opt.quiet,
        "Print only the summary, not every frame's histogram", NULL},
    {"frames", 'n', 0, G_OPTION_ARG_INT, &opt.max_frames,
        "Stop after this many frames", "N"},
    {"expect-frames", 0, 0, G_OPTION_ARG_INT, &opt.expect_frames,
        "Fail unless the video has exactly this many frames", "N"},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("VIDEO - check clhistogram "
      "against the golden reference on every frame of a video");
  GError *err = NULL;
  gboolean ok;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  ok = g_option_context_parse (ctx, &argc, &argv, &err) && argc == 2;
  g_option_context_free (ctx);
  if (!ok) {
    g_printerr ("%s\n", err ? err->message : "usage: clhistogram-video "
        "[OPTION...] VIDEO (see --help)");
    g_clear_error (&err);
    return 2;
  }
  if (!opt.format)
    opt.format = g_strdup ("GRAY8");
  if (!opt.mode)
    opt.mode = g_strdup ("luma");
  if (!opt.device)
    opt.device = g_strdup ("auto");

  if (!g_file_test (argv[1], G_FILE_TEST_EXISTS)) {
    g_printerr ("%s does not exist; scripts/fetch-vtest.sh fetches OpenCV's "
        "vtest.avi into data/\n", argv[1]);
    return 2;
  }

  ok = run (argv[1], &opt, &tally);
  if (opt.expect_frames >= 0 && tally.frames != (guint) opt.expect_frames) {
    g_printerr ("expected %d frames, got %u\n", opt.expect_frames,
        tally.frames);
    ok = FALSE;
  }
  g_free (tally.caps);
  g_free (opt.format);
  g_free (opt.mode);
  g_free (opt.device);
  return ok && tally.frames > 0 && tally.mismatches == 0 ? 0 : 1;
}
