/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-clhistogram
 * @title: clhistogram
 *
 * Computes the histogram of every raw video frame on an OpenCL device and
 * hands it on as a #GstHistogramMeta on the buffer and as a `histogram`
 * element message on the bus. The frame itself passes unchanged.
 *
 * ## Messages
 *
 * ### The `histogram` message
 *
 * The element posts one for every frame (with #GstClHistogram:interval, for
 * every interval) unless #GstClHistogram:post-messages is %FALSE;
 * `gst-launch-1.0 -m` prints it. The frame's #GstHistogramMeta holds the
 * same figures. Its structure is named `histogram` and has these fields:
 *
 * * #guint64 `timestamp`, `stream-time`, `running-time`, `duration`: the
 *   frame's (ns, or %GST_CLOCK_TIME_NONE where unknown)
 * * #gchararray `mode`: what was counted: `luma`, `channels`, `max`,
 *   `hue`, `hue-saturation` or `rgb`
 * * #guint `bins`: counters per channel (for `hue-saturation` and `rgb` the
 *   flattened array: the product of `shape`)
 * * #guint `frames`: only with #GstClHistogram:interval, the frames the
 *   message sums; its times are then the first frame's, `duration` the
 *   running time the interval covers, and `pixels` (the top level's and each
 *   region's) the sum over its frames
 * * #GstValueArray of #gchararray `channels`: channel names, in order
 *   (`Y`; `R`, `G`, `B`[, `A`]; `Y`, `U`, `V`; or the mode's nick)
 * * #guint64 `pixels`: pixels analysed (width x height)
 * * #GstValueArray of #GstValueArray of #guint `counts`: one array of
 *   `bins` counts per channel (left out with
 *   #GstClHistogram:message-counts %FALSE; the meta keeps them)
 * * #GstValueArray of #guint64 `samples`: samples each channel examined
 *   (4:2:0 chroma: a quarter of the pixels)
 * * #GstValueArray of #guint64 `below`, `above`: samples of each channel
 *   outside [`range-min`, `range-max`], counted in no bin
 * * the statistics, listed below
 * * #GstValueArray of #guint `shape`: bins along each dimension
 * * #guint `depth`: significant bits per sample (8, 10, 12, 16)
 * * #gchararray `video-range`: `full`, `limited` or `unknown`, from the caps
 * * #guint `range-min`, `range-max`: the values binned (first axis)
 * * #GstValueArray of #gdouble `percentile-points`: with statistics, the p
 *   of each percentile, as #GstClHistogram:percentiles gives them
 * * #gdouble `metering`, `metering-percent`: the metering value, described
 *   below
 * * #GstValueArray of #GstStructure `regions`: a `region` structure per
 *   zone, fixed region, ROI meta and analytics box, described below (empty
 *   without them)
 *
 * With #GstClHistogram:full-frame %FALSE the top level has no `counts`,
 * `samples`, `below`, `above` or statistics: only the regions have them.
 *
 * **Statistics.** Modes `luma`, `channels` and `max` with
 * #GstClHistogram:statistics %TRUE (the default) add these fields, one
 * value for each channel, exact whatever `bins` and the range:
 *
 * * #GstValueArray of #guint `min`, `max`: the smallest and the largest
 *   sample value
 * * #GstValueArray of #gdouble `mean`: the mean of the sample values (not
 *   of bin centres)
 * * #GstValueArray of #GstValueArray of #guint `percentiles`: for each p of
 *   `percentile-points`, the smallest sample value v such that the samples
 *   <= v number at least `lrint (N * p / 100)`, N the channel's samples
 *   (FFmpeg signalstats' rule: p = 10 and 90 give its YLOW and YHIGH); a
 *   rank of 0 gives the smallest sample
 * * #GstValueArray of #guint64 `clipped-low`, `clipped-high`: samples at or
 *   below `clip-low-level`, and at or above `clip-high-level`
 * * #GstValueArray of #guint `clip-low-level`, `clip-high-level`: the code
 *   values of #GstClHistogram:clip-low-level and
 *   #GstClHistogram:clip-high-level (percentages of the channel's nominal
 *   range for the stream's range). By default (0 and 100) they are its
 *   nominal black and white: for limited-range caps 16 and 235 (240 for U
 *   and V), scaled by 2^(depth - 8); otherwise 0 and 2^depth - 1
 * * #GstValueArray of #guint64 `below-legal`, `above-legal`: only for
 *   limited-range caps, the samples under 16 and over 235 (240 for U and V),
 *   scaled by 2^(depth - 8)
 *
 * A channel with no samples (an empty region) reports 0 for each of them
 * (`mean` 0.0).
 *
 * **Metering.** `metering` is a weighted mean luma, in code values of the
 * luma's depth; `metering-percent` the same in percent of its nominal range
 * for the stream's range, 0 at nominal black and 100 at nominal white
 * (`(metering - 16) / 219 * 100` for limited 8-bit). They are there for
 * histograms with luma (mode `luma`; `channels` of YUV and gray formats)
 * with statistics, when #GstClHistogram:metering gives a value; with an
 * interval, over its frames. The value weighs each zone z by w_z, over the
 * samples it holds, as libcamera's AGC weighs its zones:
 * `sum (w_z * S_z) / sum (w_z * N_z)`, S_z the sum of the zone's luma
 * samples and N_z their number. #GstClHistogram:metering picks the
 * weights:
 *
 * * `average` (the default): the frame's mean; with
 *   #GstClHistogram:full-frame %FALSE, that of the zones together (the
 *   same), and no value without zones
 * * `centre-weighted`: a tent over the C x R zones of
 *   #GstClHistogram:zones, `(C - |2i + 1 - C|) * (R - |2j + 1 - R|)` for
 *   zone (i, j) (3x3: 1 3 1 / 3 9 3 / 1 3 1)
 * * `spot`: the centre zone only (the two or four at the centre of an even
 *   grid); with `zones=9x9`, about 1.2% of the frame
 * * `zones`: the zones weighted by #GstClHistogram:metering-weights
 *
 * All but `average` need #GstClHistogram:zones. Settings that give no value
 * (no zones, weights of another count than the zones, weights all 0) say
 * so once, in a warning. The meta gst_buffer_get_histogram_meta() returns
 * (the full frame's, else the first region's) carries the value:
 * gst_histogram_meta_get_metering(), `meta.get_metering()` in Python.
 *
 * **Regions.** Each `region` structure has #gchararray `type`, #gint `id`,
 * #guint `x`, `y`, `width`, `height` (its rectangle, clipped to the frame),
 * #guint64 `pixels`, then `counts`, `samples`, `below`, `above` and the
 * statistics as the top level has them. They come in this order:
 *
 * * the zones (#GstClHistogram:zones), row by row: type `zone`, id
 *   `j * C + i` for zone (i, j), and beside the id #guint `row` (j, 0 at
 *   the top), #guint `column` (i, 0 at the left) and #gchararray
 *   `position`, the zone's name described below
 * * the fixed rectangles (#GstClHistogram:regions): type `region`, id
 *   their index
 * * with #GstClHistogram:roi-meta, each #GstVideoRegionOfInterestMeta of
 *   the buffer, in the buffer's order: type the meta's `roi_type`, id its
 *   id
 * * last, with #GstClHistogram:roi-meta and built with GStreamer's
 *   analytics library (1.24 and later), each #GstAnalyticsODMtd box of the
 *   frame's relation meta, in its order: type the box's label, id the
 *   tracking id of the track it relates to, else the box's own mtd id
 *
 * With an interval, `regions` holds each region (by type and id) met in its
 * frames, in the order first met, with its last frame's rectangle (and a
 * zone's last `row`, `column` and `position`). A subsampled chroma sample
 * belongs to a region if and only if its co-sited luma pixel does.
 *
 * **Zone positions.** A zone's `position` names it as an operator would.
 * In a grid of at most 3 x 3 it is in words: the row's word (`top` for the
 * first row, `bottom` for the last, none for the middle of three or for a
 * single row), then the column's (`left`, `right`, none for the middle of
 * three or for a single column), joined by `-`; a single word where the
 * other is none, and `centre` where both are. So 3x3 gives `top-left`,
 * `top`, `top-right`, `left`, `centre`, `right`, `bottom-left`,
 * `bottom`, `bottom-right`; 3x2 `top-left`, `top`, `top-right`,
 * `bottom-left`, `bottom`, `bottom-right`; 1x1 `centre`. A grid of more
 * than 3 columns or rows, where a word would fit several zones, gives
 * `r<row>c<column>` with the numbers of `row` and `column` (5x5: `r0c0`
 * at the top left, `r2c2` at the centre, `r4c4` at the bottom right).
 * Each name is one zone's within its grid; `id` stays as it was.
 *
 * ### The `exposure` message
 *
 * With #GstClHistogram:alert-clipped or #GstClHistogram:alert-crushed above
 * 0, the element posts an `exposure` element message when the share of the
 * samples clipped high (`clipped`) or low (`crushed`) of the frame or of a
 * zone reaches the threshold, and when it clears: once each way, on the
 * frame that decides it, after that frame's `histogram` message (if it posts
 * one). An alert starts when the share reaches the threshold and clears when
 * it falls under the threshold less #GstClHistogram:alert-hysteresis (or to
 * 0); either change waits until its condition has held for
 * #GstClHistogram:alert-hold of running time, frame after frame, so that a
 * shorter flap posts nothing.
 *
 * Alerts run on every frame, whatever #GstClHistogram:interval,
 * #GstClHistogram:post-messages and #GstClHistogram:attach-meta say. They
 * need the statistics (modes `luma`, `channels` or `max` with
 * #GstClHistogram:statistics %TRUE); without them a warning says so once
 * and no `exposure` message comes. The share of the frame or of a zone is
 * the largest of its channels that show exposure (Y, R, G, B, `max`; not
 * U, V or A), counted at the clip levels (`clipped-low`, `clipped-high`).
 * A new zone grid, or a new #GstClHistogram:full-frame, clears the alerts
 * that were on; so does a threshold set back to 0, for its alerts.
 *
 * Its fields:
 *
 * * #guint64 `timestamp`, `stream-time`, `running-time`: the frame's (ns,
 *   or %GST_CLOCK_TIME_NONE where unknown)
 * * #gchararray `alert`: `clipped` or `crushed`
 * * #gchararray `event`: `start` or `clear`
 * * #gdouble `threshold`: the alert's threshold, in percent
 * * #gboolean `frame`: whether the frame's own alert changed
 * * #gdouble `frame-percent`: only when `frame` is %TRUE, the frame's share
 *   in percent
 * * #GstValueArray of #gint `zones`: the ids (`j * C + i`) of the zones
 *   whose alert changed, in ascending order
 * * #GstValueArray of #guint `zone-row`, `zone-column` and of #gchararray
 *   `zone-position`: their rows, columns and positions (as the `histogram`
 *   message's regions give them), in the same order
 * * #GstValueArray of #gdouble `zone-percent`: their shares in percent, in
 *   the same order
 * * #gboolean `active`: whether any alert of this kind (the frame's or a
 *   zone's) is on afterwards
 * * #gboolean `frame-active`: whether the frame's is
 * * #GstValueArray of #gint `active-zones`: the zones whose alert is on
 *   afterwards, in ascending order
 * * #GstValueArray of #guint `active-zone-row`, `active-zone-column` and of
 *   #gchararray `active-zone-position`: their rows, columns and positions,
 *   in the same order
 *
 * Where some alerts of a kind clear and others start on one frame, the
 * `clear` message comes first, and its `active`, `frame-active` and
 * `active-zones` leave out the alerts that start. The zones of alerts
 * that a new grid clears are named in the grid they were on.
 *
 * ## Devices, frames in flight and property changes
 *
 * Every clhistogram element on one device shares one OpenCL context and
 * compiled program, found through a `gst.opencl.context` #GstContext (an
 * application may set one); each has its own command queue. When
 * downstream proposes no buffer pool, the element proposes one of host
 * memory the device reads without a host copy, with #GstVideoMeta and the
 * device's alignment.
 *
 * With #GstClHistogram:max-frames-in-flight above 1 the upload of one
 * frame overlaps the counting of the ones before. Each frame leaves with
 * its meta, and its message is posted, from the element's own thread as
 * soon as it is counted; EOS, a caps change or any other serialized event
 * waits until every pending frame has left; a flush drops them.
 *
 * Every property but the device may change while playing. The properties
 * one g_object_set() sets (or those set between g_object_freeze_notify()
 * and g_object_thaw_notify()) take effect together, from the next frame:
 * a new mode and bins, or new regions and zones, set at once are never
 * seen one without the other.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 -m videotestsrc num-buffers=3 ! video/x-raw,format=GRAY8 ! \
 *     clhistogram bins=16 ! fakesink
 * ]| prints a 16-bin luma histogram of each of three frames.
 * |[
 * gst-launch-1.0 -m videotestsrc num-buffers=3 ! video/x-raw,format=RGBA ! \
 *     clhistogram mode=channels bins=8 ! fakesink
 * ]| prints 8-bin histograms of R, G, B and A.
 * |[
 * gst-launch-1.0 -m filesrc location=vtest.avi ! decodebin ! \
 *     clhistogram mode=hue min-saturation=30 ! fakesink
 * ]| prints OpenCV-style 180-bin hue histograms straight from the decoder's
 * I420, the masked histogram CamShift trackers build.
 */
