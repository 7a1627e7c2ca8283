/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "base/gstclbasecontext.h"
#include "histogram/gstclhistogram.h"
#include "overlay/gstcloverlay.h"
#include "track/gstcltrackbackproject.h"
#include "track/gstcltrackcamshift.h"
#include "marks/gstclexposuremarks.h"
#include "scope/gstclscope.h"
#include "scope/gstclscopeoverlay.h"
#include "monitor/gstclexposuremonitor.h"

/* The category the shared device and frame code logs to, whichever
 * element comes first. */
GST_DEBUG_CATEGORY_EXTERN (gst_cl_histogram_debug);

static gboolean
plugin_init (GstPlugin *plugin)
{
  gboolean ok;

  GST_DEBUG_CATEGORY_INIT (gst_cl_histogram_debug, "clhistogram", 0,
      "OpenCL image histogram");
  /* The context handle's GType registers a GstValueTable
   * (gst_value_register()), which GStreamer does not guard against a
   * gst_value_deserialize() on another thread, e.g. an application's
   * gst_util_set_object_arg() while the first element opens its device:
   * register it now, while the plugin loads. */
  g_type_ensure (GST_TYPE_CL_CONTEXT_HANDLE);
  ok = GST_ELEMENT_REGISTER (clhistogram, plugin);

  ok &= GST_ELEMENT_REGISTER (histogramoverlay, plugin);
  ok &= GST_ELEMENT_REGISTER (clbackproject, plugin);
  ok &= GST_ELEMENT_REGISTER (clcamshift, plugin);
  ok &= GST_ELEMENT_REGISTER (clexposuremarks, plugin);
  ok &= GST_ELEMENT_REGISTER (clscope, plugin);
  ok &= GST_ELEMENT_REGISTER (clscopeoverlay, plugin);
  /* Last: it copies properties of the elements it is made of. */
  ok &= GST_ELEMENT_REGISTER (clexposuremonitor, plugin);
  return ok;
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, clhistogram,
    "Per-frame image histograms computed with OpenCL",
    plugin_init, PACKAGE_VERSION, "LGPL", PACKAGE_NAME, PACKAGE_ORIGIN)
