/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Host blocks (clh-host-block.c): host memory a context's device reads
 * frames from without a host copy. What the elements see of them, through
 * clh-context.h: no OpenCL and no GStreamer types (the engine's view is
 * clh-context-private.h). */
#pragma once

#include "clh-error.h"
#include "clh-frame.h"

G_BEGIN_DECLS

/* The context a block belongs to (clh-context.h, which includes this
 * header, so that the elements see both through it). */
typedef struct _ClhContext ClhContext;
typedef struct _ClhHostBlock ClhHostBlock;

ClhHostBlock *clh_context_alloc_host (ClhContext *context, gsize size,
    GError **error);
void clh_host_block_free (ClhHostBlock *block);
guint8 *clh_host_block_get_data (const ClhHostBlock *block);
gsize clh_host_block_get_size (const ClhHostBlock *block);
ClhContext *clh_host_block_get_context (const ClhHostBlock *block);
gboolean clh_host_block_is_external (const ClhHostBlock *block);
gboolean clh_host_block_holds (const ClhHostBlock *block,
    const ClhFrame *frame, guint planes);

G_END_DECLS