#include "gstclhistogram.h"
#include "base/gstclbasecudainput.h"
#include "gstclhistograminterval.h"
#include "gstclhistogrammetering.h"
#include "gstclhistogramregions.h"
#include "gstclhistogramrequest.h"
#include "gstclhistogramresult.h"
#include "gstclhistogramstats.h"
#include "gstclhistogramposter.h"
#include "clh-engine.h"

#include <string.h>

GST_DEBUG_CATEGORY (gst_cl_histogram_debug);
#define GST_CAT_DEFAULT gst_cl_histogram_debug

#define DEFAULT_MODE GST_HISTOGRAM_MODE_LUMA
#define DEFAULT_BINS 256
#define DEFAULT_RANGE_MIN 0
#define DEFAULT_RANGE_MAX -1
#define DEFAULT_MIN_SATURATION 0
#define DEFAULT_MIN_VALUE 0
#define DEFAULT_POST_MESSAGES TRUE
#define DEFAULT_ATTACH_META TRUE
#define DEFAULT_MESSAGE_COUNTS TRUE
#define DEFAULT_METERING GST_CL_HISTOGRAM_METERING_AVERAGE
/* Exposure alerts off; once on, a share must fall 0.5 percentage points
 * under the threshold to clear, and a change must hold for 200 ms (6
 * frames at 30 fps) to be reported. */
#define DEFAULT_ALERT_CLIPPED 0.0
#define DEFAULT_ALERT_CRUSHED 0.0
#define DEFAULT_ALERT_HYSTERESIS 0.5
#define DEFAULT_ALERT_HOLD (200 * GST_MSECOND)
#define DEFAULT_MAX_FRAMES_IN_FLIGHT 0
/* Frames in flight for a source that is not live when the property is 0:
 * enough for the upload of one frame to overlap the counting and readback
 * of the one before; more gained nothing on the H100
 * (docs/performance.md: 4 and 8 ran at the same rate). */
#define DEFAULT_IN_FLIGHT 4
#define MAX_IN_FLIGHT 16
#define DEFAULT_FULL_FRAME TRUE
#define DEFAULT_ZONES ""
#define DEFAULT_ROI_META TRUE
#define DEFAULT_STATISTICS TRUE
#define DEFAULT_INTERVAL 0
/* Nominal black and white of the stream's range, in percent of it. */
#define DEFAULT_CLIP_LOW_LEVEL 0.0
#define DEFAULT_CLIP_HIGH_LEVEL 100.0
/* Percent of the nominal range the clip levels may lie at: -10 and 110
 * reach the extreme codes of every depth's limited range (0 is -7.3% of
 * 8-bit luma, 255 is 109.1%). */
#define MIN_CLIP_LEVEL -10.0
#define MAX_CLIP_LEVEL 110.0
/* The 1st and 99th percentiles bound the picture's tonal range, the 10th
 * and 90th are FFmpeg signalstats' YLOW and YHIGH, the 50th its median. */
static const gdouble default_percentiles[] = { 1.0, 10.0, 50.0, 90.0, 99.0 };
enum {
  PROP_0,
  PROP_MODE,
  PROP_BINS,
  PROP_POST_MESSAGES,
  PROP_ATTACH_META,
  PROP_RANGE_MIN,
  PROP_RANGE_MAX,
  PROP_MIN_SATURATION,
  PROP_MIN_VALUE,
  PROP_MAX_FRAMES_IN_FLIGHT,
  PROP_FULL_FRAME,
  PROP_REGIONS,
  PROP_ZONES,
  PROP_ROI_META,
  PROP_STATISTICS,
  PROP_PERCENTILES,
  PROP_INTERVAL,
  PROP_CLIP_LOW_LEVEL,
  PROP_CLIP_HIGH_LEVEL,
  PROP_MESSAGE_COUNTS,
  PROP_METERING,
  PROP_METERING_WEIGHTS,
  PROP_ALERT_CLIPPED,
  PROP_ALERT_CRUSHED,
  PROP_ALERT_HYSTERESIS,
  PROP_ALERT_HOLD,
};

/* System memory first, then (built with GStreamer's CUDA library) the
 * decoders' formats in CUDA memory (base/gstclbasecudainput.c). */
#define CAPS_STR GST_CL_BASE_TRANSFORM_CAPS \
  GST_CL_CUDA_CAPS_MAKE (GST_CL_CUDA_FORMATS)

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (CAPS_STR));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (CAPS_STR));

/* A buffer between submit_input_buffer and the output thread's push:
 * mapped as the frame the engine reads until it is collected, with what its
 * meta and message will say. */
typedef struct {
  GstBuffer *buffer;
  /* Submitted to the engine; FALSE for a frame nothing is counted for,
   * queued only to keep its place. */
  gboolean counted;
  GstClFrameMap map;
  /* The device memory the mapped frame lies in (frames in CUDA memory
   * imported into OpenCL), NULL for a frame in host memory. */
  const ClhHostBlock *device_block;
  /* The GstVideoCropMeta's rectangle when the frame could not be narrowed
   * to it in place (a corner off a subsampled component's grid, or inside
   * a packed group of samples): then the memory's frame is counted with
   * the crop as its full-frame region and every other region shifted into
   * it. */
  gboolean crop_as_region;
  ClhRect crop;

  GstClHistogramRequest request;
  GstClockTime running_time;
  GstClockTime stream_time;
} GstClPendingFrame;

struct _GstClHistogram {
  GstClBaseTransform parent;

  /* Properties and the negotiated format, under the object lock. The
   * counting properties as set, which get_property reads, and as applied,
   * which frames read: GObject's set_property stores one property at a
   * time, dispatch_properties_changed copies them whole once a
   * g_object_set() has stored them all. */
  GstClHistogramSettings settings;
  GstClHistogramSettings applied;
  guint max_frames_in_flight;
  /* Upstream answered the latency query as live when the caps came. */
  gboolean upstream_live;

  /* From NULL->READY to READY->NULL: our own engine (queues, buffers) on
   * the device context of the base class, under the object lock. */
  ClhEngine *engine;
  /* Frames the engine keeps at once (streaming thread). */
  guint in_flight;

  /* Serialises the engine's calls: the streaming thread submits, the
   * output thread collects (it waits for the device without it). Taken
   * before @lock. */
  GMutex engine_lock;
  /* Between the streaming thread and the output thread, under @lock,
   * signalled on @cond: the frames submitted and not yet pushed, oldest
   * first (GstClPendingFrame), the head being the output thread's until
   * its push returned; what the last push returned unless OK, which the
   * next frame returns upstream, until a flush or stop; a flush under way;
   * the thread asked to stop. */
  GMutex lock;
  GCond cond;
  GQueue pending;
  /* Of those, the ones not collected yet: what the frames in flight
   * bound. The streaming thread submits the next frame while the output
   * thread pushes the one it collected, not after. */
  guint n_uncollected;
  GstFlowReturn flow;
  gboolean flushing;
  gboolean output_stopping;
  /* With several frames in flight, builds and posts the `histogram`
   * messages, in order, beside the output thread: a 4 x 256-bin message
   * takes longer to build than a frame takes to count. */
  GstClPoster *poster;
  /* The output thread (streaming thread), started with the first frame. */
  GThread *output_thread;

  /* The last frame's histograms as the engine counted them and, with
   * statistics, as the request asked for them (output thread). */
  GstClHistogramSet counted;
  GstClHistogramSet results;
  /* The exposure alerts of the frames pushed, and what the last frame
   * changed (output thread; reset with streaming stopped). */
  GstClExposureAlert *alert;
  GstClExposureEvents events;
  /* Alerts were on for a frame since they were last reset. */
  gboolean alerts_used;
  /* The zone grid of the alerts' areas, C x R: the one of the last
   * frame they took, which names the zones of the alerts a new grid
   * clears (output thread). */
  guint alert_cols;
  guint alert_rows;
  /* What the messages of the current interval sum: the output thread's
   * while frames are pending, else the streaming thread's. */
  GstClHistogramInterval *interval;
  /* Zones and fixed regions reported outside the frame, under the object
   * lock. */
  GstClRegionReports reports;
  /* Why the last regions or zones value was ignored, until it is posted
   * (set from gst-launch, the element has no bus yet); under the object
   * lock. */
  gchar *settings_warning;
  /* Why the last caps were refused (streaming thread), so that the
   * retries of one negotiation post its error once. */
  gchar *refusal;
  /* Whether the settings' metering or alerts were said to give nothing,
   * until the properties change; under the object lock. */
  gboolean metering_warned;
  gboolean alerts_warned;
};

