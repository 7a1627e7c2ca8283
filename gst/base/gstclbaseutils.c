/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the elements on the engine share: the engine's view of a raw video
 * format, and the element errors for a device that cannot be opened. */
#include "gstclbaseutils.h"
#include "clh-error.h"

#include <string.h>

/* The planes and components of @info's format, from GstVideoFormatInfo,
 * as a frame without plane pointers; FALSE for layouts the engine cannot
 * read. */
gboolean
gst_cl_frame_format (const GstVideoInfo *info, ClhFrame *format)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  guint c;

  memset (format, 0, sizeof (*format));
  if (GST_VIDEO_FORMAT_INFO_IS_COMPLEX (finfo)
      || GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo) > CLH_MAX_COMPONENTS)
    return FALSE;

  format->width = GST_VIDEO_INFO_WIDTH (info);
  format->height = GST_VIDEO_INFO_HEIGHT (info);
  format->depth = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0);
  /* Samples of more than 8 significant bits (with their shift) sit in
   * 16-bit words; the format info's 'bits' is the depth, not the word. */
  if (format->depth + GST_VIDEO_FORMAT_INFO_SHIFT (finfo, 0) <= 8)
    format->sample = CLH_SAMPLE_8;
  else if (format->depth + GST_VIDEO_FORMAT_INFO_SHIFT (finfo, 0) <= 16)
    format->sample = GST_VIDEO_FORMAT_INFO_IS_LE (finfo) ?
        CLH_SAMPLE_16LE : CLH_SAMPLE_16BE;
  else
    return FALSE;
  format->n_planes = GST_VIDEO_INFO_N_PLANES (info);
  format->n_components = GST_VIDEO_INFO_N_COMPONENTS (info);
  for (c = 0; c < format->n_components; c++) {
    ClhComponent *comp = &format->components[c];

    comp->plane = GST_VIDEO_FORMAT_INFO_PLANE (finfo, c);
    comp->offset = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, c);
    comp->pixel_stride = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c);
    comp->shift = GST_VIDEO_FORMAT_INFO_SHIFT (finfo, c);
    comp->w_sub = GST_VIDEO_FORMAT_INFO_W_SUB (finfo, c);
    comp->h_sub = GST_VIDEO_FORMAT_INFO_H_SUB (finfo, c);
    /* GStreamer 1.22's tables give P010/P012/P016's V offset in samples
     * (1, from NV12's table) where its pack functions use bytes (2). */
    if (format->sample != CLH_SAMPLE_8 && comp->offset % 2)
      comp->offset *= 2;
  }
  /* ...and VYUY's chroma offsets as UYVY's, though its bytes are
   * V0 Y0 U0 Y1, as the FourCC says. */
  if (GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_VYUY) {
    format->components[1].offset = 2;
    format->components[2].offset = 0;
  }
  for (c = 0; c < format->n_planes; c++)
    format->planes[c].stride = GST_VIDEO_INFO_PLANE_STRIDE (info, c);
  return TRUE;
}

/**
 * gst_cl_post_open_error:
 * @self: the element that could not open its device
 * @device_spec: its `device` property
 * @err: from gst_cl_ensure_element_context() or the engine's constructor
 *
 * Posts the element error for a device that could not be opened: what to
 * do, by cause.
 */
void
gst_cl_post_open_error (GstElement *self, const gchar *device_spec,
    const GError *err)
{
  switch (err->code) {
    case CLH_ENGINE_ERROR_NO_DEVICE:
      GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
          ("No OpenCL device was found. Install an OpenCL driver for your "
              "GPU, or pocl-opencl-icd to run on the CPU, and check with "
              "'clinfo -l'."), ("%s", err->message));
      break;
    case CLH_ENGINE_ERROR_DEVICE_NOT_FOUND:
      GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
          ("No OpenCL device matches device=\"%s\". Set it to \"auto\", to "
              "\"P:D\" as 'clinfo -l' numbers devices, or to part of a "
              "device name.", device_spec), ("%s", err->message));
      break;
    case CLH_ENGINE_ERROR_BUILD:
      GST_ELEMENT_ERROR (self, LIBRARY, INIT,
          ("The OpenCL driver could not build the plugin's kernels. Update "
              "the driver or choose another device; the build log is in the "
              "debug message."), ("%s", err->message));
      break;
    default:
      GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
          ("Could not set up the OpenCL device: %s.", err->message),
          ("%s", err->message));
      break;
  }
}
