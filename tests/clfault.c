/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fault injection for the error tests, loaded with LD_PRELOAD in front of
 * the OpenCL ICD loader; production code has no test hooks.
 *
 *   CLFAULT_BREAK_BUILD=1   clBuildProgram compiles with `-Dkernel=int`,
 *                           so the driver really fails and writes a log
 *   CLFAULT_NDRANGE_OK=N    the first N clEnqueueNDRangeKernel calls run,
 *                           later ones return CL_OUT_OF_RESOURCES
 */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The ICD loader's own entry points: the plugin loads libOpenCL in a local
 * scope, so RTLD_NEXT would not see it. */
static void *
real_symbol (const char *name)
{
  static void *loader;

  if (!loader)
    loader = dlopen ("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
  return loader ? dlsym (loader, name) : NULL;
}

typedef cl_int (*BuildFunc) (cl_program, cl_uint, const cl_device_id *,
    const char *, void (CL_CALLBACK *) (cl_program, void *), void *);
typedef cl_int (*NDRangeFunc) (cl_command_queue, cl_kernel, cl_uint,
    const size_t *, const size_t *, const size_t *, cl_uint, const cl_event *,
    cl_event *);

CL_API_ENTRY cl_int CL_API_CALL
clBuildProgram (cl_program program, cl_uint n_devices,
    const cl_device_id *devices, const char *options,
    void (CL_CALLBACK *notify) (cl_program, void *), void *user_data)
{
  BuildFunc real = (BuildFunc) real_symbol ("clBuildProgram");
  char broken[1024];

  if (!getenv ("CLFAULT_BREAK_BUILD"))
    return real (program, n_devices, devices, options, notify, user_data);

  snprintf (broken, sizeof (broken), "%s -Dkernel=int", options ? options : "");
  return real (program, n_devices, devices, broken, notify, user_data);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueNDRangeKernel (cl_command_queue queue, cl_kernel kernel,
    cl_uint dims, const size_t *offset, const size_t *global,
    const size_t *local, cl_uint n_events, const cl_event *events,
    cl_event *event)
{
  static long calls;
  NDRangeFunc real = (NDRangeFunc)
      real_symbol ("clEnqueueNDRangeKernel");
  const char *ok = getenv ("CLFAULT_NDRANGE_OK");

  if (ok && calls++ >= atol (ok))
    return CL_OUT_OF_RESOURCES;
  return real (queue, kernel, dims, offset, global, local, n_events, events,
      event);
}
