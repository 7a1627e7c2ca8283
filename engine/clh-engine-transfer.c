/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* How a frame reaches the device: read where it lies in host memory the
 * device can address, or copied in bands of rows into the slot's staging
 * buffer (from pinned memory by DMA, or through a host copy into pinned
 * memory), band by band behind the counting of the one before. */
#include "clh-engine-transfer.h"
#include "clh-host-copy.h"

#include <string.h>

/* Unmapped memory between two mappings spans at least one page: planes
 * whose gaps are shorter lie in one readable span. */
#define PAGE_SIZE 4096
/* A band's height is a multiple of this, so that the rows of vertically
 * subsampled planes (up to 4:1) never straddle two bands. */
#define BAND_ROW_MULTIPLE 4
/* Planes start at multiples of this in the staging buffer. */
#define PLANE_ALIGN 256
/* Frames in ordinary memory up to this size are copied into pinned memory
 * on the host before the device copies them (CLH_TRANSFER_AUTO on a
 * GPU); larger ones go from where they are, in bands, so that a frame does
 * not pin its own size of memory per frame in flight. */
#define STAGE_LIMIT (64 << 20)

/* The slot's device buffer for a band of @size bytes. */
static gboolean
ensure_staging (const ClhQueues *q, ClhSlot *slot, gsize size, GError **error)
{
  cl_int ret;

  if (slot->staging && slot->staging_size >= size)
    return TRUE;

  g_clear_pointer (&slot->staging, clReleaseMemObject);
  slot->staging_size = 0;
  slot->staging = clCreateBuffer (clh_context_get_cl_context (q->ctx),
      CL_MEM_READ_ONLY, size, NULL, &ret);
  if (!clh_cl_check (ret, "clCreateBuffer (frame)", error))
    return FALSE;
  slot->staging_size = size;
  return TRUE;
}

/* Planes the request reads, as a bit mask. */
static guint
planes_used (const ClhFrame *frame, const ClhHistogramSpec *spec)
{
  guint used = 0, i;

  for (i = 0; i < spec->n_components; i++)
    used |= 1u << frame->components[spec->components[i]].plane;
  return used;
}

/* Rows [@y0, @y0 + @rows) of the frame, each used plane's rows of them
 * placed one after the other as in the staging buffer. */
static void
band_layout (const ClhFrame *frame, guint used, guint y0, guint rows,
    ClhBand *band)
{
  guint p;

  band->y0 = y0;
  band->rows = rows;
  band->size = 0;
  band->mem = NULL;
  for (p = 0; p < frame->n_planes; p++) {
    const guint s = clh_frame_plane_h_sub (frame, p);
    const guint end = MIN (clh_frame_plane_rows (frame, p),
        (y0 + rows + (1u << s) - 1) >> s);

    band->row0[p] = y0 >> s;
    band->n_rows[p] = (used & (1u << p)) ? end - band->row0[p] : 0;
    band->base[p] = band->size;
    band->size += (frame->planes[p].stride * band->n_rows[p] + PLANE_ALIGN - 1)
        / PLANE_ALIGN * PLANE_ALIGN;
  }
}

/* Frame rows per band: as many as fit the staging limit, a multiple of
 * BAND_ROW_MULTIPLE unless the whole frame fits. */
static guint
band_rows_for (const ClhTransferPlan *plan, const ClhFrame *frame, guint used)
{
  ClhBand whole, four;
  guint rows;

  band_layout (frame, used, 0, frame->height, &whole);
  if (whole.size <= plan->staging_limit)
    return frame->height;
  band_layout (frame, used, 0, BAND_ROW_MULTIPLE, &four);
  rows = (guint) (plan->staging_limit / four.size) * BAND_ROW_MULTIPLE;
  return CLAMP (rows, BAND_ROW_MULTIPLE, frame->height);
}

/* Copies each used plane's rows of @band, as stored, into the slot's
 * staging buffer; the last row stops at the last byte a component reads.
 * With an upload queue, the copies wait for @after (the previous band's
 * counting, NULL: nothing) and the band's first launch waits for them. */
