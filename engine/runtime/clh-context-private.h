/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The OpenCL objects of a context and of its host blocks, for the
 * engine. */
#pragma once

#include "clh-cl.h"
#include "clh-context.h"
#include "clh-device.h"
#include "clh-submitter.h"

G_BEGIN_DECLS

/* clh-context.c */
const ClhDeviceInfo *clh_context_get_device (const ClhContext *context);
cl_context clh_context_get_cl_context (const ClhContext *context);
cl_program clh_context_get_program (const ClhContext *context);
gboolean clh_context_is_little_endian (const ClhContext *context);
ClhSubmitter *clh_context_get_submitter (ClhContext *context);
gboolean clh_context_use_thread (ClhContext *context,
    gconstpointer submitter, ClhSubmission submission, gint64 *shared_until);
cl_command_queue clh_context_get_shared_queue (ClhContext *context,
    guint which, GError **error);
guint8 *clh_context_pin (ClhContext *context, cl_mem_flags access,
    gsize size, cl_mem *mem, GError **error);
void clh_context_unpin (ClhContext *context, cl_mem mem, guint8 *data);

/* clh-host-block.c */
cl_mem clh_host_block_get_mem (const ClhHostBlock *block);
gboolean clh_host_block_lend (ClhHostBlock *block, cl_command_queue queue,
    cl_event *event, GError **error);
gboolean clh_host_block_take_back (ClhHostBlock *block,
    cl_command_queue queue, gboolean blocking, cl_event *event,
    GError **error);

/* clh-external-memory.c */
gboolean clh_host_block_acquire (const ClhHostBlock *block,
    cl_command_queue queue, GError **error);
gboolean clh_host_block_release (const ClhHostBlock *block,
    cl_command_queue queue, GError **error);

G_END_DECLS