#define gst_cl_histogram_parent_class parent_class
G_DEFINE_TYPE (GstClHistogram, gst_cl_histogram, GST_TYPE_CL_BASE_TRANSFORM);
GST_ELEMENT_REGISTER_DEFINE (clhistogram, "clhistogram", GST_RANK_NONE,
    GST_TYPE_CL_HISTOGRAM);

static void post_settings_warning (GstClHistogram *self);

/* Frames the engine keeps at once: the property, or when it is 0 one for
 * live sources (each frame goes on at once) and DEFAULT_IN_FLIGHT for
 * others. */
static guint
in_flight_for (guint property, gboolean live)
{
  if (property > 0)
    return property;
  return live ? 1 : DEFAULT_IN_FLIGHT;
}

/* The frames in flight wanted now, from the property and upstream's
 * liveness; any thread. */
static guint
wanted_in_flight (GstClHistogram *self)
{
  guint n;

  GST_OBJECT_LOCK (self);
  n = in_flight_for (self->max_frames_in_flight, self->upstream_live);
  GST_OBJECT_UNLOCK (self);
  return n;
}

/* Gives the engine the frames in flight wanted now; streaming thread,
 * with nothing pending, which the engine requires. */
static void
apply_in_flight (GstClHistogram *self)
{
  const guint n = wanted_in_flight (self);
  GError *err = NULL;

  if (n == self->in_flight)
    return;
  g_mutex_lock (&self->engine_lock);
  if (!clh_engine_set_max_in_flight (self->engine, n, &err)) {
    g_mutex_unlock (&self->engine_lock);
    GST_WARNING_OBJECT (self, "keeping %u frames in flight: %s",
        self->in_flight, err->message);
    g_clear_error (&err);
    return;
  }
  /* With several frames in flight the output thread waits for one while
   * this thread submits the next: the engine then keeps its driver calls
   * on one thread. With one, nothing is submitted while it waits. */
  clh_engine_set_handover (self->engine, n > 1);
  g_mutex_unlock (&self->engine_lock);
  GST_DEBUG_OBJECT (self, "%u frames in flight (was %u)", n, self->in_flight);
  self->in_flight = n;
}

/* Whether upstream is live, for the automatic frames in flight; unknown
 * counts as live, which keeps one frame in flight as before. */
static gboolean
query_upstream_live (GstClHistogram *self)
{
  GstQuery *query = gst_query_new_latency ();
  gboolean live = TRUE;

  if (gst_pad_peer_query (GST_BASE_TRANSFORM_SINK_PAD (self), query))
    gst_query_parse_latency (query, &live, NULL, NULL);
  else
    GST_DEBUG_OBJECT (self, "upstream answered no latency query");
  gst_query_unref (query);
  return live;
}

/* A pending frame for @buffer (taken), with its times in @segment now;
 * its request is the caller's to fill. */
static GstClPendingFrame *
pending_frame_new (GstBuffer *buffer, const GstSegment *segment)
{
  GstClPendingFrame *pending = g_new0 (GstClPendingFrame, 1);
  const GstClockTime ts = GST_BUFFER_PTS (buffer);

  pending->buffer = buffer;
  pending->running_time = pending->stream_time = GST_CLOCK_TIME_NONE;
  if (segment->format == GST_FORMAT_TIME) {
    pending->running_time = gst_segment_to_running_time (segment,
        GST_FORMAT_TIME, ts);
    pending->stream_time = gst_segment_to_stream_time (segment,
        GST_FORMAT_TIME, ts);
  }
  return pending;
}

/* Only once the engine has collected or discarded the frame. */
static void
pending_frame_free (GstClPendingFrame *pending)
{
  gst_cl_frame_map_clear (&pending->map);
  gst_clear_buffer (&pending->buffer);
  gst_cl_histogram_request_clear (&pending->request);
  g_free (pending);
}

/* Narrows @frame (the memory's frame) to what is counted: the
 * GstVideoCropMeta's rectangle, or the caps' size from the top-left; FALSE
 * after posting a STREAM error for a rectangle outside the frame. A
 * rectangle whose corner is not on a subsampled component's grid leaves
 * @frame whole and is counted as a region of it, which counts a chroma
 * sample iff its co-sited luma pixel lies inside (the spec's rule for
 * regions, in the buffer's uncropped coordinates). */
static gboolean
crop_frame (GstClHistogram *self, GstClPendingFrame *pending, ClhFrame *frame)
{
  GstVideoCropMeta *crop = gst_buffer_get_video_crop_meta (pending->buffer);
  GstClHistogramRequest *request = &pending->request;
  guint x = 0, y = 0, width = request->width, height = request->height;
  GError *err = NULL;

  if (crop) {
    x = crop->x;
    y = crop->y;
    width = crop->width;
    height = crop->height;
  }
  if (width < 1 || height < 1 || x > frame->width
      || width > frame->width - x || y > frame->height
      || height > frame->height - y) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("A %s frame's GstVideoCropMeta (%ux%u at (%u, %u)) is not inside "
            "its %ux%u frame; the element upstream attached a wrong "
            "GstVideoCropMeta.", GST_VIDEO_INFO_NAME
            (gst_cl_base_transform_get_info (GST_CL_BASE_TRANSFORM (self))),
            width,
            height, x, y, frame->width, frame->height), (NULL));
    return FALSE;
  }
  request->width = width;
  request->height = height;
  if (clh_frame_crop (frame, x, y, width, height, &request->spec, &err))
    return TRUE;
  GST_LOG_OBJECT (self, "counting the crop as a region: %s", err->message);
  g_error_free (err);
  pending->crop_as_region = TRUE;
  pending->crop.x = (gint) x;
  pending->crop.y = (gint) y;
  pending->crop.width = (gint) width;
  pending->crop.height = (gint) height;
  return TRUE;
}

/* Maps @pending's buffer as @frame: its GstVideoMeta checked against the
 * caps and the buffer's size, its GstVideoCropMeta applied; the mapping
 * lasts until the frame is freed. FALSE after posting an element error. */
static gboolean
map_frame (GstClHistogram *self, GstClPendingFrame *pending, ClhFrame *frame)
{
  return gst_cl_base_transform_map (GST_CL_BASE_TRANSFORM (self),
      pending->buffer, &pending->map, frame, &pending->device_block)
      && crop_frame (self, pending, frame);
}

/* Posts the element error for an engine failure on a frame, after the
 * messages of the frames before it; takes @err. Any thread. */
static void
post_engine_error (GstClHistogram *self, GError *err)
{
  gst_cl_poster_flush (self->poster);
  gst_cl_base_transform_engine_error (GST_CL_BASE_TRANSFORM (self), err);
}

/* Our own engine on the device context the base class found. */
static gboolean
gst_cl_histogram_open (GstClBaseTransform *base, ClhContext *context,
    GError **error)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (base);
  ClhEngine *engine = clh_engine_new_for_context (context, error);

  if (!engine)
    return FALSE;
  GST_INFO_OBJECT (self, "using OpenCL device %s (%s)",
      clh_engine_get_device_name (engine),
      clh_engine_get_platform_name (engine));
  self->in_flight = clh_engine_get_max_in_flight (engine);
  GST_OBJECT_LOCK (self);
  self->engine = engine;
  GST_OBJECT_UNLOCK (self);
  return TRUE;
}

static void reset_output (GstClHistogram *self);

/* Every pending frame is discarded before the engine goes. */
static void
gst_cl_histogram_close (GstClBaseTransform *base)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (base);
  ClhEngine *engine;

  reset_output (self);
  GST_OBJECT_LOCK (self);
  engine = g_steal_pointer (&self->engine);
  GST_OBJECT_UNLOCK (self);
  clh_engine_free (engine);
}

/* The rectangles of @pending's regions, for the engine, and how many:
 * those of its request or, for a crop counted as a region, the crop (as
 * the full frame's, if counted) and the request's shifted into it. */
static ClhRect *
region_rects (const GstClPendingFrame *pending, guint *n_rects)
{
  const GArray *regions = pending->request.regions;
  const gboolean crop_first = pending->crop_as_region
      && pending->request.settings.full_frame;
  ClhRect *rects = g_new (ClhRect, regions->len + 1);
  ClhRect *r = rects;
  guint i;

  if (crop_first)
    *r++ = pending->crop;
  for (i = 0; i < regions->len; i++, r++) {
    *r = g_array_index (regions, GstClHistogramRegion, i).rect;
    /* Clipped to the crop's size: inside the crop once shifted. */
    if (pending->crop_as_region) {
      r->x += pending->crop.x;
      r->y += pending->crop.y;
    }
  }
  *n_rects = regions->len + (crop_first ? 1 : 0);
  return rects;
}

/* Maps the frame, lists its regions and enqueues the counting of every
 * histogram; with the engine lock. FALSE after posting an element error. */
static gboolean
submit_frame (GstClHistogram *self, GstClPendingFrame *pending)
{
  GstClHistogramRequest *request = &pending->request;
  const GstClHistogramSettings *settings = &request->settings;
  const ClhHostBlock *block;
  ClhFrame frame;
  ClhRect *rects;
  guint n_rects;
  GError *err = NULL;
  gboolean ok;

  if (!map_frame (self, pending, &frame))
    return FALSE;
  request->regions = gst_cl_histogram_frame_regions (GST_ELEMENT (self),
      &self->reports, settings->zone_cols, settings->zone_rows,
      settings->regions, settings->roi_meta, pending->buffer, request->width,
      request->height, gst_cl_histogram_request_max_regions (request));

  block = pending->device_block ? pending->device_block :
      gst_cl_base_transform_host_block (GST_CL_BASE_TRANSFORM (self),
      pending->buffer);
  GST_LOG_OBJECT (self, "%s: %" GST_PTR_FORMAT, pending->device_block ?
      "device memory, read where it lies" : block ?
      "our host memory, no host copy" : "other memory, copy path",
      pending->buffer);
  rects = region_rects (pending, &n_rects);
  ok = clh_engine_submit_regions (self->engine, &frame, &request->count,
      settings->full_frame && !pending->crop_as_region, rects, n_rects,
      block, &err);
  g_free (rects);
  if (!ok) {
    post_engine_error (self, err);
    return FALSE;
  }
  pending->counted = TRUE;
  return TRUE;
}

/* Drops every pending frame unpushed, once the device is done with it,
 * and notes @flow as what pushing returned (GST_FLOW_OK: nothing). From the
 * streaming thread with the output thread stopped, or from the output
 * thread between frames: never while the output thread waits for the
 * device, which clh_engine_discard() forbids. */
