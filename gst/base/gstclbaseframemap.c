/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A buffer mapped as a frame, for the engine to read or an element to draw
 * on: its GstVideoMeta validated against the caps (it comes from upstream:
 * untrusted) and its size checked before any plane is pointed at. The one
 * mapping path of every element of the plugin. */
#include "gstclbaseframemap.h"

#include <string.h>

/* Ours, beside GStreamer's: the frame is read on the device, with no
 * fallback to a mapping of the whole buffer. */
#define GST_CL_MAP_DEVICE (GST_MAP_FLAG_LAST << 8)

GST_DEBUG_CATEGORY_EXTERN (gst_cl_histogram_debug);
#define GST_CAT_DEFAULT gst_cl_histogram_debug

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

/* Describes the whole-buffer mapping as a GstVideoFrame too, at the
 * GstVideoMeta's offsets and strides, for the elements that draw with
 * GstVideoFrame's accessors; it is never given to gst_video_frame_unmap(). */
static void
video_frame_from_buffer_map (GstClFrameMap *fm, const GstVideoInfo *info,
    const GstVideoMeta *vmeta, const ClhFrame *frame)
{
  GstVideoFrame *vframe = &fm->vframe;
  guint p;

  memset (vframe, 0, sizeof (*vframe));
  vframe->info = *info;
  vframe->info.width = frame->width;
  vframe->info.height = frame->height;
  vframe->buffer = fm->buffer;
  vframe->id = vmeta->id;
  for (p = 0; p < frame->n_planes; p++) {
    vframe->info.offset[p] = vmeta->offset[p];
    vframe->info.stride[p] = vmeta->stride[p];
    vframe->data[p] = fm->map.data + vmeta->offset[p];
    vframe->map[p] = fm->map;
  }
}

/* Maps the buffer with @flags, as long as the engine reads it or the
 * element draws, and points @frame into it; FALSE after posting an element
 * error. */
static gboolean
map_frame (GstElement *self, const GstVideoInfo *info,
    GstClFrameMap *fm, const GstVideoMeta *vmeta, GstMapFlags flags,
    ClhFrame *frame)
{
  const gchar *what = (flags & GST_MAP_WRITE) ? "writing" : "reading";

  if (!gst_video_frame_map (&fm->vframe, info, fm->buffer,
          flags & ~GST_CL_MAP_DEVICE)) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED,
        ("Could not map a %s frame for %s.", GST_VIDEO_INFO_NAME (info),
            what), ("gst_video_frame_map() failed on %" GST_PTR_FORMAT,
            fm->buffer));
    return FALSE;
  }
  fm->video_mapped = TRUE;
  if (planes_from_video_frame (frame, &fm->vframe, vmeta != NULL))
    return TRUE;
  gst_cl_frame_map_clear (fm);
  if (flags & GST_CL_MAP_DEVICE) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED,
        ("A %s frame in device memory has a plane outside its memory.",
            GST_VIDEO_INFO_NAME (info)), ("%" GST_PTR_FORMAT, fm->buffer));
    return FALSE;
  }

  GST_DEBUG_OBJECT (self, "a plane spans memory blocks: mapping the buffer");
  if (!gst_buffer_map (fm->buffer, &fm->map, flags)) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED,
        ("Could not map a %s frame for %s.", GST_VIDEO_INFO_NAME (info),
            what), ("gst_buffer_map() failed on %" GST_PTR_FORMAT,
            fm->buffer));
    return FALSE;
  }
  fm->buffer_mapped = TRUE;
  planes_from_buffer_map (frame, &fm->map, vmeta);
  video_frame_from_buffer_map (fm, info, vmeta, frame);
  return TRUE;
}

/* The checks, then the mapping with @flags. */
static gboolean
frame_map (GstClFrameMap *fm, GstElement *element, const GstVideoInfo *info,
    const ClhFrame *format, GstBuffer *buffer, GstMapFlags flags,
    ClhFrame *frame)
{
  GstVideoMeta *vmeta = gst_buffer_get_video_meta (buffer);

  memset (fm, 0, sizeof (*fm));
  fm->buffer = buffer;
  return memory_frame (element, info, format, vmeta, frame)
      && check_frame_size (element, info, buffer, vmeta, frame)
      && map_frame (element, info, fm, vmeta, flags, frame);
}


