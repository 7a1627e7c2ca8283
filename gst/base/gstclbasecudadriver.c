/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CUDA driver calls for memory OpenCL imports: physical allocations made
 * with a POSIX file descriptor handle type, mapped into the context's
 * address space and exported (CUDA Driver API, "Virtual Memory
 * Management"). Copies go through GStreamer's own CuMemcpy2D(). */
#include "gstclbasecudadriver.h"

#include <gmodule.h>
#include <string.h>

#include <gst/cuda/cuda-gst.h>
#include <gst/cuda/gstcudaloader.h>

typedef CUresult (CUDAAPI *CtxGetDeviceFn) (CUdevice *device);
typedef CUresult (CUDAAPI *DeviceGetUuidFn) (CUuuid *uuid, CUdevice dev);
typedef CUresult (CUDAAPI *GranularityFn) (size_t *granularity,
    const CUmemAllocationProp *prop, CUmemAllocationGranularity_flags option);
typedef CUresult (CUDAAPI *MemCreateFn) (CUmemGenericAllocationHandle *handle,
    size_t size, const CUmemAllocationProp *prop, unsigned long long flags);
typedef CUresult (CUDAAPI *MemReleaseFn) (
    CUmemGenericAllocationHandle handle);
typedef CUresult (CUDAAPI *AddressReserveFn) (CUdeviceptr *ptr, size_t size,
    size_t alignment, CUdeviceptr addr, unsigned long long flags);
typedef CUresult (CUDAAPI *AddressFreeFn) (CUdeviceptr ptr, size_t size);
typedef CUresult (CUDAAPI *MemMapFn) (CUdeviceptr ptr, size_t size,
    size_t offset, CUmemGenericAllocationHandle handle,
    unsigned long long flags);
typedef CUresult (CUDAAPI *MemUnmapFn) (CUdeviceptr ptr, size_t size);
typedef CUresult (CUDAAPI *SetAccessFn) (CUdeviceptr ptr, size_t size,
    const CUmemAccessDesc *desc, size_t count);
typedef CUresult (CUDAAPI *ExportFn) (void *shareable,
    CUmemGenericAllocationHandle handle, CUmemAllocationHandleType type,
    unsigned long long flags);

static struct {
  CtxGetDeviceFn ctx_get_device;
  DeviceGetUuidFn device_get_uuid;
  GranularityFn granularity;
  MemCreateFn mem_create;
  MemReleaseFn mem_release;
  AddressReserveFn address_reserve;
  AddressFreeFn address_free;
  MemMapFn mem_map;
  MemUnmapFn mem_unmap;
  SetAccessFn set_access;
  ExportFn export_handle;
  gchar *failure;
} driver;

static gboolean
load_symbol (GModule *module, const gchar *name, gpointer *fn)
{
  return g_module_symbol (module, name, fn) && *fn;
}

static gpointer
load_driver (gpointer unused)
{
  GModule *module = g_module_open ("libcuda.so.1", G_MODULE_BIND_LAZY);

  if (!module) {
    driver.failure = g_strdup_printf ("libcuda.so.1 (NVIDIA's driver) "
        "cannot be loaded: %s", g_module_error ());
    return NULL;
  }
  /* cuDeviceGetUuid_v2 is CUDA 11.4's; older drivers have the first. */
  if (!load_symbol (module, "cuDeviceGetUuid_v2",
          (gpointer *) &driver.device_get_uuid))
    load_symbol (module, "cuDeviceGetUuid",
        (gpointer *) &driver.device_get_uuid);
  if (!driver.device_get_uuid
      || !load_symbol (module, "cuCtxGetDevice",
          (gpointer *) &driver.ctx_get_device)
      || !load_symbol (module, "cuMemGetAllocationGranularity",
          (gpointer *) &driver.granularity)
      || !load_symbol (module, "cuMemCreate", (gpointer *) &driver.mem_create)
      || !load_symbol (module, "cuMemRelease",
          (gpointer *) &driver.mem_release)
      || !load_symbol (module, "cuMemAddressReserve",
          (gpointer *) &driver.address_reserve)
      || !load_symbol (module, "cuMemAddressFree",
          (gpointer *) &driver.address_free)
      || !load_symbol (module, "cuMemMap", (gpointer *) &driver.mem_map)
      || !load_symbol (module, "cuMemUnmap", (gpointer *) &driver.mem_unmap)
      || !load_symbol (module, "cuMemSetAccess",
          (gpointer *) &driver.set_access)
      || !load_symbol (module, "cuMemExportToShareableHandle",
          (gpointer *) &driver.export_handle)) {
    driver.failure = g_strdup ("NVIDIA's driver (libcuda.so.1) lacks the "
        "virtual memory API (CUDA 10.2 or later)");
    driver.device_get_uuid = NULL;
  }
  /* Kept open: the functions are used for the process's life. */
  return NULL;
}

/**
 * gst_cl_cuda_driver_load:
 * @error: why the driver's functions are missing
 *
 * Loads the CUDA driver's virtual memory functions, once per process.
 *
 * Returns: %TRUE if they are all there
 */
gboolean
gst_cl_cuda_driver_load (GError **error)
{
  static GOnce once = G_ONCE_INIT;

  g_once (&once, load_driver, NULL);
  if (driver.failure) {
    g_set_error_literal (error, GST_RESOURCE_ERROR,
        GST_RESOURCE_ERROR_NOT_FOUND, driver.failure);
    return FALSE;
  }
  return TRUE;
}

/* A CUDA status as an error saying which call failed. */
static gboolean
cuda_check (CUresult result, const gchar *call, GError **error)
{
  const gchar *name = NULL;

  if (result == CUDA_SUCCESS)
    return TRUE;
  CuGetErrorName (result, &name);
  g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
      "%s failed: %s (%d)", call, name ? name : "unknown CUDA error",
      (gint) result);
  return FALSE;
}