static void
discard_pending (GstClHistogram *self, GstFlowReturn flow)
{
  GQueue dropped;

  g_mutex_lock (&self->engine_lock);
  if (self->engine && clh_engine_get_n_pending (self->engine) > 0)
    clh_engine_discard (self->engine);
  g_mutex_lock (&self->lock);
  dropped = self->pending;
  g_queue_init (&self->pending);
  self->n_uncollected = 0;
  self->flow = flow;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
  g_mutex_unlock (&self->engine_lock);

  if (!g_queue_is_empty (&dropped))
    GST_DEBUG_OBJECT (self, "discarding %u pending frames",
        g_queue_get_length (&dropped));
  g_queue_clear_full (&dropped, (GDestroyNotify) pending_frame_free);
}

/* Posts a message from this thread, after those the poster holds. */
static void
post_in_order (GstClHistogram *self, GstMessage *message)
{
  gst_cl_poster_flush (self->poster);
  gst_element_post_message (GST_ELEMENT (self), message);
}

/* Posts the message of the interval that ended, if any: from the output
 * thread, or from the streaming thread with nothing pending. */
static void
post_interval_end (GstClHistogram *self)
{
  GstMessage *message = gst_cl_histogram_interval_end (self->interval,
      GST_OBJECT (self));

  if (message)
    post_in_order (self, message);
}

/* Posts a warning saying @text once, until the properties change; any
 * thread. */
static void
warn_once (GstClHistogram *self, gboolean *warned, const gchar *text)
{
  gboolean post;

  GST_OBJECT_LOCK (self);
  post = !*warned;
  *warned = TRUE;
  GST_OBJECT_UNLOCK (self);
  if (post)
    GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS, ("%s.", text), (NULL));
}

/* The frame's metering value from its statistics; says once why the
 * settings give none, where they cannot. Output thread. */
static void
meter_frame (GstClHistogram *self, const GstClHistogramRequest *request,
    const ClhStats *stats, GstClMeteringValue *metering)
{
  GError *err = NULL;

  metering->known = gst_cl_histogram_meter (request, request->regions,
      stats, &metering->value, &metering->percent, &err);
  if (err) {
    warn_once (self, &self->metering_warned, err->message);
    g_error_free (err);
  }
}

static gboolean
alerts_on (const GstClHistogramSettings *settings)
{
  return settings->alert_clipped > 0.0 || settings->alert_crushed > 0.0;
}

/* The share of a histogram's samples (percent) clipped high or low: the
 * largest of its channels that show exposure, which chroma and alpha do
 * not. */
static gdouble
exposure_share (const GstClHistogramRequest *request, const ClhStats *stats,
    GstClExposureKind kind)
{
  const guint n_channels = clh_histogram_spec_n_channels (&request->spec);
  gdouble most = 0.0;
  guint c;

  for (c = 0; c < n_channels; c++) {
    const gchar *name = request->channel_names[c];
    guint64 clipped;

    if (stats[c].samples == 0 || g_strcmp0 (name, "U") == 0
        || g_strcmp0 (name, "V") == 0 || g_strcmp0 (name, "A") == 0)
      continue;
    clipped = kind == GST_CL_EXPOSURE_CLIPPED ? stats[c].clipped_high :
        stats[c].clipped_low;
    most = MAX (most, (gdouble) clipped * 100.0 / (gdouble) stats[c].samples);
  }
  return most;
}

/* The ids of @active (gint) but those @started (GstClExposureArea). */
static GArray *
active_before (const GArray *active, const GArray *started)
{
  GArray *before = g_array_new (FALSE, FALSE, sizeof (gint));
  guint i, j;

  for (i = 0; i < active->len; i++) {
    const gint id = g_array_index (active, gint, i);
    gboolean new = FALSE;

    for (j = 0; j < started->len && !new; j++)
      new = g_array_index (started, GstClExposureArea, j).id == id;
    if (!new)
      g_array_append_val (before, id);
  }
  return before;
}

/* The `exposure` messages of what the last update changed, into
 * @messages: for each kind, the alerts that cleared (the areas on
 * afterwards leaving out those that started on the same frame), then
 * those that started. The zones are of a @cols x @rows grid; those that
 * cleared of the grid the alerts took before, self->alert_cols x
 * self->alert_rows: a new grid clears every alert of the old one, while
 * those of the new one can only start. */
static void
exposure_messages (GstClHistogram *self, const GstClHistogramSettings *s,
    GstClExposureReport *report, guint cols, guint rows, GQueue *messages)
{
  const gdouble thresholds[] = { s->alert_clipped, s->alert_crushed };
  guint k;

  report->zone_cols = report->active_cols = cols;
  report->zone_rows = report->active_rows = rows;

  for (k = 0; k < GST_CL_EXPOSURE_N_KINDS; k++) {
    GArray *active = g_array_new (FALSE, FALSE, sizeof (gint));
    GArray *before;

    gst_cl_exposure_alert_active (self->alert, k, active);
    report->kind = k;
    report->threshold = thresholds[k];
    if (self->events.cleared[k]->len > 0) {
      before = active_before (active, self->events.started[k]);
      report->started = FALSE;
      report->areas = self->events.cleared[k];
      report->active = before;
      report->zone_cols = self->alert_cols;
      report->zone_rows = self->alert_rows;
      g_queue_push_tail (messages, gst_cl_exposure_message_new (GST_OBJECT
              (self), report));
      g_array_unref (before);
    }
    if (self->events.started[k]->len > 0) {
      report->started = TRUE;
      report->zone_cols = cols;
      report->zone_rows = rows;
      report->areas = self->events.started[k];
      report->active = active;
      g_queue_push_tail (messages, gst_cl_exposure_message_new (GST_OBJECT
              (self), report));
    }
    g_array_unref (active);
  }
}

/* Feeds the shares of the frame and of its zones to the exposure alerts;
 * the `exposure` messages of what changed into @messages, to be posted
 * after the frame's `histogram` message. Output thread. */
static void
watch_exposure (GstClHistogram *self, const GstClPendingFrame *pending,
    GstBuffer *buffer, const ClhStats *stats, GQueue *messages)
{
  const GstClHistogramRequest *request = &pending->request;
  const GstClHistogramSettings *settings = &request->settings;
  const guint first = settings->full_frame ? 1 : 0;
  const guint n_zones = settings->zone_cols * settings->zone_rows;
  const GstClExposureLimits limits = {
    {settings->alert_clipped, settings->alert_crushed},
    settings->alert_hysteresis, settings->alert_hold
  };
  GstClExposureReport report = {
    .timestamp = GST_BUFFER_PTS (buffer),
    .stream_time = pending->stream_time,
    .running_time = pending->running_time,
  };
  guint n = first, a, k;
  gdouble *percent;
  gint *ids;

  /* Off, and nothing left on to clear. */
  if (!alerts_on (settings) && !self->alerts_used)
    return;
  self->alerts_used = alerts_on (settings);
  if (!request->statistics || !stats) {
    if (alerts_on (settings)) {
      warn_once (self, &self->alerts_warned, "alert-clipped and "
          "alert-crushed read the clipped samples, which only modes luma, "
          "channels and max with statistics=true count: no exposure "
          "message is posted");
      return;
    }
    /* Turned off on a frame without shares: the alerts on clear all the
     * same, as no area is watched any more. */
    if (gst_cl_exposure_alert_update (self->alert, &limits, 0,
            pending->running_time, NULL, NULL, 0, &self->events))
      exposure_messages (self, settings, &report, 0, 0, messages);
    self->alert_cols = self->alert_rows = 0;
    return;
  }
  /* The zones come first among the regions, zone z at z. */
  while (request->regions && n - first < MIN (n_zones, request->regions->len)
      && g_strcmp0 (g_array_index (request->regions, GstClHistogramRegion,
              n - first).type, "zone") == 0)
    n++;
  ids = g_new (gint, MAX (n, 1));
  percent = g_new (gdouble, MAX (n, 1) * GST_CL_EXPOSURE_N_KINDS);
  for (a = 0; a < n; a++) {
    ids[a] = a < first ? GST_CL_EXPOSURE_FRAME : g_array_index
        (request->regions, GstClHistogramRegion, a - first).id;
    for (k = 0; k < GST_CL_EXPOSURE_N_KINDS; k++)
      percent[k * n + a] = exposure_share (request,
          &stats[(gsize) a * CLH_MAX_CHANNELS], k);
  }
  if (gst_cl_exposure_alert_update (self->alert, &limits,
          first | settings->zone_cols << 8 | settings->zone_rows << 16,
          pending->running_time, ids, percent, n, &self->events))
    exposure_messages (self, settings, &report, settings->zone_cols,
        settings->zone_rows, messages);
  self->alert_cols = settings->zone_cols;
  self->alert_rows = settings->zone_rows;
  g_free (ids);
  g_free (percent);
}

/* Posts a frame's `histogram` message, or sums it into the interval's;
 * @counted as the engine counted them, @histograms and @stats as the
 * message gives them, with @metering. A frame without a running time has
 * no interval and gets its own message. Output thread. */
static void
post_frame (GstClHistogram *self, GstClPendingFrame *pending,
    GstBuffer *buffer, const ClhHistogram *counted,
    const ClhHistogram *histograms, const ClhStats *stats,
    const GstClMeteringValue *metering)
{
  const GstClHistogramRequest *request = &pending->request;
  GstClHistogramReport report = {
    .timestamp = GST_BUFFER_PTS (buffer),
    .stream_time = pending->stream_time,
    .running_time = pending->running_time,
    .duration = GST_BUFFER_DURATION (buffer),
    .pixels = (guint64) request->width * request->height,
    .regions = request->regions,
    .histograms = histograms,
    .stats = stats,
    .metering = *metering,
  };
  GstMessage *message;

  if (request->settings.interval > 0
      && GST_CLOCK_TIME_IS_VALID (pending->running_time)) {
    GstClHistogramFrame frame = {
      .timestamp = report.timestamp,
      .stream_time = report.stream_time,
      .running_time = report.running_time,
      .duration = report.duration,
      .request = request,
      .counted = counted,
    };

    message = gst_cl_histogram_interval_add (self->interval,
        GST_OBJECT (self), &frame);
    if (message)
      post_in_order (self, message);
    return;
  }
  post_interval_end (self);
  /* The poster takes the frame's request. */
  if (self->in_flight > 1)
    gst_cl_poster_post (self->poster, &pending->request, &report);
  else
    gst_element_post_message (GST_ELEMENT (self),
        gst_cl_histogram_message_new (GST_OBJECT (self), request, &report));
}

/* The output thread has the oldest frame's histograms: the streaming
 * thread may submit another. */
static void
note_collected (GstClHistogram *self)
{
  g_mutex_lock (&self->lock);
  self->n_uncollected--;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
}

/* Output thread: waits until the oldest frame is counted, collects its
 * histograms, attaches and posts them and pushes its buffer. */
