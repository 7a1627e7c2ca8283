/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One OpenCL device as several engines share it: the device, its
 * cl_context and the compiled kernels' program. Its host memory, which
 * the device reads without a host copy, is clh-host-block.h, and the
 * import of CUDA's device memory clh-external-memory.h, both included
 * here. What the elements see of it: no OpenCL and no GStreamer types (the
 * engine's view is clh-context-private.h). */
#pragma once

#include "clh-error.h"
#include "clh-external-memory.h"
#include "clh-host-block.h"

G_BEGIN_DECLS

/**
 * ClhProgramOrigin:
 * @CLH_PROGRAM_BUILT: compiled from source; there was no cache file (or
 *   the cache is off), and one was written if a cache directory is set
 * @CLH_PROGRAM_CACHED: created from a cached binary, nothing compiled
 * @CLH_PROGRAM_REBUILT: a cache file existed but was unreadable, corrupt or
 *   refused by the driver: compiled from source and the file rewritten
 *
 * Where a context's program came from.
 */
typedef enum {
  CLH_PROGRAM_BUILT,
  CLH_PROGRAM_CACHED,
  CLH_PROGRAM_REBUILT,
} ClhProgramOrigin;
ClhContext *clh_context_new (const gchar *device_spec, GError **error);
ClhContext *clh_context_new_full (const gchar *device_spec,
    const gchar *cache_dir, GError **error);
ClhContext *clh_context_ref (ClhContext *context);
void clh_context_unref (ClhContext *context);

gboolean clh_context_matches (const ClhContext *context,
    const gchar *device_spec);
const gchar *clh_context_get_device_name (const ClhContext *context);
gchar *clh_context_get_device_spec (const ClhContext *context);
void clh_context_add_user (ClhContext *context);
void clh_context_remove_user (ClhContext *context);
guint clh_context_get_n_users (const ClhContext *context);
gchar *clh_context_least_loaded_auto (const gchar *device_spec,
    ClhContext *const *contexts, guint n_contexts);
const gchar *clh_context_get_platform_name (const ClhContext *context);
gchar *clh_context_get_driver_version (const ClhContext *context);
ClhProgramOrigin clh_context_get_program_origin (const ClhContext *context);
gsize clh_context_get_alignment (const ClhContext *context);
gsize clh_context_get_max_host_block (const ClhContext *context);
gboolean clh_context_reads_host_in_place (const ClhContext *context);

/* The size of a device's UUID, in bytes (cl_khr_device_uuid's
 * CL_UUID_SIZE_KHR, CUDA's CUuuid). */
#define CLH_DEVICE_UUID_SIZE 16

gboolean clh_context_get_device_uuid (const ClhContext *context,
    guint8 uuid[CLH_DEVICE_UUID_SIZE]);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ClhContext, clh_context_unref)

G_END_DECLS
