/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* An input's monitor picture, a branch of its pipeline:
 *
 *   ... ! clhistogram ! appsink                     (the counting)
 *          ^ sink pad: the gate
 *   appsrc ! clexposuremonitor ! videoconvert ! pngenc ! appsink
 *
 * The gate, a pad probe on the histogram's sink pad, passes a frame when
 * the period has gone by since the last it passed, by the monotonic
 * clock, and lets the others go on to the histogram untouched: a frame
 * not taken costs a clock read. Wall-clock time, not the stream's: a file
 * counted faster than its own rate would give a picture per period of
 * its media, many a second. A frame taken goes to the branch's appsrc as
 * a buffer sharing the frame's memory (no pixel is copied), whose queue
 * holds one and drops the older when a newer comes (leaky downstream), so
 * that a render slower than the period costs no more than one render at
 * a time.
 *
 * The branch has a timeline of its own: each frame taken one second long,
 * one after the other from 0, at 1/1 frames a second, from a source that
 * is not live. compositor (in clexposuremonitor) otherwise fills the
 * time between two frames taken with frames of its own, at the input's
 * rate, and a live input would have it produce them on its clock: each a
 * PNG of nothing.
 *
 * Its flows never reach the counting: appsrc takes the frames without
 * waiting, whatever becomes of them. Nor do its errors (a frame too
 * narrow for the scopes): the branch is a bin of its own kind that keeps
 * them from the pipeline, where any error ends a state change under way
 * (GstBin's handle_message sets its state change's return to FAILURE,
 * GStreamer 1.22's gstbin.c, and its ASYNC_DONE then commits nothing: a
 * pipeline still prerolling would never reach PLAYING); it says them to
 * the input instead, once, takes no more
 * frames, and ends its sink's stream at once, so that the pipeline's end
 * of stream still comes. */
#include "probe-picture.h"

#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>

/* The branch's frames, each this long and so many a second. */
#define FRAME_DURATION GST_SECOND

/* The branch's bin: GstBin but for its children's errors. */
typedef struct
{
  GstBin parent;
  ProbePicture *picture;
} ProbePictureBin;

typedef struct
{
  GstBinClass parent_class;
} ProbePictureBinClass;

static GType probe_picture_bin_get_type (void);
G_DEFINE_TYPE (ProbePictureBin, probe_picture_bin, GST_TYPE_BIN);

struct _ProbePicture
{
  /* The pipeline's; not references. */
  GstElement *bin;
  GstElement *source;
  GstElement *sink;
  gint64 period_us;

  /* The histogram's streaming thread's. */
  gint64 last_taken;
  guint64 taken;
  GstCaps *caps_in;
  GstCaps *caps_out;

  gint failed;
  ProbePictureFunc func;
  ProbePictureErrorFunc error_func;
  gpointer data;
};

static void fail (ProbePicture *pic, GstMessage *error);

/* A child's error is the picture's alone: said to the input, never to the
 * pipeline. So are its QoS messages, which the input would take for its
 * own frames lost (probe-losses.c): the branch drops frames on purpose. */
static void
probe_picture_bin_handle_message (GstBin *bin, GstMessage *msg)
{
  ProbePictureBin *self = (ProbePictureBin *) bin;

  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR && self->picture) {
    fail (self->picture, msg);
    gst_message_unref (msg);
    return;
  }
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_QOS) {
    gst_message_unref (msg);
    return;
  }
  GST_BIN_CLASS (probe_picture_bin_parent_class)->handle_message (bin, msg);
}

static void
probe_picture_bin_class_init (ProbePictureBinClass *klass)
{
  GST_BIN_CLASS (klass)->handle_message = probe_picture_bin_handle_message;
}

static void
probe_picture_bin_init (ProbePictureBin *self)
{
}

/* @factory's element, named @name: the name its errors and warnings
 * are said with. */
static GstElement *
make (GstBin *bin, const gchar *factory, const gchar *name, GError **error)
{
  GstElement *element;

  if (*error)
    return NULL;
  element = gst_element_factory_make (factory, name);
  if (!element) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_MISSING_PLUGIN,
        "--monitor-pictures: no %s element: is its GStreamer plugin "
        "installed%s?", factory, g_str_equal (factory, "pngenc") ?
        " (gst-plugins-good: Debian's gstreamer1.0-plugins-good)" :
        g_str_equal (factory, "clexposuremonitor") ?
        " (GST_PLUGIN_PATH, when running from a build)" : "");
    return NULL;
  }
  gst_bin_add (bin, element);
  return element;
}

/* The branch's caps: the frame's, at the branch's rate. */
static GstCaps *
caps_of_branch (GstCaps *frame)
{
  GstCaps *caps = gst_caps_copy (frame);

  gst_caps_set_simple (caps, "framerate", GST_TYPE_FRACTION,
      (gint) (GST_SECOND / FRAME_DURATION), 1, NULL);
  return caps;
}

/* A frame for the branch, if the period has gone by: its memory shared,
 * its time the branch's. */