static GstFlowReturn
output_frame (GstClHistogram *self, GstClPendingFrame *pending)
{
  const GstClHistogramRequest *request = &pending->request;
  const gboolean counted = pending->counted;
  const guint n = counted ? gst_cl_histogram_request_n_histograms (request) :
      0;
  const ClhHistogram *hist = NULL;
  ClhHistogram *values = NULL;
  const ClhStats *stats = NULL;
  GstClMeteringValue metering = { FALSE };
  GQueue exposure = G_QUEUE_INIT;
  GstMessage *message;
  GError *err = NULL;
  GstBuffer *buffer;

  if (counted) {
    gboolean ok;

    /* Without the engine lock: the streaming thread submits the next
     * frames meanwhile. */
    clh_engine_wait_counted (self->engine);
    hist = values = gst_cl_histogram_set_prepare (&self->counted,
        &request->count, n);
    g_mutex_lock (&self->engine_lock);
    ok = clh_engine_collect_regions (self->engine, values, n, &err);
    g_mutex_unlock (&self->engine_lock);
    if (!ok) {
      post_engine_error (self, err);
      return GST_FLOW_ERROR;
    }
    if (request->statistics) {
      hist = gst_cl_histogram_read_values (request, &self->results, values,
          n, &stats);
      meter_frame (self, request, stats, &metering);
    }
  }
  note_collected (self);
  gst_cl_frame_map_clear (&pending->map);
  buffer = g_steal_pointer (&pending->buffer);

  /* Before the frame's message takes its request. */
  if (counted)
    watch_exposure (self, pending, buffer, stats, &exposure);
  /* In place, as GstBaseTransform makes a buffer writable for
   * transform_ip; without meta (passthrough) it stays as it came. */
  if (counted && request->settings.attach_meta) {
    buffer = gst_buffer_make_writable (buffer);
    gst_cl_histogram_attach_metas (buffer, request, hist, stats, &metering);
  }
  if (counted && request->settings.post_messages)
    post_frame (self, pending, buffer, values, hist, stats, &metering);
  while ((message = g_queue_pop_head (&exposure)))
    post_in_order (self, message);
  return gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (self), buffer);
}

/* The output thread: pushes the pending frames, oldest first, each as soon
 * as the engine says it is counted; sleeps while none is pending, while
 * flushing, or after a push failed until a flush or stop. A frame stays
 * at the queue's head (counting as pending for back-pressure and drains)
 * until its push returned. */
static gpointer
output_loop (gpointer data)
{
  GstClHistogram *self = data;
  GstClPendingFrame *head;
  GstFlowReturn ret;

  g_mutex_lock (&self->lock);
  while (!self->output_stopping) {
    head = g_queue_peek_head (&self->pending);
    if (!head || self->flushing || self->flow != GST_FLOW_OK) {
      g_cond_wait (&self->cond, &self->lock);
      continue;
    }
    g_mutex_unlock (&self->lock);

    ret = output_frame (self, head);
    if (ret != GST_FLOW_OK) {
      GST_DEBUG_OBJECT (self, "pushing stopped: %s", gst_flow_get_name (ret));
      discard_pending (self, ret);
      g_mutex_lock (&self->lock);
      continue;
    }

    g_mutex_lock (&self->lock);
    g_queue_pop_head (&self->pending);
    g_cond_broadcast (&self->cond);
    g_mutex_unlock (&self->lock);
    pending_frame_free (head);
    g_mutex_lock (&self->lock);
  }
  g_mutex_unlock (&self->lock);
  return NULL;
}

/* Starts the output thread if it does not run; streaming thread. FALSE
 * after posting an element error. */
static gboolean
start_output (GstClHistogram *self)
{
  GError *err = NULL;

  if (self->output_thread)
    return TRUE;
  self->output_thread = g_thread_try_new ("clh-output", output_loop, self,
      &err);
  if (self->output_thread)
    return TRUE;
  GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
      ("Could not start the thread that pushes counted frames: %s.",
          err->message), (NULL));
  g_error_free (err);
  return FALSE;
}

/* Stops and joins the output thread, once it is done with the frame it
 * is pushing; streaming thread, or with streaming stopped. */
static void
stop_output (GstClHistogram *self)
{
  GThread *thread = g_steal_pointer (&self->output_thread);

  if (!thread)
    return;
  g_mutex_lock (&self->lock);
  self->output_stopping = TRUE;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
  g_thread_join (thread);
  self->output_stopping = FALSE;
}

/* Wakes every wait on the output thread, which then starts no frame,
 * until stop_output() or a flush stop; any thread. */
static void
set_flushing (GstClHistogram *self, gboolean flushing)
{
  g_mutex_lock (&self->lock);
  self->flushing = flushing;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
}

/* Drops what is pending and what the output thread said, with the thread
 * stopped: after a flush, at stop and when the streaming thread failed. */
static void
reset_output (GstClHistogram *self)
{
  stop_output (self);
  discard_pending (self, GST_FLOW_OK);
}

static GstFlowReturn
gst_cl_histogram_submit_input_buffer (GstBaseTransform *trans,
    gboolean is_discont, GstBuffer *input)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (trans);
  GstClPendingFrame *pending;
  GError *err = NULL;
  gboolean count, valid = TRUE, idle;
  GstFlowReturn ret;

  /* What downstream said to the frames the output thread pushed. */
  g_mutex_lock (&self->lock);
  ret = self->flow;
  idle = g_queue_is_empty (&self->pending);
  g_mutex_unlock (&self->lock);
  if (ret != GST_FLOW_OK) {
    gst_buffer_unref (input);
    return ret;
  }

  /* The parent negotiates, applies QoS and leaves the buffer queued. */
  ret = GST_BASE_TRANSFORM_CLASS (parent_class)->submit_input_buffer (trans,
      is_discont, input);
  if (ret != GST_FLOW_OK || !trans->queued_buf)
    return ret;

  pending = pending_frame_new (trans->queued_buf, &trans->segment);
  trans->queued_buf = NULL;
  if (idle)
    apply_in_flight (self);

  GST_OBJECT_LOCK (self);
  count = self->applied.post_messages || self->applied.attach_meta
      || alerts_on (&self->applied);
  if (count)
    valid = gst_cl_histogram_request_init (&pending->request,
        &self->applied, gst_cl_base_transform_get_info
        (GST_CL_BASE_TRANSFORM (self)), gst_cl_base_transform_get_format
        (GST_CL_BASE_TRANSFORM (self)), &err);
  GST_OBJECT_UNLOCK (self);

  if (!valid) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("%s.", err->message), (NULL));
    g_clear_error (&err);
    ret = GST_FLOW_NOT_NEGOTIATED;
  } else if (!start_output (self)) {
    ret = GST_FLOW_ERROR;
  }
  /* Submitted and queued under the engine lock, so that no discard comes
   * between. */
  g_mutex_lock (&self->engine_lock);
  if (ret == GST_FLOW_OK && count && !submit_frame (self, pending))
    ret = GST_FLOW_ERROR;
  if (ret == GST_FLOW_OK) {
    g_mutex_lock (&self->lock);
    g_queue_push_tail (&self->pending, pending);
    self->n_uncollected++;
    g_cond_broadcast (&self->cond);
    g_mutex_unlock (&self->lock);
  }
  g_mutex_unlock (&self->engine_lock);
  if (ret != GST_FLOW_OK) {
    pending_frame_free (pending);
    reset_output (self);
  }
  return ret;
}

/* Returns once the element can take another frame: fewer than its frames
 * in flight submitted and not collected (all of them pushed when fewer
 * are wanted now, so that the change applies from the next frame). With
 * one frame in flight, once it is pushed: the next frame could not be
 * counted beside it anyway, and a live source's frame is then out before
 * its push returns. Returns what the output
 * thread's pushes returned: a failure goes upstream from the next chain
 * call. The output thread pushes every buffer, so none is given back. */
static GstFlowReturn
gst_cl_histogram_generate_output (GstBaseTransform *trans, GstBuffer **outbuf)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (trans);
  const guint limit = MIN (self->in_flight, wanted_in_flight (self));
  GstFlowReturn ret;

  *outbuf = NULL;
  g_mutex_lock (&self->lock);
  while ((limit > 1 ? self->n_uncollected >= limit :
          !g_queue_is_empty (&self->pending)) && !self->flushing
      && self->flow == GST_FLOW_OK)
    g_cond_wait (&self->cond, &self->lock);
  ret = self->flushing ? GST_FLOW_FLUSHING : self->flow;
  g_mutex_unlock (&self->lock);
  return ret;
}

/* Waits until the output thread pushed every pending frame and posted its
 * message: before a serialized event or query goes on, so that nothing
 * overtakes them. Streaming thread. */
static void
drain (GstClHistogram *self)
{
  g_mutex_lock (&self->lock);
  if (!g_queue_is_empty (&self->pending))
    GST_DEBUG_OBJECT (self, "draining %u frames",
        g_queue_get_length (&self->pending));
  while (!g_queue_is_empty (&self->pending) && !self->flushing
      && self->flow == GST_FLOW_OK)
    g_cond_wait (&self->cond, &self->lock);
  g_mutex_unlock (&self->lock);
  gst_cl_poster_flush (self->poster);
}

/* Never called: submit_input_buffer and generate_output replace the
 * default path, but GstBaseTransform works in place (and passes the
 * allocation query downstream) only for an element that has transform_ip. */
static GstFlowReturn
gst_cl_histogram_transform_ip (GstBaseTransform *trans, GstBuffer *buffer)
{
  g_return_val_if_reached (GST_FLOW_ERROR);
}

static gboolean
gst_cl_histogram_sink_event (GstBaseTransform *trans, GstEvent *event)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (trans);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_FLUSH_START:
      /* Wakes the streaming thread if it waits for room or a drain. */
      set_flushing (self, TRUE);
      break;
    case GST_EVENT_FLUSH_STOP:
      reset_output (self);
      set_flushing (self, FALSE);
      /* What was pushed before the flush is posted; the next frame starts
       * a new interval. */
      post_interval_end (self);
      break;
    default:
      if (!GST_EVENT_IS_SERIALIZED (event))
        break;
      drain (self);
      /* The partial interval at EOS is posted, as `level` posts it. */
      if (GST_EVENT_TYPE (event) == GST_EVENT_EOS)
        post_interval_end (self);
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
}

static gboolean
gst_cl_histogram_query (GstBaseTransform *trans, GstPadDirection direction,
    GstQuery *query)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (trans);

  /* Upstream may change its pool or wait for every frame back (DRAIN). */
  if (direction == GST_PAD_SINK && GST_QUERY_IS_SERIALIZED (query))
    drain (self);

  return GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction,
      query);
}

/* The pools proposed upstream hold the frames in flight and the one
 * upstream fills meanwhile. */
static guint
gst_cl_histogram_proposed_buffers (GstClBaseTransform *base)
{
  return wanted_in_flight (GST_CL_HISTOGRAM (base)) + 1;
}

/* Posts why caps were refused, once: upstream retries the same caps on
 * each buffer it tries to push (basesrc renegotiates while its pad is
 * marked for reconfiguration), and each retry would post the same error
 * again. */
