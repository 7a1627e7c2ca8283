/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fault injection for the error tests, loaded with LD_PRELOAD in front of
 * the OpenCL ICD loader; production code has no test hooks. It wraps every
 * OpenCL function the engine calls.
 *
 *   CLFAULT_FAIL=clFunc:N   the Nth call (from 1) of clFunc fails with an
 *                           error the driver could give (create functions
 *                           return NULL); clRelease* and clRetain* never
 *                           fail
 *   CLFAULT_REPORT=FILE     at exit, writes every function's call count,
 *                           whether the failure was injected, and the
 *                           OpenCL objects still held (created or retained
 *                           and not released) by type
 *   CLFAULT_BREAK_BUILD=1   clBuildProgram compiles with `-Dkernel=int`,
 *                           so the driver really fails and writes a log
 *   CLFAULT_NDRANGE_OK=N    the first N clEnqueueNDRangeKernel calls run,
 *                           later ones return CL_OUT_OF_RESOURCES
 *   CLFAULT_DISCRETE=1      the device says its memory is not the host's
 *                           (CL_DEVICE_HOST_UNIFIED_MEMORY false), so that
 *                           the engine takes a GPU's transfers on a CPU
 *                           device: pinned blocks, copies to and from them
 */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum {
  OBJ_CONTEXT, OBJ_QUEUE, OBJ_MEM, OBJ_PROGRAM, OBJ_KERNEL, OBJ_EVENT,
  N_OBJ
} ObjType;

static const char *const obj_names[N_OBJ] = {
  "context", "queue", "mem", "program", "kernel", "event",
};

#define MAX_FUNCS 64

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
  const char *name;
  long calls;
} funcs[MAX_FUNCS];
static int n_funcs;
static long live[N_OBJ];
static int injected;

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

#define REAL(name) ((__typeof__ (&name)) real_symbol (#name))

/* Counts a call of @name; whether it is the one CLFAULT_FAIL names. */
static int
call_fails (const char *name)
{
  const char *fail = getenv ("CLFAULT_FAIL");
  const size_t len = strlen (name);
  long calls;
  int i;

  pthread_mutex_lock (&lock);
  for (i = 0; i < n_funcs && strcmp (funcs[i].name, name) != 0; i++);
  if (i == n_funcs && n_funcs < MAX_FUNCS)
    funcs[n_funcs++].name = name;
  calls = i < MAX_FUNCS ? ++funcs[i].calls : 0;
  pthread_mutex_unlock (&lock);

  if (!fail || strncmp (fail, name, len) != 0 || fail[len] != ':'
      || atol (fail + len + 1) != calls)
    return 0;
  __atomic_store_n (&injected, 1, __ATOMIC_SEQ_CST);
  return 1;
}

static void
held (ObjType type, long change)
{
  __atomic_add_fetch (&live[type], change, __ATOMIC_SEQ_CST);
}

static void *
created (void *object, ObjType type)
{
  if (object)
    held (type, 1);
  return object;
}

static cl_int
failed (cl_int *errcode, cl_int code)
{
  if (errcode)
    *errcode = code;
  return code;
}

/* An enqueue's event, if asked for, is an object the caller must release. */
static cl_int
enqueued (cl_int ret, cl_event *event)
{
  if (ret == CL_SUCCESS && event && *event)
    held (OBJ_EVENT, 1);
  return ret;
}

static cl_int
released (cl_int ret, ObjType type)
{
  if (ret == CL_SUCCESS)
    held (type, -1);
  return ret;
}

__attribute__((destructor))
static void
write_report (void)
{
  const char *path = getenv ("CLFAULT_REPORT");
  FILE *f;
  int i;

  if (!path || !(f = fopen (path, "w")))
    return;
  pthread_mutex_lock (&lock);
  for (i = 0; i < n_funcs; i++)
    fprintf (f, "calls %s %ld\n", funcs[i].name, funcs[i].calls);
  pthread_mutex_unlock (&lock);
  for (i = 0; i < N_OBJ; i++)
    fprintf (f, "held %s %ld\n", obj_names[i], live[i]);
  fprintf (f, "injected %d\n", injected);
  fclose (f);
}

/* Platforms and devices. */

CL_API_ENTRY cl_int CL_API_CALL
clGetPlatformIDs (cl_uint n, cl_platform_id *platforms, cl_uint *n_ret)
{
  if (call_fails ("clGetPlatformIDs"))
    return CL_OUT_OF_HOST_MEMORY;
  return REAL (clGetPlatformIDs) (n, platforms, n_ret);
}

