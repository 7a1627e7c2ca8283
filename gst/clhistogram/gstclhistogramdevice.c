/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clhistogram's device: from NULL to READY it finds the device context it
 * shares with the other elements on that device (gstclcontext.c) and makes
 * its own engine on it; each failure becomes an element error that says
 * what to do. */
#include "gstclhistogramdevice.h"
#include "gstclcontext.h"
#include "gstclhostmemory.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cl_histogram_debug);
#define GST_CAT_DEFAULT gst_cl_histogram_debug

/* Posts the element error for an engine failure on a frame. */
void
gst_cl_histogram_post_engine_error (GstClHistogram *self, const GError *err)
{
  /* After the messages of the frames before it. */
  gst_cl_poster_flush (self->poster);
  if (g_error_matches (err, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID))
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("The %s frame cannot be read as its caps and GstVideoMeta describe "
            "it: %s.", GST_VIDEO_INFO_NAME (&self->info), err->message),
        ("%s", err->message));
  else
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("OpenCL failed while counting a frame on %s: %s. The device may be "
            "out of memory or lost; restart the pipeline or choose another "
            "device.", clh_engine_get_device_name (self->engine),
            err->message), ("%s", err->message));
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

/* Frees our engine and lets go of the device context and the allocator of
 * the pool we propose; any pending frame must be discarded first. */
void
gst_cl_histogram_close_device (GstClHistogram *self)
{
  GstAllocator *allocator;
  ClhContext *context;

  g_clear_pointer (&self->engine, clh_engine_free);
  GST_OBJECT_LOCK (self);
  g_clear_pointer (&self->device_name, g_free);
  allocator = g_steal_pointer (&self->allocator);
  context = g_steal_pointer (&self->context);
  GST_OBJECT_UNLOCK (self);
  /* The last references may close the device: not under the lock. */
  gst_clear_object (&allocator);
  g_clear_pointer (&context, gst_cl_context_handle_unref);
}

/* Finds the shared device context (see gstclcontext.c) and makes our own
 * engine on it; FALSE after posting an element error that says what to
 * do. */
gboolean
gst_cl_histogram_open_device (GstClHistogram *self)
{
  GstElement *element = GST_ELEMENT (self);
  GError *err = NULL;
  ClhContext *context = NULL;
  ClhEngine *engine = NULL;
  gchar *device_spec;

  GST_OBJECT_LOCK (self);
  device_spec = g_strdup (self->device);
  GST_OBJECT_UNLOCK (self);

  if (gst_cl_ensure_element_context (element, device_spec, &self->context,
          &err)) {
    GST_OBJECT_LOCK (self);
    context = gst_cl_context_handle_ref (self->context);
    GST_OBJECT_UNLOCK (self);
    engine = clh_engine_new_for_context (context, &err);
  }
  if (!engine) {
    gst_cl_post_open_error (element, device_spec, err);
    g_clear_error (&err);
    g_clear_pointer (&context, gst_cl_context_handle_unref);
    gst_cl_histogram_close_device (self);
    g_free (device_spec);
    return FALSE;
  }

  GST_INFO_OBJECT (self, "using OpenCL device %s (%s)",
      clh_engine_get_device_name (engine),
      clh_engine_get_platform_name (engine));
  self->in_flight = clh_engine_get_max_in_flight (engine);
  GST_OBJECT_LOCK (self);
  self->engine = engine;
  self->device_name = g_strdup (clh_context_get_device_name (context));
  self->allocator = gst_cl_host_allocator_new (context);
  GST_OBJECT_UNLOCK (self);
  gst_cl_context_handle_unref (context);
  g_free (device_spec);
  return TRUE;
}