static gboolean
push (GstCudaContext *context, GError **error)
{
  if (gst_cuda_context_push (context))
    return TRUE;
  g_set_error_literal (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
      "the CUDA context cannot be made current");
  return FALSE;
}

static gboolean
current_device (CUdevice *device, GError **error)
{
  return cuda_check (driver.ctx_get_device (device), "cuCtxGetDevice",
      error);
}

/**
 * gst_cl_cuda_context_get_uuid:
 * @context: a CUDA context
 * @uuid: (out caller-allocates): its device's UUID (cuDeviceGetUuid()),
 *   which cl_khr_device_uuid's %CL_DEVICE_UUID_KHR gives too
 * @error: the driver's failure
 *
 * Returns: %TRUE with @uuid filled
 */
gboolean
gst_cl_cuda_context_get_uuid (GstCudaContext *context,
    guint8 uuid[GST_CL_CUDA_UUID_SIZE], GError **error)
{
  CUdevice device;
  CUuuid id;
  gboolean ok;

  if (!gst_cl_cuda_driver_load (error) || !push (context, error))
    return FALSE;
  ok = current_device (&device, error)
      && cuda_check (driver.device_get_uuid (&id, device), "cuDeviceGetUuid",
      error);
  gst_cuda_context_pop (NULL);
  if (ok)
    memcpy (uuid, id.bytes, GST_CL_CUDA_UUID_SIZE);
  return ok;
}

static void
allocation_prop (CUdevice device, CUmemAllocationProp *prop)
{
  memset (prop, 0, sizeof (*prop));
  prop->type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop->requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  prop->location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop->location.id = device;
}

/* Reserves, maps and opens for reading and writing @a's address range,
 * with the context current; on failure undoes what it did. */
static gboolean
map_allocation (CUdevice device, GstClCudaAllocation *a, GError **error)
{
  CUdeviceptr ptr = 0;
  CUmemAccessDesc access;

  if (!cuda_check (driver.address_reserve (&ptr, a->size, 0, 0, 0),
          "cuMemAddressReserve", error))
    return FALSE;
  if (!cuda_check (driver.mem_map (ptr, a->size, 0, a->handle, 0),
          "cuMemMap", error)) {
    driver.address_free (ptr, a->size);
    return FALSE;
  }
  memset (&access, 0, sizeof (access));
  access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  access.location.id = device;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  if (!cuda_check (driver.set_access (ptr, a->size, &access, 1),
          "cuMemSetAccess", error)) {
    driver.mem_unmap (ptr, a->size);
    driver.address_free (ptr, a->size);
    return FALSE;
  }
  a->ptr = ptr;
  return TRUE;
}

