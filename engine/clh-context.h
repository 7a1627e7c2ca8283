/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One OpenCL device as several engines share it: the device, its
 * cl_context, the compiled kernels' program, and host memory the device
 * reads without a host copy. No GStreamer types. */
#pragma once

#include "clh-cl.h"
#include "clh-device.h"
#include "clh-program-cache.h"

G_BEGIN_DECLS

typedef struct _ClhContext ClhContext;
typedef struct _ClhHostBlock ClhHostBlock;

ClhContext *clh_context_new (const gchar *device_spec, GError **error);
ClhContext *clh_context_new_full (const gchar *device_spec,
    const gchar *cache_dir, GError **error);
ClhContext *clh_context_ref (ClhContext *context);
void clh_context_unref (ClhContext *context);

gboolean clh_context_matches (const ClhContext *context,
    const gchar *device_spec);
const ClhDeviceInfo *clh_context_get_device (const ClhContext *context);
const gchar *clh_context_get_device_name (const ClhContext *context);
gchar *clh_context_get_driver_version (const ClhContext *context);
ClhProgramOrigin clh_context_get_program_origin (const ClhContext *context);
gsize clh_context_get_alignment (const ClhContext *context);
gsize clh_context_get_max_host_block (const ClhContext *context);

ClhHostBlock *clh_context_alloc_host (ClhContext *context, gsize size,
    GError **error);
void clh_host_block_free (ClhHostBlock *block);
guint8 *clh_host_block_get_data (const ClhHostBlock *block);
gsize clh_host_block_get_size (const ClhHostBlock *block);

/* For the engine. */
cl_context clh_context_get_cl_context (const ClhContext *context);
cl_program clh_context_get_program (const ClhContext *context);
cl_mem clh_host_block_get_mem (const ClhHostBlock *block);
gboolean clh_host_block_is_in_place (const ClhHostBlock *block);
ClhContext *clh_host_block_get_context (const ClhHostBlock *block);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ClhContext, clh_context_unref)

G_END_DECLS