CL_API_ENTRY cl_int CL_API_CALL
clGetPlatformInfo (cl_platform_id platform, cl_platform_info param,
    size_t size, void *value, size_t *size_ret)
{
  if (call_fails ("clGetPlatformInfo"))
    return CL_OUT_OF_HOST_MEMORY;
  return REAL (clGetPlatformInfo) (platform, param, size, value, size_ret);
}

CL_API_ENTRY cl_int CL_API_CALL
clGetDeviceIDs (cl_platform_id platform, cl_device_type type, cl_uint n,
    cl_device_id *devices, cl_uint *n_ret)
{
  if (call_fails ("clGetDeviceIDs"))
    return CL_OUT_OF_RESOURCES;
  return REAL (clGetDeviceIDs) (platform, type, n, devices, n_ret);
}

CL_API_ENTRY cl_int CL_API_CALL
clGetDeviceInfo (cl_device_id device, cl_device_info param, size_t size,
    void *value, size_t *size_ret)
{
  cl_int ret;

  if (call_fails ("clGetDeviceInfo"))
    return CL_OUT_OF_RESOURCES;
  ret = REAL (clGetDeviceInfo) (device, param, size, value, size_ret);
  if (ret == CL_SUCCESS && param == CL_DEVICE_HOST_UNIFIED_MEMORY && value
      && size >= sizeof (cl_bool) && getenv ("CLFAULT_DISCRETE"))
    *(cl_bool *) value = CL_FALSE;
  return ret;
}

/* Contexts, queues, programs and kernels. */

CL_API_ENTRY cl_context CL_API_CALL
clCreateContext (const cl_context_properties *props, cl_uint n,
    const cl_device_id *devices, void (CL_CALLBACK *notify) (const char *,
        const void *, size_t, void *), void *user_data, cl_int *errcode)
{
  if (call_fails ("clCreateContext"))
    return failed (errcode, CL_OUT_OF_HOST_MEMORY), NULL;
  return created (REAL (clCreateContext) (props, n, devices, notify,
          user_data, errcode), OBJ_CONTEXT);
}