static gboolean
upload_band (ClhQueues *q, const ClhFrame *frame, const ClhBand *band,
    cl_event after, GError **error)
{
  cl_command_queue queue = q->upload_queue ? q->upload_queue :
      q->queue;
  cl_event *keep = q->upload_queue ? &q->upload_done : NULL;
  guint p;

  for (p = 0; p < frame->n_planes; p++) {
    const ClhPlane *plane = &frame->planes[p];
    cl_event ev;
    cl_int ret;
    gsize bytes;

    if (band->n_rows[p] == 0)
      continue;
    bytes = plane->stride * (band->n_rows[p] - 1)
        + clh_frame_plane_row_bytes (frame, p);
    ret = clEnqueueWriteBuffer (queue, band->mem, CL_FALSE, band->base[p],
        bytes, plane->data + plane->stride * band->row0[p], after ? 1 : 0,
        after ? &after : NULL, clh_queues_want_event (q, &ev, keep));
    clh_queues_note_event (q, CLH_PHASE_UPLOAD, ev, keep);
    if (!clh_cl_check (ret, "clEnqueueWriteBuffer", error))
      return FALSE;
    after = NULL;
  }
  if (q->upload_queue)
    clFlush (q->upload_queue);
  return TRUE;
}

/* The host block holding every used plane: the caller's, if it is of this
 * engine's context, or one of the engine's own; NULL if none. */
static ClhHostBlock *
find_host_block (const ClhTransferPlan *plan, const ClhQueues *q,
    const ClhFrame *frame, guint used, const ClhHostBlock *given)
{
  guint i;

  if (given && clh_host_block_get_context (given) == q->ctx
      && clh_host_block_holds (given, frame, used))
    return (ClhHostBlock *) given;
  for (i = 0; i < plan->host_blocks->len; i++)
    if (clh_host_block_holds (plan->host_blocks->pdata[i], frame, used))
      return plan->host_blocks->pdata[i];
  return NULL;
}

/* The whole frame as one band read where it lies, in @mem whose first byte
 * is at @origin in host memory; FALSE if a plane lies beyond the kernels'
 * 32-bit offsets. */
static gboolean
in_place_band (const ClhFrame *frame, guint used, cl_mem mem,
    const guint8 *origin, ClhBand *band)
{
  guint p;

  band_layout (frame, used, 0, frame->height, band);
  band->mem = mem;
  for (p = 0; p < frame->n_planes; p++) {
    const gsize offset = (used & (1u << p)) ?
        (gsize) (frame->planes[p].data - origin) : 0;

    if (offset + clh_frame_plane_span (frame, p) > G_MAXUINT32)
      return FALSE;
    band->base[p] = offset;
  }
  return TRUE;
}

static gboolean
block_band (const ClhFrame *frame, guint used, const ClhHostBlock *block,
    ClhBand *band)
{
  return in_place_band (frame, used, clh_host_block_get_mem (block),
      clh_host_block_get_data (block), band);
}

/* On a device that reads host memory in place, a buffer over the host
 * memory the used planes lie in (CL_MEM_USE_HOST_PTR); NULL if planes lie a
 * page or more apart, since such a gap may not be mapped. */
static cl_mem
wrap_host_planes (const ClhQueues *q, const ClhFrame *frame, guint used,
    const guint8 **origin)
{
  const guint8 *start[CLH_MAX_PLANES] = { NULL }, *end[CLH_MAX_PLANES] = {
    NULL }, *reach;
  guint n = 0, i, j;
  cl_mem mem;
  cl_int ret;

  /* The used planes' extents, by address. */
  for (i = 0; i < frame->n_planes; i++) {
    if (!(used & (1u << i)))
      continue;
    for (j = n++; j > 0 && start[j - 1] > frame->planes[i].data; j--) {
      start[j] = start[j - 1];
      end[j] = end[j - 1];
    }
    start[j] = frame->planes[i].data;
    end[j] = start[j] + clh_frame_plane_span (frame, i);
  }
  reach = end[0];
  for (i = 1; i < n; i++) {
    if (start[i] > reach && (gsize) (start[i] - reach) >= PAGE_SIZE)
      return NULL;
    reach = MAX (reach, end[i]);
  }
  mem = clCreateBuffer (clh_context_get_cl_context (q->ctx),
      CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, reach - start[0],
      (void *) start[0], &ret);
  if (ret != CL_SUCCESS)
    return NULL;
  *origin = start[0];
  return mem;
}