static void
take (ProbePicture *pic, GstPad *pad, GstBuffer *frame)
{
  const gint64 now = g_get_monotonic_time ();
  GstCaps *caps;
  GstBuffer *copy;
  GstSample *sample;

  if (g_atomic_int_get (&pic->failed) || (pic->taken > 0
          && now - pic->last_taken < pic->period_us))
    return;
  caps = gst_pad_get_current_caps (pad);
  if (!caps)
    return;
  if (!pic->caps_in || !gst_caps_is_equal (caps, pic->caps_in)) {
    gst_caps_replace (&pic->caps_in, caps);
    gst_clear_caps (&pic->caps_out);
    pic->caps_out = caps_of_branch (caps);
  }
  gst_caps_unref (caps);
  copy = gst_buffer_copy (frame);
  GST_BUFFER_PTS (copy) = pic->taken * FRAME_DURATION;
  GST_BUFFER_DTS (copy) = GST_CLOCK_TIME_NONE;
  GST_BUFFER_DURATION (copy) = FRAME_DURATION;
  sample = gst_sample_new (copy, pic->caps_out, NULL, NULL);
  gst_buffer_unref (copy);
  /* Whatever the branch does with it: never waits, never fails here. */
  gst_app_src_push_sample (GST_APP_SRC (pic->source), sample);
  gst_sample_unref (sample);
  pic->last_taken = now;
  pic->taken++;
}

static GstPadProbeReturn
gate (GstPad *pad, GstPadProbeInfo *info, gpointer data)
{
  ProbePicture *pic = data;

  if (info->type & GST_PAD_PROBE_TYPE_BUFFER)
    take (pic, pad, GST_PAD_PROBE_INFO_BUFFER (info));
  else if (GST_EVENT_TYPE (GST_PAD_PROBE_INFO_EVENT (info)) == GST_EVENT_EOS
      && !g_atomic_int_get (&pic->failed))
    /* The last frame taken is still made, then the branch ends. */
    gst_app_src_end_of_stream (GST_APP_SRC (pic->source));
  return GST_PAD_PROBE_OK;
}