CL_API_ENTRY cl_int CL_API_CALL
clReleaseContext (cl_context context)
{
  call_fails ("clReleaseContext");
  return released (REAL (clReleaseContext) (context), OBJ_CONTEXT);
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
CL_API_ENTRY cl_command_queue CL_API_CALL
clCreateCommandQueue (cl_context context, cl_device_id device,
    cl_command_queue_properties props, cl_int *errcode)
{
  if (call_fails ("clCreateCommandQueue"))
    return failed (errcode, CL_OUT_OF_RESOURCES), NULL;
  return created (REAL (clCreateCommandQueue) (context, device, props,
          errcode), OBJ_QUEUE);
}
#pragma GCC diagnostic pop

CL_API_ENTRY cl_int CL_API_CALL
clRetainCommandQueue (cl_command_queue queue)
{
  cl_int ret;

  call_fails ("clRetainCommandQueue");
  ret = REAL (clRetainCommandQueue) (queue);
  if (ret == CL_SUCCESS)
    held (OBJ_QUEUE, 1);
  return ret;
}

CL_API_ENTRY cl_int CL_API_CALL
clReleaseCommandQueue (cl_command_queue queue)
{
  call_fails ("clReleaseCommandQueue");
  return released (REAL (clReleaseCommandQueue) (queue), OBJ_QUEUE);
}

CL_API_ENTRY cl_program CL_API_CALL
clCreateProgramWithSource (cl_context context, cl_uint count,
    const char **strings, const size_t *lengths, cl_int *errcode)
{
  if (call_fails ("clCreateProgramWithSource"))
    return failed (errcode, CL_OUT_OF_HOST_MEMORY), NULL;
  return created (REAL (clCreateProgramWithSource) (context, count, strings,
          lengths, errcode), OBJ_PROGRAM);
}

CL_API_ENTRY cl_program CL_API_CALL
clCreateProgramWithBinary (cl_context context, cl_uint n,
    const cl_device_id *devices, const size_t *lengths,
    const unsigned char **binaries, cl_int *status, cl_int *errcode)
{
  if (call_fails ("clCreateProgramWithBinary"))
    return failed (errcode, CL_INVALID_BINARY), NULL;
  return created (REAL (clCreateProgramWithBinary) (context, n, devices,
          lengths, binaries, status, errcode), OBJ_PROGRAM);
}

CL_API_ENTRY cl_int CL_API_CALL
clBuildProgram (cl_program program, cl_uint n_devices,
    const cl_device_id *devices, const char *options,
    void (CL_CALLBACK *notify) (cl_program, void *), void *user_data)
{
  char broken[1024];

  if (call_fails ("clBuildProgram"))
    return CL_OUT_OF_HOST_MEMORY;
  if (!getenv ("CLFAULT_BREAK_BUILD"))
    return REAL (clBuildProgram) (program, n_devices, devices, options,
        notify, user_data);
  snprintf (broken, sizeof (broken), "%s -Dkernel=int", options ? options : "");
  return REAL (clBuildProgram) (program, n_devices, devices, broken, notify,
      user_data);
}

CL_API_ENTRY cl_int CL_API_CALL
clGetProgramInfo (cl_program program, cl_program_info param, size_t size,
    void *value, size_t *size_ret)
{
  if (call_fails ("clGetProgramInfo"))
    return CL_OUT_OF_HOST_MEMORY;
  return REAL (clGetProgramInfo) (program, param, size, value, size_ret);
}

CL_API_ENTRY cl_int CL_API_CALL
clGetProgramBuildInfo (cl_program program, cl_device_id device,
    cl_program_build_info param, size_t size, void *value, size_t *size_ret)
{
  if (call_fails ("clGetProgramBuildInfo"))
    return CL_OUT_OF_HOST_MEMORY;
  return REAL (clGetProgramBuildInfo) (program, device, param, size, value,
      size_ret);
}

CL_API_ENTRY cl_int CL_API_CALL
clReleaseProgram (cl_program program)
{
  call_fails ("clReleaseProgram");
  return released (REAL (clReleaseProgram) (program), OBJ_PROGRAM);
}

CL_API_ENTRY cl_kernel CL_API_CALL
clCreateKernel (cl_program program, const char *name, cl_int *errcode)
{
  if (call_fails ("clCreateKernel"))
    return failed (errcode, CL_OUT_OF_HOST_MEMORY), NULL;
  return created (REAL (clCreateKernel) (program, name, errcode), OBJ_KERNEL);
}

CL_API_ENTRY cl_int CL_API_CALL
clGetKernelWorkGroupInfo (cl_kernel kernel, cl_device_id device,
    cl_kernel_work_group_info param, size_t size, void *value,
    size_t *size_ret)
{
  if (call_fails ("clGetKernelWorkGroupInfo"))
    return CL_OUT_OF_RESOURCES;
  return REAL (clGetKernelWorkGroupInfo) (kernel, device, param, size, value,
      size_ret);
}

CL_API_ENTRY cl_int CL_API_CALL
clSetKernelArg (cl_kernel kernel, cl_uint index, size_t size,
    const void *value)
{
  if (call_fails ("clSetKernelArg"))
    return CL_OUT_OF_RESOURCES;
  return REAL (clSetKernelArg) (kernel, index, size, value);
}

CL_API_ENTRY cl_int CL_API_CALL
clReleaseKernel (cl_kernel kernel)
{
  call_fails ("clReleaseKernel");
  return released (REAL (clReleaseKernel) (kernel), OBJ_KERNEL);
}

/* Memory. */

CL_API_ENTRY cl_mem CL_API_CALL
clCreateBuffer (cl_context context, cl_mem_flags flags, size_t size,
    void *host_ptr, cl_int *errcode)
{
  if (call_fails ("clCreateBuffer"))
    return failed (errcode, CL_MEM_OBJECT_ALLOCATION_FAILURE), NULL;
  return created (REAL (clCreateBuffer) (context, flags, size, host_ptr,
          errcode), OBJ_MEM);
}

CL_API_ENTRY cl_int CL_API_CALL
clReleaseMemObject (cl_mem mem)
{
  call_fails ("clReleaseMemObject");
  return released (REAL (clReleaseMemObject) (mem), OBJ_MEM);
}

/* Commands. */

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueWriteBuffer (cl_command_queue queue, cl_mem buffer, cl_bool block,
    size_t offset, size_t size, const void *ptr, cl_uint n_events,
    const cl_event *events, cl_event *event)
{
  if (call_fails ("clEnqueueWriteBuffer"))
    return CL_OUT_OF_RESOURCES;
  return enqueued (REAL (clEnqueueWriteBuffer) (queue, buffer, block, offset,
          size, ptr, n_events, events, event), event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueReadBuffer (cl_command_queue queue, cl_mem buffer, cl_bool block,
    size_t offset, size_t size, void *ptr, cl_uint n_events,
    const cl_event *events, cl_event *event)
{
  if (call_fails ("clEnqueueReadBuffer"))
    return CL_OUT_OF_RESOURCES;
  return enqueued (REAL (clEnqueueReadBuffer) (queue, buffer, block, offset,
          size, ptr, n_events, events, event), event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueFillBuffer (cl_command_queue queue, cl_mem buffer,
    const void *pattern, size_t pattern_size, size_t offset, size_t size,
    cl_uint n_events, const cl_event *events, cl_event *event)
{
  if (call_fails ("clEnqueueFillBuffer"))
    return CL_OUT_OF_RESOURCES;
  return enqueued (REAL (clEnqueueFillBuffer) (queue, buffer, pattern,
          pattern_size, offset, size, n_events, events, event), event);
}

CL_API_ENTRY void *CL_API_CALL
clEnqueueMapBuffer (cl_command_queue queue, cl_mem buffer, cl_bool block,
    cl_map_flags flags, size_t offset, size_t size, cl_uint n_events,
    const cl_event *events, cl_event *event, cl_int *errcode)
{
  void *ptr;
  cl_int ret;

  if (call_fails ("clEnqueueMapBuffer"))
    return failed (errcode, CL_MAP_FAILURE), NULL;
  ptr = REAL (clEnqueueMapBuffer) (queue, buffer, block, flags, offset, size,
      n_events, events, event, &ret);
  enqueued (ret, event);
  if (errcode)
    *errcode = ret;
  return ptr;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueUnmapMemObject (cl_command_queue queue, cl_mem mem, void *ptr,
    cl_uint n_events, const cl_event *events, cl_event *event)
{
  if (call_fails ("clEnqueueUnmapMemObject"))
    return CL_OUT_OF_RESOURCES;
  return enqueued (REAL (clEnqueueUnmapMemObject) (queue, mem, ptr, n_events,
          events, event), event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueNDRangeKernel (cl_command_queue queue, cl_kernel kernel,
    cl_uint dims, const size_t *offset, const size_t *global,
    const size_t *local, cl_uint n_events, const cl_event *events,
    cl_event *event)
{
  static long calls;
  const char *ok = getenv ("CLFAULT_NDRANGE_OK");

  if (call_fails ("clEnqueueNDRangeKernel")
      || (ok && __atomic_fetch_add (&calls, 1, __ATOMIC_SEQ_CST) >= atol (ok)))
    return CL_OUT_OF_RESOURCES;
  return enqueued (REAL (clEnqueueNDRangeKernel) (queue, kernel, dims, offset,
          global, local, n_events, events, event), event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueMarkerWithWaitList (cl_command_queue queue, cl_uint n_events,
    const cl_event *events, cl_event *event)
{
  if (call_fails ("clEnqueueMarkerWithWaitList"))
    return CL_OUT_OF_RESOURCES;
  return enqueued (REAL (clEnqueueMarkerWithWaitList) (queue, n_events,
          events, event), event);
}

CL_API_ENTRY cl_int CL_API_CALL
clFlush (cl_command_queue queue)
{
  if (call_fails ("clFlush"))
    return CL_OUT_OF_RESOURCES;
  return REAL (clFlush) (queue);
}

CL_API_ENTRY cl_int CL_API_CALL
clFinish (cl_command_queue queue)
{
  if (call_fails ("clFinish"))
    return CL_OUT_OF_RESOURCES;
  return REAL (clFinish) (queue);
}

/* Events. */

CL_API_ENTRY cl_int CL_API_CALL
clWaitForEvents (cl_uint n, const cl_event *events)
{
  if (call_fails ("clWaitForEvents"))
    return CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  return REAL (clWaitForEvents) (n, events);
}

CL_API_ENTRY cl_int CL_API_CALL
clGetEventInfo (cl_event event, cl_event_info param, size_t size,
    void *value, size_t *size_ret)
{
  if (call_fails ("clGetEventInfo"))
    return CL_INVALID_EVENT;
  return REAL (clGetEventInfo) (event, param, size, value, size_ret);
}

CL_API_ENTRY cl_int CL_API_CALL
clGetEventProfilingInfo (cl_event event, cl_profiling_info param,
    size_t size, void *value, size_t *size_ret)
{
  if (call_fails ("clGetEventProfilingInfo"))
    return CL_PROFILING_INFO_NOT_AVAILABLE;
  return REAL (clGetEventProfilingInfo) (event, param, size, value, size_ret);
}

CL_API_ENTRY cl_int CL_API_CALL
clRetainEvent (cl_event event)
{
  cl_int ret;

  call_fails ("clRetainEvent");
  ret = REAL (clRetainEvent) (event);
  if (ret == CL_SUCCESS)
    held (OBJ_EVENT, 1);
  return ret;
}

CL_API_ENTRY cl_int CL_API_CALL
clReleaseEvent (cl_event event)
{
  call_fails ("clReleaseEvent");
  return released (REAL (clReleaseEvent) (event), OBJ_EVENT);
}