/* Copies the used planes of @frame into the slot's stage block, over a
 * few threads (clh-host-copy.c), and points @staged at them there. The
 * block is free: the slot's previous frame was collected, so its commands
 * are done. */
static gboolean
stage_frame (const ClhQueues *q, ClhSlot *slot, const ClhFrame *frame,
    guint used, ClhFrame *staged, GError **error)
{
  ClhBand whole;
  guint8 *data;
  gsize size;
  guint p;

  band_layout (frame, used, 0, frame->height, &whole);
  /* Sized to the frame: a block lent to the device is mapped whole. */
  size = slot->stage ? clh_host_block_get_size (slot->stage) : 0;
  if (size < whole.size || size > 2 * whole.size) {
    g_clear_pointer (&slot->stage, clh_host_block_free);
    slot->stage = clh_context_alloc_host (q->ctx, whole.size, error);
    if (!slot->stage)
      return FALSE;
  }
  data = clh_host_block_get_data (slot->stage);
  *staged = *frame;
  for (p = 0; p < frame->n_planes; p++)
    if (used & (1u << p))
      staged->planes[p].data = data + whole.base[p];
  clh_host_copy_planes (frame, used, data, whole.base);
  return TRUE;
}

/* Whether a frame in no host block goes through the slot's stage block:
 * always with CLH_TRANSFER_STAGE; by default on a device that copies
 * frames, when the copy has helper threads and the frame is at most
 * STAGE_LIMIT bytes. The device's DMA from pinned memory runs several
 * times faster than its copy from ordinary memory, so the frame is ready
 * sooner when a few threads copy it there first (measured: see
 * docs/performance.md, "Why the defaults are what they are"). */
static gboolean
stages (const ClhTransferPlan *plan, const ClhQueues *q,
    const ClhFrame *frame, guint used)
{
  ClhBand whole;

  if (plan->transfer == CLH_TRANSFER_STAGE)
    return TRUE;
  if (plan->transfer != CLH_TRANSFER_AUTO
      || clh_context_reads_host_in_place (q->ctx)
      || !clh_host_copy_has_helpers ())
    return FALSE;
  band_layout (frame, used, 0, frame->height, &whole);
  return whole.size <= STAGE_LIMIT
      && whole.size <= clh_context_get_max_host_block (q->ctx);
}

/* Hands @block, one of the engine's own, to the device for this frame's
 * kernels to read across the bus. */
static gboolean
lend_host_block (ClhQueues *q, ClhHostBlock *block, GError **error)
{
  cl_event ev = NULL;

  if (!clh_host_block_lend (block, q->queue,
          clh_queues_want_event (q, &ev, NULL), error))
    return FALSE;
  clh_queues_note_event (q, CLH_PHASE_UPLOAD, ev, NULL);
  q->slot->lent = block;
  return TRUE;
}

/* Maps @slot's lent block back for the host, at the same address (the
 * caller's frame pointers point into it). @blocking: wait for it. */
static gboolean
take_back_host_block (ClhQueues *q, ClhSlot *slot, gboolean blocking,
    GError **error)
{
  ClhHostBlock *block = slot->lent;
  cl_event ev = NULL;
  gboolean ok;

  if (!block)
    return TRUE;
  slot->lent = NULL;
  ok = clh_host_block_take_back (block, q->queue, blocking,
      clh_queues_want_event (q, &ev, NULL), error);
  clh_queues_note_event (q, CLH_PHASE_READBACK, ev, NULL);
  return ok;
}

/* Forgets what the slot's frame borrowed, waiting for the device to give
 * back a lent block. */
