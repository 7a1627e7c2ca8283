/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The state of a context and of its host blocks, for the runtime files
 * that keep it: clh-context.c (the device context), clh-host-block.c
 * (host blocks) and clh-external-memory.c (the import of another API's
 * device memory as a block). The engine sees their functions only
 * (clh-context-private.h). */
#pragma once

#include "clh-context-private.h"

G_BEGIN_DECLS

/* cl_khr_external_memory's acquire and release commands, and OpenCL 3.0's
 * clCreateBufferWithProperties(), typed here since the engine compiles
 * against the OpenCL 1.2 API (clh-cl.h). */
typedef cl_int (CL_API_CALL *ClhExternalMemFn) (cl_command_queue queue,
    cl_uint n_mems, const cl_mem *mems, cl_uint n_waits,
    const cl_event *waits, cl_event *event);
typedef cl_mem (CL_API_CALL *ClhCreateBufferWithPropertiesFn) (
    cl_context context, const cl_ulong *properties, cl_mem_flags flags,
    size_t size, void *host_ptr, cl_int *errcode);

struct _ClhContext {
  gatomicrefcount ref;
  ClhDeviceInfo device;
  cl_context context;
  cl_program program;
  ClhProgramOrigin origin;
  gsize alignment;
  /* The largest buffer the device allocates, bytes. */
  gsize max_block;
  /* Kernels read host blocks where they lie: a CPU device. */
  gboolean in_place;
  gboolean little_endian;
  /* Maps host blocks for the host; OpenCL queues are thread-safe, but a
   * block's map and unmap must not interleave with another's release. */
  GMutex lock;
  cl_command_queue service;
  /* Engines and trackers on the context: its load, for "auto". */
  gint n_users;
  /* The submission thread and the counting and upload queues the engines
   * share (clh-submitter.c), made when the first engine asks. */
  ClhSubmitter *submitter;
  cl_command_queue shared[2];
  /* The engine that submitted last, and when (ms of the monotonic clock,
   * as a wrapping 32-bit count). */
  gpointer last_submitter;
  gint last_submit_ms;
  /* The external memory import's entry points, resolved once
   * (clh-external-memory.c); all NULL where the device cannot import. */
  GOnce import_once;
  ClhCreateBufferWithPropertiesFn create_with_properties;
  ClhExternalMemFn acquire;
  ClhExternalMemFn release;
};

struct _ClhHostBlock {
  ClhContext *context;
  cl_mem mem;
  guint8 *data;
  gsize size;
  /* CPU devices: our own allocation under a CL_MEM_USE_HOST_PTR buffer. */
  gpointer allocation;
  /* Device memory another API allocated and exported
   * (clh_context_import_opaque_fd()): @data is its address in that API's
   * device address space, which the host never dereferences; the kernels
   * read it between the context's acquire and release commands. */
  gboolean external;
};

G_END_DECLS