/**
 * gst_cl_frame_map_read:
 * @fm: (out caller-allocates): the mapping, cleared with
 *   gst_cl_frame_map_clear()
 * @element: the element errors are posted on
 * @info: the negotiated format
 * @format: @info's planes and components (gst_cl_frame_format())
 * @buffer: (transfer none): the frame; it must outlive the mapping
 * @frame: (out): the frame as its memory holds it: the GstVideoMeta's size
 *   (which may exceed the caps', as videocrop's crop meta leaves it) and
 *   strides, planes pointing into the mapping
 *
 * Maps @buffer for reading. Every plane the GstVideoMeta describes, at its
 * offset and stride and for the meta's rows, lies inside the buffer before
 * any is pointed at. @fm's `vframe` describes the same frame as a
 * #GstVideoFrame.
 *
 * Returns: %FALSE after posting a STREAM element error: a GstVideoMeta
 *   that disagrees with the caps, a buffer too small for its frame, or a
 *   buffer that cannot be mapped
 */
gboolean
gst_cl_frame_map_read (GstClFrameMap *fm, GstElement *element,
    const GstVideoInfo *info, const ClhFrame *format, GstBuffer *buffer,
    ClhFrame *frame)
{
  return frame_map (fm, element, info, format, buffer, GST_MAP_READ, frame);
}

/**
 * gst_cl_frame_map_read_device:
 * @fm: (out caller-allocates): as for gst_cl_frame_map_read()
 * @element: the element errors are posted on
 * @info: the negotiated format
 * @format: @info's planes and components
 * @buffer: (transfer none): the frame, one memory block of device memory
 *   that maps with @device_flag
 * @device_flag: the map flag giving device addresses (%GST_MAP_CUDA)
 * @frame: (out): as for gst_cl_frame_map_read(), its planes' data device
 *   addresses, which the host must not dereference
 *
 * Maps @buffer for reading on the device, with gst_cl_frame_map_read()'s
 * checks.
 *
 * Returns: %FALSE after posting a STREAM element error
 */
gboolean
gst_cl_frame_map_read_device (GstClFrameMap *fm, GstElement *element,
    const GstVideoInfo *info, const ClhFrame *format, GstBuffer *buffer,
    GstMapFlags device_flag, ClhFrame *frame)
{
  return frame_map (fm, element, info, format, buffer, GST_MAP_READ
      | GST_CL_MAP_DEVICE | device_flag, frame);
}

/**
 * gst_cl_frame_map_write:
 * @fm: (out caller-allocates): the mapping, cleared with
 *   gst_cl_frame_map_clear()
 * @element: the element errors are posted on
 * @info: the negotiated format
 * @format: @info's planes and components (gst_cl_frame_format())
 * @buffer: (transfer none): the frame, writable; it must outlive the
 *   mapping
 * @frame: (out): as for gst_cl_frame_map_read()
 *
 * Maps @buffer for reading and writing, with the checks of
 * gst_cl_frame_map_read(): an element drawing on @fm's `vframe` stays
 * inside the buffer whatever its GstVideoMeta says.
 *
 * Returns: %FALSE after posting a STREAM element error, as
 *   gst_cl_frame_map_read()
 */
gboolean
gst_cl_frame_map_write (GstClFrameMap *fm, GstElement *element,
    const GstVideoInfo *info, const ClhFrame *format, GstBuffer *buffer,
    ClhFrame *frame)
{
  return frame_map (fm, element, info, format, buffer, GST_MAP_READWRITE,
      frame);
}

/* Ends the mappings; idempotent. */
void
gst_cl_frame_map_clear (GstClFrameMap *fm)
{
  if (fm->video_mapped)
    gst_video_frame_unmap (&fm->vframe);
  if (fm->buffer_mapped)
    gst_buffer_unmap (fm->buffer, &fm->map);
  fm->video_mapped = fm->buffer_mapped = FALSE;
}