void
clh_transfer_give_back (ClhQueues *q, ClhSlot *slot)
{
  take_back_host_block (q, slot, TRUE, NULL);
  g_clear_pointer (&slot->wrapped, clReleaseMemObject);
}

/* The whole frame as one band the kernels read where it lies, when the
 * device, the transfer mode and the frame's memory allow it. */
static gboolean
in_place_source (const ClhTransferPlan *plan, ClhQueues *q,
    const ClhFrame *frame, guint used, ClhHostBlock *block, ClhBand *band,
    GError **error)
{
  const guint8 *origin = NULL;

  if (plan->transfer == CLH_TRANSFER_COPY)
    return FALSE;
  if (clh_context_reads_host_in_place (q->ctx)) {
    if (block)
      return block_band (frame, used, block, band);
    q->slot->wrapped = wrap_host_planes (q, frame, used, &origin);
    return q->slot->wrapped
        && in_place_band (frame, used, q->slot->wrapped, origin, band);
  }
  /* Across the bus: only the engine's own blocks, which no one else
   * writes while they are lent. */
  return plan->transfer == CLH_TRANSFER_IN_PLACE && block
      && (block == q->slot->stage
      || g_ptr_array_find (plan->host_blocks, block, NULL))
      && block_band (frame, used, block, band)
      && lend_host_block (q, block, error);
}

/* Has the next band's upload wait for this band's counting. */
static gboolean
band_counted (ClhQueues *q, cl_event *counted, GError **error)
{
  g_clear_pointer (counted, clReleaseEvent);
  if (!q->upload_queue)
    return TRUE;
  return clh_cl_check (clEnqueueMarkerWithWaitList (q->queue, 0, NULL,
          counted), "clEnqueueMarkerWithWaitList", error);
}

/* Uploads the frame band by band into the slot's staging buffer and counts
 * each band. */
static gboolean
count_bands (const ClhTransferPlan *plan, ClhDispatch *d, ClhQueues *q,
    const ClhFrame *frame, const ClhHistogramSpec *spec, guint used,
    GError **error)
{
  const guint band_rows = band_rows_for (plan, frame, used);
  cl_event counted = NULL;
  gboolean ok = TRUE;
  ClhBand band;
  guint y;

  band_layout (frame, used, 0, band_rows, &band);
  if (!ensure_staging (q, q->slot, band.size, error))
    return FALSE;
  for (y = 0; ok && y < frame->height; y += band_rows) {
    band_layout (frame, used, y, MIN (band_rows, frame->height - y), &band);
    band.mem = q->slot->staging;
    ok = upload_band (q, frame, &band, counted, error)
        && clh_dispatch_count_band (d, q, frame, spec, &band, error)
        && (y + band_rows >= frame->height
        || band_counted (q, &counted, error));
  }
  g_clear_pointer (&counted, clReleaseEvent);
  return ok;
}

/* Counts a frame in device memory another API exported
 * (clh_context_import_opaque_fd()) where it lies: the only way, since the
 * host cannot read it. The launches sit between the block's acquire and
 * release, as cl_khr_external_memory asks. */
static gboolean
count_external (ClhDispatch *d, ClhQueues *q, const ClhFrame *frame,
    const ClhHistogramSpec *spec, guint used, const ClhHostBlock *block,
    GError **error)
{
  ClhBand band;

  if (!block_band (frame, used, block, &band)) {
    g_set_error (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID,
        "a plane lies beyond 4 GiB into its device memory block");
    return FALSE;
  }
  if (!clh_host_block_acquire (block, q->queue, error))
    return FALSE;
  if (!clh_dispatch_count_band (d, q, frame, spec, &band, error)) {
    /* The acquire is ended whatever was enqueued after it. */
    clh_host_block_release (block, q->queue, NULL);
    return FALSE;
  }
  return clh_host_block_release (block, q->queue, error);
}

/* Counts @frame into the slot's counters: where it lies if it can be read
 * there, else copied in bands; from a host copy in the slot's stage block
 * first if stages() says so and the frame is in no block. */