static void
post_refusal (GstClHistogram *self, GstCaps *caps, const GError *err)
{
  if (g_strcmp0 (self->refusal, err->message) == 0) {
    GST_DEBUG_OBJECT (self, "caps refused again: %s", err->message);
    return;
  }
  g_free (self->refusal);
  self->refusal = g_strdup (err->message);
  GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("%s.", err->message),
      ("caps %" GST_PTR_FORMAT, caps));
}

/* Whether the settings can count frames of the new caps, and whether
 * upstream is live, before the base class stores them. */
static gboolean
gst_cl_histogram_set_info (GstClBaseTransform *base, GstCaps *incaps,
    const GstVideoInfo *info, const ClhFrame *format, GstCaps *outcaps)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (base);
  const gboolean live = query_upstream_live (self);
  GstClHistogramRequest request;
  GError *err = NULL;
  gboolean valid;

  GST_OBJECT_LOCK (self);
  valid = gst_cl_histogram_request_init (&request, &self->applied, info,
      format, &err);
  if (valid)
    self->upstream_live = live;
  GST_OBJECT_UNLOCK (self);
  gst_cl_histogram_request_clear (&request);
  if (!valid)
    post_refusal (self, incaps, err);
  g_clear_error (&err);
  return valid;
}

static gboolean
gst_cl_histogram_set_caps (GstBaseTransform *trans, GstCaps *incaps,
    GstCaps *outcaps)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (trans);

  /* The frames of the old caps leave first (the caps may come with a
   * frame, when downstream asks to renegotiate), and their messages. */
  drain (self);
  if (!GST_BASE_TRANSFORM_CLASS (parent_class)->set_caps (trans, incaps,
          outcaps))
    return FALSE;
  g_clear_pointer (&self->refusal, g_free);
  /* Frames of new caps start a new interval. */
  post_interval_end (self);
  return TRUE;
}

static GstStateChangeReturn
gst_cl_histogram_change_state (GstElement *element, GstStateChange transition)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (element);

  if (transition == GST_STATE_CHANGE_NULL_TO_READY)
    post_settings_warning (self);
  /* The streaming thread may wait for the output thread: it must leave
   * before the sink pad can be deactivated. */
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY)
    set_flushing (self, TRUE);

  /* The base class opens the device at NULL->READY and closes it at
   * READY->NULL (gst_cl_histogram_close). */
  return GST_ELEMENT_CLASS (parent_class)->change_state (element,
      transition);
}

/* Streaming has stopped (PAUSED->READY): drop what is still pending. */
static gboolean
gst_cl_histogram_stop (GstBaseTransform *trans)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (trans);

  reset_output (self);
  gst_cl_poster_stop (self->poster);
  set_flushing (self, FALSE);
  gst_cl_histogram_interval_drop (self->interval);
  /* The output thread is stopped. */
  gst_cl_exposure_alert_reset (self->alert);
  self->alerts_used = FALSE;
  self->alert_cols = self->alert_rows = 0;
  g_clear_pointer (&self->refusal, g_free);
  return TRUE;
}

/* Forgets which zones and fixed regions were reported outside the frame:
 * they changed. Called with the object lock. */
static void
forget_outside_reports (GstClHistogram *self)
{
  g_byte_array_set_size (self->reports.outside_reported, 0);
}

/* Posts why a property value was ignored, once the element has a bus
 * to post it on. */
static void
post_settings_warning (GstClHistogram *self)
{
  gchar *text;

  GST_OBJECT_LOCK (self);
  text = GST_ELEMENT_BUS (self) ? g_steal_pointer (&self->settings_warning) :
      NULL;
  GST_OBJECT_UNLOCK (self);
  if (text)
    GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS, ("%s", text), (NULL));
  g_free (text);
}

/* Keeps the old value of property @name, saying why @err's value was
 * ignored: in the debug log now, on the bus when the element has one. */
static void
ignore_setting (GstClHistogram *self, const gchar *name, GError *err)
{
  gchar *text;

  GST_WARNING_OBJECT (self, "ignored %s: %s", name, err->message);
  GST_OBJECT_LOCK (self);
  text = g_strdup_printf ("%s%sIgnored the %s property: %s.",
      self->settings_warning ? self->settings_warning : "",
      self->settings_warning ? " " : "", name, err->message);
  g_free (self->settings_warning);
  self->settings_warning = text;
  GST_OBJECT_UNLOCK (self);
  g_error_free (err);
  post_settings_warning (self);
}

/* Replaces the fixed regions, or keeps them and says why the new value
 * cannot be used. */
static void
set_regions (GstClHistogram *self, const GValue *value)
{
  GError *err = NULL;
  GArray *rects = gst_cl_histogram_rects_from_value (value, &err);

  if (!rects) {
    ignore_setting (self, "regions", err);
    return;
  }
  GST_OBJECT_LOCK (self);
  g_clear_pointer (&self->settings.regions, g_array_unref);
  if (rects->len > 0)
    self->settings.regions = g_array_ref (rects);
  GST_OBJECT_UNLOCK (self);
  g_array_unref (rects);
}

static void
set_zones (GstClHistogram *self, const gchar *text)
{
  GError *err = NULL;
  guint cols, rows;

  if (!gst_cl_histogram_parse_zones (text, &cols, &rows, &err)) {
    ignore_setting (self, "zones", err);
    return;
  }
  GST_OBJECT_LOCK (self);
  self->settings.zone_cols = cols;
  self->settings.zone_rows = rows;
  GST_OBJECT_UNLOCK (self);
}

/* Replaces the percentiles reported, or keeps them and says why the new
 * value cannot be used. */
static void
set_percentiles (GstClHistogram *self, const GValue *value)
{
  const guint n = gst_value_array_get_size (value);
  gdouble ps[CLH_MAX_PERCENTILES];
  guint i;

  if (n > CLH_MAX_PERCENTILES) {
    ignore_setting (self, "percentiles", g_error_new (CLH_SPEC_ERROR,
            CLH_SPEC_ERROR_UNSUPPORTED, "%u percentiles given, at most %u "
            "can be reported", n, CLH_MAX_PERCENTILES));
    return;
  }
  for (i = 0; i < n; i++) {
    const GValue *v = gst_value_array_get_value (value, i);

    ps[i] = G_VALUE_HOLDS_DOUBLE (v) ? g_value_get_double (v) : -1.0;
    if (!(ps[i] >= 0.0 && ps[i] <= 100.0)) {
      ignore_setting (self, "percentiles", g_error_new (CLH_SPEC_ERROR,
              CLH_SPEC_ERROR_UNSUPPORTED, "percentile %u is not a number "
              "from 0 to 100, e.g. <1.0, 10.0, 50.0, 90.0, 99.0>", i));
      return;
    }
  }
  GST_OBJECT_LOCK (self);
  memcpy (self->settings.percentiles, ps, sizeof (gdouble) * n);
  self->settings.n_percentiles = n;
  GST_OBJECT_UNLOCK (self);
}

static void
get_percentiles (const GstClHistogramSettings *settings, GValue *value)
{
  guint i;

  for (i = 0; i < settings->n_percentiles; i++) {
    GValue v = G_VALUE_INIT;

    g_value_init (&v, G_TYPE_DOUBLE);
    g_value_set_double (&v, settings->percentiles[i]);
    gst_value_array_append_and_take_value (value, &v);
  }
}

/* Replaces the metering weights, or keeps them and says why the new value
 * cannot be used. How many the zones need is checked where they are
 * used, so that zones and weights may be set in any order. */
static void
set_metering_weights (GstClHistogram *self, const GValue *value)
{
  const guint n = gst_value_array_get_size (value);
  GArray *weights;
  guint i;

  if (n > GST_CL_HISTOGRAM_MAX_METERING_WEIGHTS) {
    ignore_setting (self, "metering-weights", g_error_new (CLH_SPEC_ERROR,
            CLH_SPEC_ERROR_UNSUPPORTED, "%u weights given, at most %u (one "
            "per zone of a 64x64 grid)", n,
            GST_CL_HISTOGRAM_MAX_METERING_WEIGHTS));
    return;
  }
  weights = g_array_sized_new (FALSE, FALSE, sizeof (gdouble), n);
  for (i = 0; i < n; i++) {
    const GValue *v = gst_value_array_get_value (value, i);
    const gdouble w = G_VALUE_HOLDS_DOUBLE (v) ? g_value_get_double (v) :
        -1.0;

    if (!(w >= 0.0 && w <= G_MAXFLOAT)) {
      ignore_setting (self, "metering-weights", g_error_new (CLH_SPEC_ERROR,
              CLH_SPEC_ERROR_UNSUPPORTED, "weight %u is not a number of 0 "
              "or more, e.g. <1.0, 2.0, 1.0> for 3x1 zones", i));
      g_array_unref (weights);
      return;
    }
    g_array_append_val (weights, w);
  }
  GST_OBJECT_LOCK (self);
  g_clear_pointer (&self->settings.metering_weights, g_array_unref);
  if (n > 0)
    self->settings.metering_weights = g_steal_pointer (&weights);
  GST_OBJECT_UNLOCK (self);
  g_clear_pointer (&weights, g_array_unref);
}

/* @doubles (gdouble, or NULL: none) into the GstValueArray @value. */
static void
get_doubles (const GArray *doubles, GValue *value)
{
  guint i;

  for (i = 0; doubles && i < doubles->len; i++) {
    GValue v = G_VALUE_INIT;

    g_value_init (&v, G_TYPE_DOUBLE);
    g_value_set_double (&v, g_array_index (doubles, gdouble, i));
    gst_value_array_append_and_take_value (value, &v);
  }
}

/* Stores one counting property. The combination is checked where it is
 * used, at negotiation and for every frame, so that setting several
 * properties in any order works. */