static GstFlowReturn
on_png (GstAppSink *sink, gpointer data)
{
  ProbePicture *pic = data;
  GstSample *sample = gst_app_sink_pull_sample (sink);
  GstStructure *s;
  GstBuffer *buffer;
  GstMapInfo map;
  gint width = 0, height = 0;

  if (!sample)
    return GST_FLOW_FLUSHING;
  buffer = gst_sample_get_buffer (sample);
  s = gst_sample_get_caps (sample) ?
      gst_caps_get_structure (gst_sample_get_caps (sample), 0) : NULL;
  if (s) {
    gst_structure_get_int (s, "width", &width);
    gst_structure_get_int (s, "height", &height);
  }
  if (pic->func && buffer && gst_buffer_map (buffer, &map, GST_MAP_READ)) {
    GBytes *png = g_bytes_new (map.data, map.size);

    gst_buffer_unmap (buffer, &map);
    pic->func (png, MAX (width, 0), MAX (height, 0), pic->data);
    g_bytes_unref (png);
  }
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

/* The input's settings that the monitor's elements share with its
 * histogram, as the histogram took them: its zones, its clip levels, its
 * alerts' thresholds as the levels the zones are coloured at, its device.
 * The monitor's own count posts no message: the input's are the
 * histogram's. */
static void
configure (GstElement *monitor, GstElement *histogram,
    const ProbeSettings *s)
{
  GstChildProxy *proxy = GST_CHILD_PROXY (monitor);
  gchar *text;
  gdouble v;

  gst_child_proxy_set (proxy, "count::post-messages", FALSE, NULL);
  if (s->zones) {
    g_object_get (histogram, "zones", &text, NULL);
    g_object_set (monitor, "zones", text ? text : "", NULL);
    g_free (text);
  }
  if (s->clip_low_level) {
    g_object_get (histogram, "clip-low-level", &v, NULL);
    gst_child_proxy_set (proxy, "count::clip-low-level", v, NULL);
  }
  if (s->clip_high_level) {
    g_object_get (histogram, "clip-high-level", &v, NULL);
    gst_child_proxy_set (proxy, "count::clip-high-level", v, NULL);
  }
  g_object_get (histogram, "alert-clipped", &v, NULL);
  if (v > 0)
    gst_child_proxy_set (proxy, "overlay::zone-clipped", v, NULL);
  g_object_get (histogram, "alert-crushed", &v, NULL);
  if (v > 0)
    gst_child_proxy_set (proxy, "overlay::zone-crushed", v, NULL);
  if (s->device) {
    g_object_get (histogram, "device", &text, NULL);
    gst_child_proxy_set (proxy, "count::device", text, "marks::device",
        text, "scope::device", text, NULL);
    g_free (text);
  }
}

static gboolean
build (ProbePicture *pic, GstElement *histogram, const ProbeSettings *s,
    GError **error)
{
  GstBin *bin = GST_BIN (pic->bin);
  GstElement *monitor, *convert, *filter, *encode;
  GstCaps *rgb;
  GError *err = NULL;

  pic->source = make (bin, "appsrc", "picture-source", &err);
  monitor = make (bin, "clexposuremonitor", "monitor", &err);
  convert = make (bin, "videoconvert", "picture-convert", &err);
  filter = make (bin, "capsfilter", "picture-format", &err);
  encode = make (bin, "pngenc", "picture-encode", &err);
  pic->sink = make (bin, "appsink", "picture-sink", &err);
  if (err) {
    g_propagate_error (error, err);
    return FALSE;
  }
  g_object_set (pic->source, "format", GST_FORMAT_TIME, "is-live", FALSE,
      "block", FALSE, "max-bytes", (guint64) 0, "max-buffers", (guint64) 1,
      NULL);
  gst_util_set_object_arg (G_OBJECT (pic->source), "leaky-type",
      "downstream");
  configure (monitor, histogram, s);
  /* No alpha: the monitor is opaque. */
  rgb = gst_caps_from_string ("video/x-raw,format=RGB");
  g_object_set (filter, "caps", rgb, NULL);
  gst_caps_unref (rgb);
  /* zlib's fastest level: a picture for a browser on the network, made
   * again each period, and mostly flat black where the scopes are. */
  g_object_set (encode, "compression-level", 1, NULL);
  /* Not waited for by the pipeline's state changes; it keeps none of
   * the pictures. */
  g_object_set (pic->sink, "sync", FALSE, "async", FALSE, "max-buffers", 1,
      "drop", TRUE, "enable-last-sample", FALSE, NULL);
  return gst_element_link_many (pic->source, monitor, convert, filter,
      encode, pic->sink, NULL);
}

/**
 * probe_picture_new:
 * @pipeline: the input's pipeline, which the branch joins
 * @histogram: its clhistogram, settings applied: the frames it takes
 *   are the picture's
 * @settings: the input's settings
 * @period_us: the shortest time between two frames taken, microseconds
 *
 * Returns: (transfer full) (nullable): the branch, its frames taken from
 *   the histogram's sink pad from now on; %NULL with @error
 *   (#GST_CORE_ERROR_MISSING_PLUGIN) if an element is not installed. Free
 *   it once the pipeline is down and unreferenced.
 */
ProbePicture *
probe_picture_new (GstElement *pipeline, GstElement *histogram,
    const ProbeSettings *settings, gint64 period_us, GError **error)
{
  ProbePicture *pic = g_new0 (ProbePicture, 1);
  GstAppSinkCallbacks callbacks = { NULL };
  GstPad *pad;

  pic->period_us = period_us;
  pic->bin = g_object_new (probe_picture_bin_get_type (), "name",
      "monitor-picture", NULL);
  ((ProbePictureBin *) pic->bin)->picture = pic;
  gst_bin_add (GST_BIN (pipeline), pic->bin);
  if (!build (pic, histogram, settings, error)) {
    gst_bin_remove (GST_BIN (pipeline), pic->bin);
    g_free (pic);
    return NULL;
  }
  callbacks.new_sample = on_png;
  gst_app_sink_set_callbacks (GST_APP_SINK (pic->sink), &callbacks, pic,
      NULL);
  pad = gst_element_get_static_pad (histogram, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, gate, pic, NULL);
  gst_object_unref (pad);
  return pic;
}

/**
 * probe_picture_set_callbacks:
 * @func: called with each picture made, on the branch's thread
 * @error_func: called once if the branch fails, with why (one line), on
 *   the thread of its error; no picture is made after it
 *
 * Set before the pipeline starts.
 */
void
probe_picture_set_callbacks (ProbePicture *pic, ProbePictureFunc func,
    ProbePictureErrorFunc error_func, gpointer data)
{
  pic->func = func;
  pic->error_func = error_func;
  pic->data = data;
}

static void
end_sink (GstElement *sink, gpointer unused)
{
  GstPad *pad = gst_element_get_static_pad (sink, "sink");

  gst_pad_send_event (pad, gst_event_new_eos ());
  gst_object_unref (pad);
}

/* The branch failed (@error, of one of its elements): said once, no frame
 * taken any more, and its sink's stream ended now, from GStreamer's thread
 * pool, so that the pipeline's end of stream does not wait for a branch
 * that stopped. On the thread that posts the error. */
static void
fail (ProbePicture *pic, GstMessage *error)
{
  GError *err = NULL;
  gchar *reason;

  if (!g_atomic_int_compare_and_exchange (&pic->failed, 0, 1))
    return;
  gst_message_parse_error (error, &err, NULL);
  reason = g_strdup_printf ("%s: %s", GST_MESSAGE_SRC_NAME (error),
      err->message);
  g_strdelimit (reason, "\r\n", ' ');
  if (pic->error_func)
    pic->error_func (reason, pic->data);
  gst_element_call_async (pic->sink, end_sink, NULL, NULL);
  g_free (reason);
  g_error_free (err);
}

void
probe_picture_free (ProbePicture *pic)
{
  if (!pic)
    return;
  gst_clear_caps (&pic->caps_in);
  gst_clear_caps (&pic->caps_out);
  g_free (pic);
}
