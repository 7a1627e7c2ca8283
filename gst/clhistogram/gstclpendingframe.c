/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A buffer mapped as the frame the engine reads (gstclframemap.c), with
 * its GstVideoCropMeta applied in place. */
#include "gstclpendingframe.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cl_histogram_debug);
#define GST_CAT_DEFAULT gst_cl_histogram_debug

/* A pending frame for @buffer (taken), with its times in @segment now;
 * its request is the caller's to fill. */
GstClPendingFrame *
gst_cl_pending_frame_new (GstBuffer *buffer, const GstSegment *segment)
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

/* Ends the mappings, once the engine has collected or discarded the
 * frame. */
void
gst_cl_pending_frame_unmap (GstClPendingFrame *pending)
{
  gst_cl_frame_map_clear (&pending->map);
}

/* Only once the engine has collected or discarded the frame. */
void
gst_cl_pending_frame_free (GstClPendingFrame *pending)
{
  gst_cl_pending_frame_unmap (pending);
  gst_clear_buffer (&pending->buffer);
  gst_cl_histogram_request_clear (&pending->request);
  g_free (pending);
}

/* Narrows @frame (the memory's frame) to what is counted: the
 * GstVideoCropMeta's rectangle, or the caps' size from the top-left; FALSE
 * after posting a STREAM error for a rectangle that cannot be read. */
static gboolean
crop_frame (GstElement *self, const GstVideoInfo *info,
    GstClPendingFrame *pending, ClhFrame *frame)
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
  if (clh_frame_crop (frame, x, y, width, height, &request->spec, &err)) {
    request->width = width;
    request->height = height;
    return TRUE;
  }
  GST_ELEMENT_ERROR (self, STREAM, FORMAT,
      ("A %s frame's GstVideoCropMeta cannot be counted in place: %s.",
          GST_VIDEO_INFO_NAME (info), err->message),
      ("crop %ux%u at (%u, %u) of a %ux%u frame; a crop on the chroma grid "
          "(even x and y for 4:2:0), or mode=luma, can be counted", width,
          height, x, y, frame->width, frame->height));
  g_error_free (err);
  return FALSE;
}


/* Maps @pending's buffer, of @info's format (@format, from
 * gst_cl_histogram_frame_format()), as @frame: its GstVideoMeta checked
 * against the caps and the buffer's size, its GstVideoCropMeta applied;
 * the mapping lasts until gst_cl_pending_frame_unmap(). FALSE after
 * posting an element error on @element. */
gboolean
gst_cl_pending_frame_map (GstClPendingFrame *pending, GstElement *element,
    const GstVideoInfo *info, const ClhFrame *format, ClhFrame *frame)
{
  return gst_cl_frame_map_read (&pending->map, element, info, format,
      pending->buffer, frame)
      && crop_frame (element, info, pending, frame);
}