static void
set_counting_property (GstClHistogram *self, guint prop_id,
    const GValue *value)
{
  GstClHistogramSettings *settings = &self->settings;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_MODE:
      settings->mode = g_value_get_enum (value);
      break;
    case PROP_BINS:
      settings->bins = g_value_get_uint (value);
      settings->bins_set = TRUE;
      break;
    case PROP_RANGE_MIN:
      settings->range_min = g_value_get_uint (value);
      break;
    case PROP_RANGE_MAX:
      settings->range_max = g_value_get_int (value);
      break;
    case PROP_MIN_SATURATION:
      settings->min_saturation = g_value_get_uint (value);
      break;
    case PROP_MIN_VALUE:
      settings->min_value = g_value_get_uint (value);
      break;
    case PROP_FULL_FRAME:
      settings->full_frame = g_value_get_boolean (value);
      break;
    case PROP_ROI_META:
      settings->roi_meta = g_value_get_boolean (value);
      break;
    case PROP_STATISTICS:
      settings->statistics = g_value_get_boolean (value);
      break;
    case PROP_INTERVAL:
      settings->interval = g_value_get_uint64 (value);
      break;
    case PROP_CLIP_LOW_LEVEL:
      settings->clip_low_level = g_value_get_double (value);
      break;
    case PROP_CLIP_HIGH_LEVEL:
      settings->clip_high_level = g_value_get_double (value);
      break;
    case PROP_MESSAGE_COUNTS:
      settings->message_counts = g_value_get_boolean (value);
      break;
    case PROP_METERING:
      settings->metering = g_value_get_enum (value);
      break;
    case PROP_ALERT_CLIPPED:
      settings->alert_clipped = g_value_get_double (value);
      break;
    case PROP_ALERT_CRUSHED:
      settings->alert_crushed = g_value_get_double (value);
      break;
    case PROP_ALERT_HYSTERESIS:
      settings->alert_hysteresis = g_value_get_double (value);
      break;
    case PROP_ALERT_HOLD:
      settings->alert_hold = g_value_get_uint64 (value);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cl_histogram_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (object);

  switch (prop_id) {
    case PROP_MODE:
    case PROP_BINS:
    case PROP_RANGE_MIN:
    case PROP_RANGE_MAX:
    case PROP_MIN_SATURATION:
    case PROP_MIN_VALUE:
    case PROP_FULL_FRAME:
    case PROP_ROI_META:
    case PROP_STATISTICS:
    case PROP_INTERVAL:
    case PROP_CLIP_LOW_LEVEL:
    case PROP_CLIP_HIGH_LEVEL:
    case PROP_MESSAGE_COUNTS:
    case PROP_METERING:
    case PROP_ALERT_CLIPPED:
    case PROP_ALERT_CRUSHED:
    case PROP_ALERT_HYSTERESIS:
    case PROP_ALERT_HOLD:
      set_counting_property (self, prop_id, value);
      break;
    case PROP_PERCENTILES:
      set_percentiles (self, value);
      break;
    case PROP_METERING_WEIGHTS:
      set_metering_weights (self, value);
      break;
    case PROP_REGIONS:
      set_regions (self, value);
      break;
    case PROP_ZONES:
      set_zones (self, g_value_get_string (value));
      break;
    case PROP_POST_MESSAGES:
      GST_OBJECT_LOCK (self);
      self->settings.post_messages = g_value_get_boolean (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_ATTACH_META:
      GST_OBJECT_LOCK (self);
      self->settings.attach_meta = g_value_get_boolean (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_MAX_FRAMES_IN_FLIGHT:
      GST_OBJECT_LOCK (self);
      self->max_frames_in_flight = g_value_get_uint (value);
      GST_OBJECT_UNLOCK (self);
      /* What frames in flight add to the latency changes. */
      gst_element_post_message (GST_ELEMENT (self),
          gst_message_new_latency (GST_OBJECT (self)));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_cl_histogram_get_property (GObject *object, guint prop_id, GValue *value,
    GParamSpec *pspec)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (object);
  const GstClHistogramSettings *settings = &self->settings;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_MODE:
      g_value_set_enum (value, settings->mode);
      break;
    case PROP_BINS:
      g_value_set_uint (value, gst_cl_histogram_settings_bins (settings));
      break;
    case PROP_RANGE_MIN:
      g_value_set_uint (value, settings->range_min);
      break;
    case PROP_RANGE_MAX:
      g_value_set_int (value, settings->range_max);
      break;
    case PROP_MIN_SATURATION:
      g_value_set_uint (value, settings->min_saturation);
      break;
    case PROP_MIN_VALUE:
      g_value_set_uint (value, settings->min_value);
      break;
    case PROP_POST_MESSAGES:
      g_value_set_boolean (value, settings->post_messages);
      break;
    case PROP_ATTACH_META:
      g_value_set_boolean (value, settings->attach_meta);
      break;
    case PROP_MAX_FRAMES_IN_FLIGHT:
      g_value_set_uint (value, self->max_frames_in_flight);
      break;
    case PROP_FULL_FRAME:
      g_value_set_boolean (value, settings->full_frame);
      break;
    case PROP_REGIONS:
      gst_cl_histogram_rects_to_value (settings->regions, value);
      break;
    case PROP_ZONES:
      if (settings->zone_cols > 0)
        g_value_take_string (value, g_strdup_printf ("%ux%u",
                settings->zone_cols, settings->zone_rows));
      else
        g_value_set_string (value, DEFAULT_ZONES);
      break;
    case PROP_ROI_META:
      g_value_set_boolean (value, settings->roi_meta);
      break;
    case PROP_STATISTICS:
      g_value_set_boolean (value, settings->statistics);
      break;
    case PROP_PERCENTILES:
      get_percentiles (settings, value);
      break;
    case PROP_INTERVAL:
      g_value_set_uint64 (value, settings->interval);
      break;
    case PROP_CLIP_LOW_LEVEL:
      g_value_set_double (value, settings->clip_low_level);
      break;
    case PROP_CLIP_HIGH_LEVEL:
      g_value_set_double (value, settings->clip_high_level);
      break;
    case PROP_MESSAGE_COUNTS:
      g_value_set_boolean (value, settings->message_counts);
      break;
    case PROP_METERING:
      g_value_set_enum (value, settings->metering);
      break;
    case PROP_METERING_WEIGHTS:
      get_doubles (settings->metering_weights, value);
      break;
    case PROP_ALERT_CLIPPED:
      g_value_set_double (value, settings->alert_clipped);
      break;
    case PROP_ALERT_CRUSHED:
      g_value_set_double (value, settings->alert_crushed);
      break;
    case PROP_ALERT_HYSTERESIS:
      g_value_set_double (value, settings->alert_hysteresis);
      break;
    case PROP_ALERT_HOLD:
      g_value_set_uint64 (value, settings->alert_hold);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cl_histogram_finalize (GObject *object)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (object);

  reset_output (self);
  g_mutex_clear (&self->engine_lock);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
  gst_cl_histogram_set_clear (&self->counted);
  gst_cl_histogram_set_clear (&self->results);
  gst_cl_exposure_alert_free (self->alert);
  gst_cl_exposure_events_clear (&self->events);
  gst_cl_histogram_interval_free (self->interval);
  gst_cl_poster_free (self->poster);
  gst_cl_histogram_settings_clear (&self->settings);
  gst_cl_histogram_settings_clear (&self->applied);
  g_byte_array_unref (self->reports.outside_reported);
  g_free (self->settings_warning);
  g_free (self->refusal);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* Replaces @dst by @src, sharing its fixed regions and metering
 * weights. */
static void
settings_copy (GstClHistogramSettings *dst, const GstClHistogramSettings *src)
{
  GstClHistogramSettings copy = *src;

  gst_cl_histogram_settings_ref_arrays (&copy);
  gst_cl_histogram_settings_clear (dst);
  *dst = copy;
}

/* GObject calls this once the properties of a g_object_set() (or of the
 * outermost g_object_freeze_notify() ... g_object_thaw_notify()) are all
 * stored: they apply here together, on the next frame, so that no frame
 * sees a new mode with the old bins, or new regions with the old zones. */
static void
gst_cl_histogram_dispatch_properties_changed (GObject *object,
    guint n_pspecs, GParamSpec **pspecs)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (object);
  gboolean passthrough;
  guint i;

  GST_OBJECT_LOCK (self);
  settings_copy (&self->applied, &self->settings);
  passthrough = !self->applied.attach_meta;
  /* New settings may give a metering value or alerts, or say again why
   * they cannot. */
  self->metering_warned = FALSE;
  self->alerts_warned = FALSE;
  /* The zones and fixed regions the reports index changed. */
  for (i = 0; i < n_pspecs; i++)
    if (pspecs[i]->owner_type == GST_TYPE_CL_HISTOGRAM
        && (pspecs[i]->param_id == PROP_REGIONS
            || pspecs[i]->param_id == PROP_ZONES))
      forget_outside_reports (self);
  GST_OBJECT_UNLOCK (self);
  /* Without meta to attach, buffers need not be writable. */
  if (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (self))
      != passthrough)
    gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (self),
        passthrough);
  G_OBJECT_CLASS (parent_class)->dispatch_properties_changed (object,
      n_pspecs, pspecs);
}

#define PLAYING_PROPERTY \
  (G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING | G_PARAM_STATIC_STRINGS)

static void
install_properties (GObjectClass *gobject_class)
{
  g_object_class_install_property (gobject_class, PROP_MODE,
      g_param_spec_enum ("mode", "Mode",
          "What is counted: luma, channels, max, hue, hue-saturation or rgb",
          GST_TYPE_HISTOGRAM_MODE, DEFAULT_MODE, PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_BINS,
      g_param_spec_uint ("bins", "Bins",
          "Bins per channel (per axis for hue-saturation and rgb): value v "
          "goes to bin (v - range-min) * bins / (range-max - range-min + 1); "
          "at most 256 for 8-bit samples, 4096 up to 12-bit, 65536 for "
          "16-bit; left unset: 180 for hue, 32 for hue-saturation, 16 for rgb",
          1, CLH_MAX_BINS, DEFAULT_BINS, PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_RANGE_MIN,
      g_param_spec_uint ("range-min", "Range minimum",
          "Smallest sample value binned; smaller ones are counted as 'below'",
          0, 65535, DEFAULT_RANGE_MIN, PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_RANGE_MAX,
      g_param_spec_int ("range-max", "Range maximum",
          "Largest sample value binned, inclusive (-1: the format's maximum, "
          "e.g. 255 or 1023); larger ones are counted as 'above'",
          -1, 65535, DEFAULT_RANGE_MAX, PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_MIN_SATURATION,
      g_param_spec_uint ("min-saturation", "Minimum saturation",
          "hue and hue-saturation modes: pixels of lower HSV saturation "
          "(0..255) are not counted", 0, 255, DEFAULT_MIN_SATURATION,
          PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_MIN_VALUE,
      g_param_spec_uint ("min-value", "Minimum value",
          "hue and hue-saturation modes: pixels of lower HSV value (0..255) "
          "are not counted", 0, 255, DEFAULT_MIN_VALUE, PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_POST_MESSAGES,
      g_param_spec_boolean ("post-messages", "Post messages",
          "Post a 'histogram' element message on the bus for every frame",
          DEFAULT_POST_MESSAGES, PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_ATTACH_META,
      g_param_spec_boolean ("attach-meta", "Attach meta",
          "Attach a GstHistogramMeta holding the histogram to every buffer",
          DEFAULT_ATTACH_META, PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_MESSAGE_COUNTS,
      g_param_spec_boolean ("message-counts", "Message counts",
          "Put the counts in the 'histogram' messages (top level and "
          "regions); FALSE leaves them out, keeping the statistics, and the "
          "metas keep them", DEFAULT_MESSAGE_COUNTS, PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_MAX_FRAMES_IN_FLIGHT,
      g_param_spec_uint ("max-frames-in-flight", "Max frames in flight",
          "Frames counted at once, so that one frame's upload overlaps the "
          "counting of the ones before; each frame leaves as soon as its "
          "histogram is back, never waiting for later frames (0: automatic: "
          "1 when upstream is live, else "
          G_STRINGIFY (DEFAULT_IN_FLIGHT) ")", 0,
          MAX_IN_FLIGHT, DEFAULT_MAX_FRAMES_IN_FLIGHT,
          PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_FULL_FRAME,
      g_param_spec_boolean ("full-frame", "Full frame",
          "Count the whole frame (the crop rectangle of a cropped buffer); "
          "FALSE: only zones, regions and ROI metas", DEFAULT_FULL_FRAME,
          PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_REGIONS,
      gst_param_spec_array ("regions", "Regions",
          "Rectangles counted every frame, <<x, y, width, height>, ...> in "
          "pixels of the frame, clipped to it; region type 'region', ids 0, "
          "1, ... in order (at most " G_STRINGIFY (CLH_MAX_REGIONS) ")",
          gst_param_spec_array ("region", "Region",
              "<x, y, width, height>", g_param_spec_int ("value", "Value",
                  "x, y, width or height", G_MININT, G_MAXINT, 0,
                  G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS),
              G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS),
          PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_ZONES,
      g_param_spec_string ("zones", "Zones",
          "A grid of CxR zones covering the frame, e.g. \"5x5\" (each 1.."
          G_STRINGIFY (GST_CL_HISTOGRAM_MAX_ZONES) "; \"\": none); zone "
          "(i, j) spans columns [i*W/C, (i+1)*W/C) and rows [j*H/R, "
          "(j+1)*H/R), type 'zone', id j*C + i, row j, column i, position "
          "its name ('top-left', 'centre', ... up to 3x3; 'r<j>c<i>' in "
          "larger grids)", DEFAULT_ZONES,
          PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_ROI_META,
      g_param_spec_boolean ("roi-meta", "ROI meta",
          "Count every GstVideoRegionOfInterestMeta of the buffer: region "
          "type its roi_type, id its id; then (built with GStreamer >= 1.24's "
          "analytics library) every GstAnalyticsODMtd box: type its label, "
          "id its related tracking mtd's tracking id, else its mtd id",
          DEFAULT_ROI_META, PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_STATISTICS,
      g_param_spec_boolean ("statistics", "Statistics",
          "luma, channels and max modes: add each channel's min, max, mean, "
          "percentiles, clipped samples (at or beyond the clip levels) and "
          "(limited range) out-of-legal sample counts to the message and "
          "meta, exact whatever the bins",
          DEFAULT_STATISTICS, PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_PERCENTILES,
      gst_param_spec_array ("percentiles", "Percentiles",
          "Percentiles reported with statistics, <p, ...> each 0..100 (at "
          "most " G_STRINGIFY (CLH_MAX_PERCENTILES) "): the smallest sample "
          "value v with at least lrint(N*p/100) samples <= v, as FFmpeg "
          "signalstats' YLOW/YHIGH",
          g_param_spec_double ("percentile", "Percentile", "0..100", 0.0,
              100.0, 50.0, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS),
          PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_INTERVAL,
      g_param_spec_uint64 ("interval", "Interval",
          "Running time one message sums, in ns (0: one message per frame); "
          "metas stay per frame", 0, G_MAXUINT64, DEFAULT_INTERVAL,
          PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_CLIP_LOW_LEVEL,
      g_param_spec_double ("clip-low-level", "Clip low level",
          "Samples at or below this level are counted in clipped-low, in "
          "percent of each channel's nominal range for the stream's range "
          "(0: nominal black, 16 for limited 8-bit video, 0 for full "
          "range); negative values reach into the footroom",
          MIN_CLIP_LEVEL, MAX_CLIP_LEVEL, DEFAULT_CLIP_LOW_LEVEL,
          PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_CLIP_HIGH_LEVEL,
      g_param_spec_double ("clip-high-level", "Clip high level",
          "Samples at or above this level are counted in clipped-high, in "
          "percent of each channel's nominal range for the stream's range "
          "(100: nominal white, 235 for limited 8-bit luma, 240 for its "
          "chroma, 255 for full range; 95: an operator's zebra level); "
          "values over 100 reach into the headroom",
          MIN_CLIP_LEVEL, MAX_CLIP_LEVEL, DEFAULT_CLIP_HIGH_LEVEL,
          PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_METERING,
      g_param_spec_enum ("metering", "Metering",
          "The metering value the message and meta give, a weighted mean "
          "luma: average (the frame's mean), centre-weighted (the zones "
          "weighted by a tent peaking at the centre), spot (the centre "
          "zone or zones), zones (the zones weighted by metering-weights), "
          "none; all but average need zones",
          GST_TYPE_CL_HISTOGRAM_METERING, DEFAULT_METERING,
          PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_METERING_WEIGHTS,
      gst_param_spec_array ("metering-weights", "Metering weights",
          "metering=zones: one weight per zone, row by row (zone j*C + i), "
          "each 0 or more, e.g. <0,1,0, 1,4,1, 0,1,0> for zones=3x3",
          g_param_spec_double ("weight", "Weight", "0 or more", 0.0,
              G_MAXFLOAT, 1.0, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS),
          PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_ALERT_CLIPPED,
      g_param_spec_double ("alert-clipped", "Alert clipped",
          "Post an 'exposure' message when the clipped-high share of the "
          "frame or of any zone reaches this percent of its samples, and "
          "when it clears (0: off)", 0.0, 100.0, DEFAULT_ALERT_CLIPPED,
          PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_ALERT_CRUSHED,
      g_param_spec_double ("alert-crushed", "Alert crushed",
          "Post an 'exposure' message when the clipped-low (crushed) share "
          "of the frame or of any zone reaches this percent of its "
          "samples, and when it clears (0: off)", 0.0, 100.0,
          DEFAULT_ALERT_CRUSHED, PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_ALERT_HYSTERESIS,
      g_param_spec_double ("alert-hysteresis", "Alert hysteresis",
          "Percentage points under the alert's threshold a share must fall "
          "below for the alert to clear (a share of 0 always clears)", 0.0,
          100.0, DEFAULT_ALERT_HYSTERESIS, PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_ALERT_HOLD,
      g_param_spec_uint64 ("alert-hold", "Alert hold",
          "Running time, in ns, a share must stay over the threshold (or "
          "under it less the hysteresis) before the alert starts (or "
          "clears): shorter flaps are not reported", 0, G_MAXUINT64,
          DEFAULT_ALERT_HOLD, PLAYING_PROPERTY));
}

static void
gst_cl_histogram_class_init (GstClHistogramClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstClBaseTransformClass *base_class = GST_CL_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_cl_histogram_set_property;
  gobject_class->get_property = gst_cl_histogram_get_property;
  gobject_class->dispatch_properties_changed =
      gst_cl_histogram_dispatch_properties_changed;
  gobject_class->finalize = gst_cl_histogram_finalize;
  install_properties (gobject_class);

  gst_element_class_set_static_metadata (element_class,
      "OpenCL histogram", "Filter/Analyzer/Video",
      "Computes per-frame image histograms on an OpenCL device and posts "
      "them as messages and buffer meta",
      "clhistogram developers");
  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);

  element_class->change_state =
      GST_DEBUG_FUNCPTR (gst_cl_histogram_change_state);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cl_histogram_stop);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cl_histogram_set_caps);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cl_histogram_sink_event);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cl_histogram_query);
  trans_class->submit_input_buffer =
      GST_DEBUG_FUNCPTR (gst_cl_histogram_submit_input_buffer);
  trans_class->generate_output =
      GST_DEBUG_FUNCPTR (gst_cl_histogram_generate_output);
  trans_class->transform_ip =
      GST_DEBUG_FUNCPTR (gst_cl_histogram_transform_ip);

  base_class->inputs = GST_CL_BASE_TRANSFORM_INPUT_HOST_POOL
      | GST_CL_BASE_TRANSFORM_INPUT_CUDA;
  base_class->doing = "counting";
  base_class->done = "read";
  base_class->open = GST_DEBUG_FUNCPTR (gst_cl_histogram_open);
  base_class->close = GST_DEBUG_FUNCPTR (gst_cl_histogram_close);
  base_class->set_info = GST_DEBUG_FUNCPTR (gst_cl_histogram_set_info);
  base_class->proposed_buffers =
      GST_DEBUG_FUNCPTR (gst_cl_histogram_proposed_buffers);

  gst_type_mark_as_plugin_api (GST_TYPE_HISTOGRAM_MODE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_HISTOGRAM_METERING, 0);
}

static void
gst_cl_histogram_init (GstClHistogram *self)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstClHistogramSettings *settings = &self->settings;

  settings->mode = DEFAULT_MODE;
  settings->bins = DEFAULT_BINS;
  settings->bins_set = FALSE;
  settings->range_min = DEFAULT_RANGE_MIN;
  settings->range_max = DEFAULT_RANGE_MAX;
  settings->min_saturation = DEFAULT_MIN_SATURATION;
  settings->min_value = DEFAULT_MIN_VALUE;
  settings->post_messages = DEFAULT_POST_MESSAGES;
  settings->attach_meta = DEFAULT_ATTACH_META;
  settings->message_counts = DEFAULT_MESSAGE_COUNTS;
  settings->metering = DEFAULT_METERING;
  settings->metering_weights = NULL;
  settings->alert_clipped = DEFAULT_ALERT_CLIPPED;
  settings->alert_crushed = DEFAULT_ALERT_CRUSHED;
  settings->alert_hysteresis = DEFAULT_ALERT_HYSTERESIS;
  settings->alert_hold = DEFAULT_ALERT_HOLD;
  settings->full_frame = DEFAULT_FULL_FRAME;
  settings->roi_meta = DEFAULT_ROI_META;
  settings->statistics = DEFAULT_STATISTICS;
  settings->n_percentiles = G_N_ELEMENTS (default_percentiles);
  memcpy (settings->percentiles, default_percentiles,
      sizeof (default_percentiles));
  settings->interval = DEFAULT_INTERVAL;
  settings->clip_low_level = DEFAULT_CLIP_LOW_LEVEL;
  settings->clip_high_level = DEFAULT_CLIP_HIGH_LEVEL;
  self->applied = *settings;
  self->reports.outside_reported = g_byte_array_new ();
  self->max_frames_in_flight = DEFAULT_MAX_FRAMES_IN_FLIGHT;
  self->upstream_live = TRUE;
  self->in_flight = 1;
  g_queue_init (&self->pending);
  self->interval = gst_cl_histogram_interval_new ();
  self->alert = gst_cl_exposure_alert_new ();
  gst_cl_exposure_events_init (&self->events);
  self->poster = gst_cl_poster_new (GST_ELEMENT (self));
  g_mutex_init (&self->engine_lock);
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);

  gst_base_transform_set_in_place (trans, TRUE);
  gst_base_transform_set_passthrough (trans, !DEFAULT_ATTACH_META);
}
