/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cl-floor: what a frame's command sequence costs through this OpenCL driver
 * with no histogram work, so the engine's end-to-end time can be split into
 * the driver's floor and its own. For a 600x480 frame of 1 and 4 bytes per
 * pixel, medians over many frames of:
 *   read      a blocking read of 1 KiB of bins
 *   write     a non-blocking write of the frame, then the blocking read
 *   write+k   the same with an empty kernel between them
 *   pinned    write+k from pinned host memory (CL_MEM_ALLOC_HOST_PTR, mapped)
 *   mapped    no write: the kernel reads the frame from mapped pinned memory
 *             (one load per 4 bytes), then the blocking read
 * Diagnostic only: it shares no code with the engine and asserts nothing. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "clh-bench-stats.h"

#define CHECK(call) do { cl_int _r = (call); if (_r != CL_SUCCESS) \
  g_error ("%s failed: %d", #call, _r); } while (0)

static const char *source =
    "kernel void empty (global const uint *src, uint n, global uint *out)\n"
    "{ if (get_global_id (0) == 0 && n == 0xffffffffu) out[0] = src[0]; }\n"
    "kernel void touch (global const uint *src, uint n, global uint *out)\n"
    "{ uint s = 0; for (uint i = get_global_id (0); i < n;\n"
    "      i += get_global_size (0)) s += src[i];\n"
    "  if (s == 0x12345678u) out[1] = s; }\n";

typedef struct {
  cl_context ctx;
  cl_command_queue q;
  cl_kernel empty, touch;
  cl_mem dev, bins, pinned;
  guint8 *pageable, *pinned_ptr;
  gsize frame;
  gsize slot;                   /* frame rounded up to 4 KiB: sub-buffer
                                 * offsets must be aligned */
  guint n_frames;
} Setup;

typedef enum { READ, WRITE, WRITE_K, PINNED, MAPPED, N_KINDS } Kind;
static const char *const kind_names[] = {
  "read", "write", "write+k", "pinned", "mapped",
};

static void
one_frame (Setup *s, Kind kind, guint f, guint32 *host_bins)
{
  const size_t global = 132 * 256, local = 256;
  const cl_uint n = s->frame / 4;
  const gsize off = (gsize) f * s->slot;
  cl_mem src = s->dev;

  if (kind == WRITE || kind == WRITE_K)
    CHECK (clEnqueueWriteBuffer (s->q, s->dev, CL_FALSE, 0, s->frame,
            s->pageable + off, 0, NULL, NULL));
  if (kind == PINNED)
    CHECK (clEnqueueWriteBuffer (s->q, s->dev, CL_FALSE, 0, s->frame,
            s->pinned_ptr + off, 0, NULL, NULL));
  if (kind == MAPPED) {
    cl_buffer_region region = { off, s->frame };
    cl_int ret;
    src = clCreateSubBuffer (s->pinned, CL_MEM_READ_ONLY,
        CL_BUFFER_CREATE_TYPE_REGION, &region, &ret);
    CHECK (ret);
  }
  if (kind != READ && kind != WRITE) {
    cl_kernel k = kind == MAPPED ? s->touch : s->empty;
    CHECK (clSetKernelArg (k, 0, sizeof (cl_mem), &src));
    CHECK (clSetKernelArg (k, 1, sizeof (cl_uint), &n));
    CHECK (clSetKernelArg (k, 2, sizeof (cl_mem), &s->bins));
    CHECK (clEnqueueNDRangeKernel (s->q, k, 1, NULL, &global, &local, 0,
            NULL, NULL));
  }
  CHECK (clEnqueueReadBuffer (s->q, s->bins, CL_TRUE, 0, 1024, host_bins, 0,
          NULL, NULL));
  if (kind == MAPPED)
    clReleaseMemObject (src);
}

int
main (int argc, char **argv)
{
  cl_platform_id platform;
  cl_device_id device;
  char name[256];
  guint bpp;
  cl_int ret;

  CHECK (clGetPlatformIDs (1, &platform, NULL));
  CHECK (clGetDeviceIDs (platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
  clGetDeviceInfo (device, CL_DEVICE_NAME, sizeof (name), name, NULL);
  printf ("cl-floor on %s: 600x480 frames, medians over 4 x 64 frames, us\n",
      name);
  printf ("%-6s %9s %9s %9s %9s %9s\n", "bytes", kind_names[0], kind_names[1],
      kind_names[2], kind_names[3], kind_names[4]);

  for (bpp = 1; bpp <= 4; bpp += 3) {
    Setup s = { 0 };
    cl_program prog;
    guint32 host_bins[256];
    gdouble medians[N_KINDS];
    Kind kind;

    s.frame = 600 * 480 * bpp;
    s.slot = (s.frame + 4095) / 4096 * 4096;
    s.n_frames = 64;
    s.ctx = clCreateContext (NULL, 1, &device, NULL, NULL, &ret);
    CHECK (ret);
    s.q = clCreateCommandQueue (s.ctx, device, 0, &ret);
    CHECK (ret);
    prog = clCreateProgramWithSource (s.ctx, 1, &source, NULL, &ret);
    CHECK (ret);
    CHECK (clBuildProgram (prog, 1, &device, "", NULL, NULL));
    s.empty = clCreateKernel (prog, "empty", &ret);
    CHECK (ret);
    s.touch = clCreateKernel (prog, "touch", &ret);
    CHECK (ret);
    s.dev = clCreateBuffer (s.ctx, CL_MEM_READ_ONLY, s.frame, NULL, &ret);
    CHECK (ret);
    s.bins = clCreateBuffer (s.ctx, CL_MEM_READ_WRITE, 1024, NULL, &ret);
    CHECK (ret);
    s.pinned = clCreateBuffer (s.ctx, CL_MEM_READ_ONLY | CL_MEM_ALLOC_HOST_PTR,
        s.slot * s.n_frames, NULL, &ret);
    CHECK (ret);
    s.pinned_ptr = clEnqueueMapBuffer (s.q, s.pinned, CL_TRUE,
        CL_MAP_WRITE, 0, s.slot * s.n_frames, 0, NULL, NULL, &ret);
    CHECK (ret);
    s.pageable = g_malloc (s.slot * s.n_frames);
    memset (s.pageable, 7, s.slot * s.n_frames);
    memset (s.pinned_ptr, 7, s.slot * s.n_frames);

    for (kind = 0; kind < N_KINDS; kind++) {
      GArray *t = g_array_new (FALSE, FALSE, sizeof (gdouble));
      guint pass, f;

      for (pass = 0; pass < 5; pass++)
        for (f = 0; f < s.n_frames; f++) {
          gdouble t0 = clh_bench_now_us (), dt;
          one_frame (&s, kind, f, host_bins);
          dt = clh_bench_now_us () - t0;
          if (pass > 0)
            g_array_append_val (t, dt);
        }
      medians[kind] = clh_bench_percentile (t, 50);
      g_array_unref (t);
    }
    printf ("%-6u %9.1f %9.1f %9.1f %9.1f %9.1f\n", bpp, medians[0],
        medians[1], medians[2], medians[3], medians[4]);

    clEnqueueUnmapMemObject (s.q, s.pinned, s.pinned_ptr, 0, NULL, NULL);
    clFinish (s.q);
    g_free (s.pageable);
    clReleaseMemObject (s.pinned);
    clReleaseMemObject (s.bins);
    clReleaseMemObject (s.dev);
    clReleaseKernel (s.empty);
    clReleaseKernel (s.touch);
    clReleaseProgram (prog);
    clReleaseCommandQueue (s.q);
    clReleaseContext (s.ctx);
  }
  return 0;
}
