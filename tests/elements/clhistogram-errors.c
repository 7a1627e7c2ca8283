/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Errors that need a process of their own: meson runs each test here with
 * GST_CHECKS naming it and the environment that causes the failure
 * (tests/meson.build): no OpenCL driver at all, a driver that cannot build
 * the kernels, an OpenCL call that fails while streaming. */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <gst/clhistogram/clhistogram.h>

#include "clh-check-util.h"

static void
require_env (const gchar *name)
{
  fail_unless (g_getenv (name) != NULL,
      "%s is not set: run this test through 'meson test'", name);
}

static void
expect_ready_fails (GQuark domain, gint code, const gchar *in_message,
    const gchar *in_debug)
{
  GstElement *e = gst_element_factory_make ("clhistogram", NULL);
  GstBus *bus = gst_bus_new ();
  gchar *name = NULL;

  gst_element_set_bus (e, bus);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_READY),
      GST_STATE_CHANGE_FAILURE);
  clh_check_expect_error (bus, domain, code, in_message, in_debug);
  g_object_get (e, "device-name", &name, NULL);
  fail_unless (name == NULL);

  gst_element_set_state (e, GST_STATE_NULL);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
}

/* OCL_ICD_VENDORS points at an empty folder: the ICD loader finds no
 * platform. The debug text names drivers to install. */
GST_START_TEST (test_no_opencl)
{
  require_env ("OCL_ICD_VENDORS");
  expect_ready_fails (GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
      "No OpenCL device", "pocl-opencl-icd");
}
GST_END_TEST;

/* The driver fails to compile the kernels; the build log is in the debug
 * text, and the #line markers of the embedded source make it name lines
 * of kernels/histogram.cl. */
GST_START_TEST (test_build_failure)
{
  require_env ("CLFAULT_BREAK_BUILD");
  expect_ready_fails (GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_INIT,
      "could not build", "kernels/histogram.cl:");
}
GST_END_TEST;

/* The second frame's kernel launch fails with CL_OUT_OF_RESOURCES: an
 * element error naming it, a flow error, no buffer out, nothing leaked
 * (the leaks tracer checks). Hue, because on a CPU device (PoCL, here)
 * 8-bit channels and luma are counted without a launch. */
GST_START_TEST (test_opencl_failure_while_streaming)
{
  GstHarness *h;
  GstBus *bus = gst_bus_new ();
  GstBuffer *buffer;

  require_env ("CLFAULT_NDRANGE_OK");
  h = gst_harness_new_parse ("clhistogram mode=hue");
  gst_element_set_bus (h->element, bus);
  gst_harness_set_src_caps_str (h,
      "video/x-raw,format=RGBA,width=64,height=48,framerate=30/1");

  buffer = gst_buffer_new_allocate (NULL, 64 * 48 * 4, NULL);
  gst_buffer_memset (buffer, 0, 7, 64 * 48 * 4);
  buffer = gst_harness_push_and_pull (h, buffer);
  fail_unless (gst_buffer_get_histogram_meta (buffer) != NULL);
  gst_buffer_unref (buffer);

  buffer = gst_buffer_new_allocate (NULL, 64 * 48 * 4, NULL);
  fail_unless_equals_int (gst_harness_push (h, buffer), GST_FLOW_ERROR);
  clh_check_expect_error (bus, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
      "CL_OUT_OF_RESOURCES", "clEnqueueNDRangeKernel");
  fail_unless (gst_harness_try_pull (h) == NULL);

  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}
GST_END_TEST;

/* With frames in flight, the device fails on the second frame's readback
 * (its clWaitForEvents in the engine's collect, on the element's output
 * thread): an element error naming it, a flow error returned upstream by
 * a later push, only the frame before it out, nothing leaked. */
GST_START_TEST (test_opencl_failure_on_output_thread)
{
  GstHarness *h;
  GstBus *bus = gst_bus_new ();
  GstFlowReturn ret = GST_FLOW_OK;
  GstBuffer *buffer;
  guint i;

  require_env ("CLFAULT_FAIL");
  /* One frame in flight: the output thread waits in the driver itself
   * (with more, the device's submission thread watches the frames). */
  h = gst_harness_new_parse ("clhistogram mode=hue max-frames-in-flight=1");
  gst_element_set_bus (h->element, bus);
  gst_harness_set_live (h, FALSE);
  gst_harness_set_src_caps_str (h,
      "video/x-raw,format=RGBA,width=64,height=48,framerate=30/1");

  /* The failing frame's push waits for it to leave, which the failure
   * ends: by then the flow error has come back. */
  for (i = 0; i < 6 && ret == GST_FLOW_OK; i++) {
    buffer = gst_buffer_new_allocate (NULL, 64 * 48 * 4, NULL);
    gst_buffer_memset (buffer, 0, 7 * i, 64 * 48 * 4);
    ret = gst_harness_push (h, buffer);
  }
  fail_unless_equals_int (ret, GST_FLOW_ERROR);
  clh_check_expect_error (bus, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
      "OpenCL failed", "clWaitForEvents");
  buffer = gst_harness_try_pull (h);
  fail_unless (buffer != NULL, "the frame before the failure is not out");
  fail_unless (gst_buffer_get_histogram_meta (buffer) != NULL);
  gst_buffer_unref (buffer);
  fail_unless (gst_harness_try_pull (h) == NULL);
  /* The error stays until a flush. */
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_new_allocate (NULL,
              64 * 48 * 4, NULL)), GST_FLOW_ERROR);

  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}
GST_END_TEST;

static Suite *
clhistogram_errors_suite (void)
{
  Suite *s = suite_create ("clhistogram-errors");
  TCase *tc = tcase_create ("general");

  /* A build that fails compiles the kernels first: seconds on PoCL, more
   * under the sanitizers on a busy machine than check's default 4 s. */
  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_no_opencl);
  tcase_add_test (tc, test_build_failure);
  tcase_add_test (tc, test_opencl_failure_while_streaming);
  tcase_add_test (tc, test_opencl_failure_on_output_thread);
  return s;
}

CLH_CHECK_MAIN (clhistogram_errors);