gboolean
clh_transfer_count_frame (const ClhTransferPlan *plan, ClhDispatch *d,
    ClhQueues *q, const ClhFrame *frame, const ClhHistogramSpec *spec,
    const ClhHostBlock *given, GError **error)
{
  const guint used = planes_used (frame, spec);
  ClhHostBlock *block = find_host_block (plan, q, frame, used, given);
  const ClhFrame *source = frame;
  ClhFrame staged;
  ClhBand band;
  GError *why = NULL;

  if (!block && stages (plan, q, frame, used)) {
    if (!stage_frame (q, q->slot, frame, used, &staged, error))
      return FALSE;
    source = &staged;
    block = q->slot->stage;
  }
  if (block && clh_host_block_is_external (block))
    return count_external (d, q, frame, spec, used, block, error);
  if (in_place_source (plan, q, source, used, block, &band, &why))
    return clh_dispatch_count_band (d, q, source, spec, &band, error)
        && take_back_host_block (q, q->slot, FALSE, error);
  if (why) {
    g_propagate_error (error, why);
    return FALSE;
  }
  return count_bands (plan, d, q, source, spec, used, error);
}

/* Describes @frame's upload and 8-bit counting for the device's batcher
 * (clh-batch.c): its used planes copied as one band, as count_bands()
 * copies a frame that fits one; from the device memory @block, if the
 * frame lies in imported device memory (a copy on the device costs less
 * than the launch and readback it saves). FALSE if a frame in host memory
 * would be read where it lies, or the frame takes more than one band, or
 * its counting cannot be batched (clh_dispatch_batch_runs()). */
gboolean
clh_transfer_batch_frame (const ClhTransferPlan *plan, ClhDispatch *d,
    const ClhQueues *q, const ClhFrame *frame, const ClhHistogramSpec *spec,
    const ClhHostBlock *block, ClhBatchFrame *f)
{
  const guint used = planes_used (frame, spec);
  ClhBand band;
  guint p;

  /* A frame in imported device memory is copied on the device. */
  f->device = block && clh_host_block_is_external (block) ? block : NULL;
  if (!f->device && (plan->transfer == CLH_TRANSFER_IN_PLACE
          || (plan->transfer != CLH_TRANSFER_COPY
              && clh_context_reads_host_in_place (q->ctx))))
    return FALSE;
  band_layout (frame, used, 0, frame->height, &band);
  if (band.size > plan->staging_limit)
    return FALSE;
  f->n_uploads = 0;
  for (p = 0; p < frame->n_planes; p++) {
    if (band.n_rows[p] == 0)
      continue;
    f->upload_src[f->n_uploads] = frame->planes[p].data;
    f->device_offset[f->n_uploads] = f->device ? (gsize)
        (frame->planes[p].data - clh_host_block_get_data (f->device)) : 0;
    f->upload_offset[f->n_uploads] = band.base[p];
    f->upload_size[f->n_uploads++] = frame->planes[p].stride
        * (band.n_rows[p] - 1) + clh_frame_plane_row_bytes (frame, p);
  }
  f->staging_size = band.size;
  return clh_dispatch_batch_runs (d, q, frame, spec, &band, f);
}

/* Stages @frame into @slot's stage block as clh_transfer_count_frame() would,
 * on the calling thread: the submission thread then only queues the copy
 * from pinned memory. @block: (inout): the caller's block, then the stage
 * block if the frame was staged into @staged. */
gboolean
clh_transfer_prestage (const ClhTransferPlan *plan, const ClhQueues *q,
    ClhSlot *slot, const ClhFrame *frame,
    const ClhHistogramSpec *spec, const ClhHostBlock **block,
    ClhFrame *staged, GError **error)
{
  const guint used = planes_used (frame, spec);

  if (find_host_block (plan, q, frame, used, *block)
      || !stages (plan, q, frame, used))
    return TRUE;
  if (!stage_frame (q, slot, frame, used, staged, error))
    return FALSE;
  *block = slot->stage;
  return TRUE;
}
