/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A buffer mapped as the frame the engine reads: GstVideoMeta validated
 * against the caps (it comes from upstream: untrusted), the buffer's size
 * checked, GstVideoCropMeta applied in place. */
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
  if (pending->video_mapped)
    gst_video_frame_unmap (&pending->vframe);
  if (pending->buffer_mapped)
    gst_buffer_unmap (pending->buffer, &pending->map);
  pending->video_mapped = pending->buffer_mapped = FALSE;
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

/* Points @frame's planes into @vframe; FALSE if a GstVideoMeta plane runs
 * past the memory gst_video_frame_map() mapped for it (it maps the one
 * block holding the plane's first byte). */
static gboolean
planes_from_video_frame (ClhFrame *frame, GstVideoFrame *vframe,
    gboolean per_plane_maps)
{
  guint p;

  for (p = 0; p < frame->n_planes; p++) {
    const GstMapInfo *map = &vframe->map[per_plane_maps ? p : 0];
    const guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (vframe, p);

    frame->planes[p].data = data;
    frame->planes[p].stride = GST_VIDEO_FRAME_PLANE_STRIDE (vframe, p);
    if ((gsize) (data - map->data) + clh_frame_plane_span (frame, p)
        > map->size)
      return FALSE;
  }
  return TRUE;
}

/* Every plane from one mapping of the whole buffer (GStreamer merges its
 * memory blocks), at the GstVideoMeta's offsets. */
static void
planes_from_buffer_map (ClhFrame *frame, const GstMapInfo *map,
    const GstVideoMeta *vmeta)
{
  guint p;

  for (p = 0; p < frame->n_planes; p++) {
    frame->planes[p].data = map->data + vmeta->offset[p];
    frame->planes[p].stride = vmeta->stride[p];
  }
}

/* The frame a buffer's memory holds, from its GstVideoMeta (whose size
 * may exceed the caps': videocrop's crop meta leaves the caps at the
 * cropped size) or its caps; FALSE after posting a STREAM error if the
 * meta disagrees with the caps, which gst_video_frame_map() asserts on. */
static gboolean
memory_frame (GstElement *self, const GstVideoInfo *info,
    const ClhFrame *format, const GstVideoMeta *vmeta, ClhFrame *frame)
{
  guint p;

  *frame = *format;
  if (!vmeta)
    return TRUE;
  if (vmeta->format != GST_VIDEO_INFO_FORMAT (info)
      || vmeta->n_planes != GST_VIDEO_INFO_N_PLANES (info)
      || vmeta->width < (guint) GST_VIDEO_INFO_WIDTH (info)
      || vmeta->height < (guint) GST_VIDEO_INFO_HEIGHT (info)
      || vmeta->width > CLH_MAX_DIMENSION
      || vmeta->height > CLH_MAX_DIMENSION) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("A buffer's GstVideoMeta describes a %ux%u %s frame of %u planes, "
            "which does not hold the %dx%d %s frame of its caps; the element "
            "upstream attached a wrong GstVideoMeta.", vmeta->width,
            vmeta->height, gst_video_format_to_string (vmeta->format),
            vmeta->n_planes, GST_VIDEO_INFO_WIDTH (info),
            GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_NAME (info)),
        ("at most %ux%u; caps have %u planes", CLH_MAX_DIMENSION,
            CLH_MAX_DIMENSION, GST_VIDEO_INFO_N_PLANES (info)));
    return FALSE;
  }
  frame->width = vmeta->width;
  frame->height = vmeta->height;
  for (p = 0; p < frame->n_planes; p++) {
    const gsize row = clh_frame_plane_row_bytes (frame, p);

    if (vmeta->stride[p] <= 0 || (gsize) vmeta->stride[p] < row) {
      GST_ELEMENT_ERROR (self, STREAM, FORMAT,
          ("A buffer's GstVideoMeta gives plane %u a stride of %d bytes, "
              "too small for its %" G_GSIZE_FORMAT "-byte rows of %s; the "
              "element upstream attached a wrong GstVideoMeta.", p,
              vmeta->stride[p], row, GST_VIDEO_INFO_NAME (info)), (NULL));
      return FALSE;
    }
    frame->planes[p].stride = vmeta->stride[p];
  }
  return TRUE;
}

/* Checks every plane of @frame, at the GstVideoMeta's offsets, lies inside
 * the buffer; FALSE after posting a STREAM error. */
static gboolean
check_frame_size (GstElement *self, const GstVideoInfo *info,
    GstBuffer *buffer, const GstVideoMeta *vmeta, const ClhFrame *frame)
{
  const gsize size = gst_buffer_get_size (buffer);
  gsize needed = GST_VIDEO_INFO_SIZE (info), end;
  gboolean fits = TRUE;
  guint p;

  if (vmeta) {
    needed = 0;
    for (p = 0; p < frame->n_planes; p++) {
      fits = fits && g_size_checked_add (&end, vmeta->offset[p],
          clh_frame_plane_span (frame, p));
      needed = fits ? MAX (needed, end) : G_MAXSIZE;
    }
  }
  if (fits && size >= needed)
    return TRUE;
  GST_ELEMENT_ERROR (self, STREAM, FORMAT,
      ("Buffer of %" G_GSIZE_FORMAT " bytes is too small for a %ux%u %s "
          "frame; the element upstream sent a truncated or malformed frame.",
          size, frame->width, frame->height, GST_VIDEO_INFO_NAME (info)),
      ("needs %" G_GSIZE_FORMAT " bytes%s", needed,
          fits ? "" : " (a GstVideoMeta offset past the largest size)"));
  return FALSE;
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

/* Maps the buffer for reading, as long as the engine reads it, and points
 * @frame into it; FALSE after posting an element error. */
static gboolean
map_frame (GstElement *self, const GstVideoInfo *info,
    GstClPendingFrame *pending, const GstVideoMeta *vmeta, ClhFrame *frame)
{
  if (!gst_video_frame_map (&pending->vframe, info, pending->buffer,
          GST_MAP_READ)) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED,
        ("Could not map a %s frame for reading.", GST_VIDEO_INFO_NAME (info)),
        ("gst_video_frame_map() failed on %" GST_PTR_FORMAT,
            pending->buffer));
    return FALSE;
  }
  pending->video_mapped = TRUE;
  if (planes_from_video_frame (frame, &pending->vframe, vmeta != NULL))
    return TRUE;
  gst_cl_pending_frame_unmap (pending);

  GST_DEBUG_OBJECT (self, "a plane spans memory blocks: mapping the buffer");
  if (!gst_buffer_map (pending->buffer, &pending->map, GST_MAP_READ)) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED,
        ("Could not map a %s frame for reading.", GST_VIDEO_INFO_NAME (info)),
        ("gst_buffer_map() failed on %" GST_PTR_FORMAT, pending->buffer));
    return FALSE;
  }
  pending->buffer_mapped = TRUE;
  planes_from_buffer_map (frame, &pending->map, vmeta);
  return TRUE;
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
  GstVideoMeta *vmeta = gst_buffer_get_video_meta (pending->buffer);

  return memory_frame (element, info, format, vmeta, frame)
      && check_frame_size (element, info, pending->buffer, vmeta, frame)
      && map_frame (element, info, pending, vmeta, frame)
      && crop_frame (element, info, pending, frame);
}