/**
 * gst_cl_cuda_alloc_exportable:
 * @context: the CUDA context whose device holds the memory
 * @size: bytes wanted; rounded up to the allocation granularity
 * @allocation: (out caller-allocates): the allocation
 * @error: the driver's failure
 *
 * Allocates device memory that can be exported as a POSIX file descriptor
 * (gst_cl_cuda_export_fd()), mapped read-write into @context's address
 * space at @allocation's `ptr`.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_cuda_alloc_exportable (GstCudaContext *context, gsize size,
    GstClCudaAllocation *allocation, GError **error)
{
  CUmemAllocationProp prop;
  CUmemGenericAllocationHandle handle;
  CUdevice device;
  size_t granularity = 0;
  gboolean ok;

  memset (allocation, 0, sizeof (*allocation));
  if (!gst_cl_cuda_driver_load (error) || !push (context, error))
    return FALSE;
  ok = current_device (&device, error);
  if (ok) {
    allocation_prop (device, &prop);
    ok = cuda_check (driver.granularity (&granularity, &prop,
            CU_MEM_ALLOC_GRANULARITY_MINIMUM),
        "cuMemGetAllocationGranularity", error);
  }
  if (ok) {
    granularity = MAX (granularity, 1);
    allocation->size = (MAX (size, 1) + granularity - 1) / granularity
        * granularity;
    ok = cuda_check (driver.mem_create (&handle, allocation->size, &prop, 0),
        "cuMemCreate", error);
  }
  if (ok) {
    allocation->handle = handle;
    ok = map_allocation (device, allocation, error);
    if (!ok)
      driver.mem_release (handle);
  }
  gst_cuda_context_pop (NULL);
  if (!ok)
    memset (allocation, 0, sizeof (*allocation));
  return ok;
}

/**
 * gst_cl_cuda_free_exportable:
 * @context: the context it was allocated on
 * @allocation: from gst_cl_cuda_alloc_exportable(), no longer used by any
 *   command of CUDA or of an API that imported it
 *
 * Unmaps and releases the allocation; imports of it keep the physical
 * memory until they are released too.
 */
void
gst_cl_cuda_free_exportable (GstCudaContext *context,
    GstClCudaAllocation *allocation)
{
  if (!allocation->size)
    return;
  if (!gst_cuda_context_push (context)) {
    GST_WARNING ("cannot make the CUDA context current: %" G_GSIZE_FORMAT
        " bytes of exportable CUDA memory are not freed", allocation->size);
    return;
  }
  driver.mem_unmap (allocation->ptr, allocation->size);
  driver.address_free (allocation->ptr, allocation->size);
  driver.mem_release (allocation->handle);
  gst_cuda_context_pop (NULL);
  memset (allocation, 0, sizeof (*allocation));
}

/**
 * gst_cl_cuda_export_fd:
 * @allocation: from gst_cl_cuda_alloc_exportable()
 * @error: the driver's failure
 *
 * Exports the allocation's physical memory (cuMemExportToShareableHandle()
 * with %CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR); each call makes a new
 * descriptor, the caller's to close or to give to an import.
 *
 * Returns: the file descriptor, -1 on error
 */
gint
gst_cl_cuda_export_fd (const GstClCudaAllocation *allocation, GError **error)
{
  int fd = -1;

  if (!cuda_check (driver.export_handle (&fd, allocation->handle,
              CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0),
          "cuMemExportToShareableHandle", error))
    return -1;
  return fd;
}

/**
 * gst_cl_cuda_copy:
 * @context: the CUDA context of the device memory
 * @dst_host: (nullable): host destination, or %NULL for @dst_device
 * @dst_device: device destination (a CUdeviceptr) when @dst_host is %NULL
 * @src_host: (nullable): host source, or %NULL for @src_device
 * @src_device: device source when @src_host is %NULL
 * @size: bytes
 * @error: the driver's failure
 *
 * Copies @size bytes between host and device memory, or within the
 * device, and returns once the copy is done: cuMemcpy2DAsync() of one row
 * on the legacy default stream, then that stream synchronized (a copy
 * within the device would otherwise return before it is done).
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_cuda_copy (GstCudaContext *context, gpointer dst_host,
    guint64 dst_device, gconstpointer src_host, guint64 src_device,
    gsize size, GError **error)
{
  CUDA_MEMCPY2D copy;
  gboolean ok;

  if (size == 0)
    return TRUE;
  memset (&copy, 0, sizeof (copy));
  copy.srcMemoryType = src_host ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
  copy.srcHost = src_host;
  copy.srcDevice = (CUdeviceptr) src_device;
  copy.srcPitch = size;
  copy.dstMemoryType = dst_host ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
  copy.dstHost = dst_host;
  copy.dstDevice = (CUdeviceptr) dst_device;
  copy.dstPitch = size;
  copy.WidthInBytes = size;
  copy.Height = 1;
  if (!push (context, error))
    return FALSE;
  ok = cuda_check (CuMemcpy2DAsync (&copy, NULL), "cuMemcpy2DAsync", error)
      && cuda_check (CuStreamSynchronize (NULL), "cuStreamSynchronize",
      error);
  gst_cuda_context_pop (NULL);
  return ok;
}
