/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * clhistogram kernels (OpenCL C 1.2).
 *
 * Every kernel privatizes the histogram per work-group: local memory holds
 * n_copies replicated sub-histograms of n_counters 32-bit counters each, and
 * work-item i counts into copy (i % n_copies). Replication spreads a frame
 * of one value over several addresses instead of serializing the whole
 * work-group on one counter; each copy is padded by one counter (copy_stride
 * = n_counters + 1) so that bin b of consecutive copies lies in consecutive
 * local-memory banks. Counters are 32-bit: a frame has at most 2^28 samples
 * per channel, so no counter can wrap (the 8-bit per-work-item counters of
 * the tutorials this grew from wrap on 256 equal samples).
 *
 * Once its pixels are counted, a work-group sums its copies and adds each
 * non-zero bin to the global histogram with one global atomic, so the
 * device merges all partial histograms in the same launch. The host zeroes
 * the global histogram before the first launch of a frame.
 *
 * The source is uploaded into a tightly packed buffer (row pitch = width *
 * pixel bytes), so kernels see a flat run of n_pixels pixels.
 */

/* Sample v (0..255) goes to bin v * bins / 256. */
#define BIN_OF(v, bins) (((v) * (bins)) >> 8)

/* Byte at bit offset 'shift' of a 32-bit word; the host turns byte offsets
 * into shifts for the device's endianness. */
#define SAMPLE(word, shift) (((word) >> (shift)) & 0xffu)

static void
zero_sub_histograms (local uint *sub, uint n)
{
  for (uint i = get_local_id (0); i < n; i += get_local_size (0))
    sub[i] = 0;
  barrier (CLK_LOCAL_MEM_FENCE);
}

static void
merge_sub_histograms (local const uint *sub, uint n_copies, uint n_counters,
    global uint *hist)
{
  const uint copy_stride = n_counters + 1;

  barrier (CLK_LOCAL_MEM_FENCE);
  for (uint i = get_local_id (0); i < n_counters; i += get_local_size (0)) {
    uint sum = 0;
    for (uint r = 0; r < n_copies; r++)
      sum += sub[r * copy_stride + i];
    if (sum != 0)
      atomic_add (&hist[i], sum);
  }
}

static local uint *
my_copy (local uint *sub, uint n_copies, uint n_counters)
{
  return sub + (get_local_id (0) % n_copies) * (n_counters + 1);
}

/* One 8-bit sample per pixel (GRAY8, a Y plane): four pixels per load. */
kernel void
histogram_gray8 (global const uint *src, uint n_pixels, uint bins,
    uint n_copies, local uint *sub, global uint *hist)
{
  const uint n_words = n_pixels / 4;
  local uint *mine = my_copy (sub, n_copies, bins);

  zero_sub_histograms (sub, n_copies * (bins + 1));

  for (uint w = get_global_id (0); w < n_words; w += get_global_size (0)) {
    const uint v = src[w];
    atomic_inc (&mine[BIN_OF (v & 0xffu, bins)]);
    atomic_inc (&mine[BIN_OF ((v >> 8) & 0xffu, bins)]);
    atomic_inc (&mine[BIN_OF ((v >> 16) & 0xffu, bins)]);
    atomic_inc (&mine[BIN_OF (v >> 24, bins)]);
  }

  /* The last n_pixels % 4 pixels, one byte each. */
  global const uchar *bytes = (global const uchar *) src;
  for (uint t = n_words * 4 + get_global_id (0); t < n_pixels;
      t += get_global_size (0))
    atomic_inc (&mine[BIN_OF ((uint) bytes[t], bins)]);

  merge_sub_histograms (sub, n_copies, bins, hist);
}

/* Four 8-bit samples per pixel (RGBA and its byte orders): one histogram per
 * channel, n_channels (1..4) of them, channel c taken at bit shift
 * shifts[c] and counted into hist[c * bins ...]. */
kernel void
histogram_packed32 (global const uint *src, uint n_pixels, uint bins,
    uint n_channels, uint4 shifts, uint n_copies, local uint *sub,
    global uint *hist)
{
  const uint n_counters = n_channels * bins;
  local uint *mine = my_copy (sub, n_copies, n_counters);

  zero_sub_histograms (sub, n_copies * (n_counters + 1));

  for (uint i = get_global_id (0); i < n_pixels; i += get_global_size (0)) {
    const uint p = src[i];
    atomic_inc (&mine[BIN_OF (SAMPLE (p, shifts.s0), bins)]);
    if (n_channels > 1)
      atomic_inc (&mine[bins + BIN_OF (SAMPLE (p, shifts.s1), bins)]);
    if (n_channels > 2)
      atomic_inc (&mine[2 * bins + BIN_OF (SAMPLE (p, shifts.s2), bins)]);
    if (n_channels > 3)
      atomic_inc (&mine[3 * bins + BIN_OF (SAMPLE (p, shifts.s3), bins)]);
  }

  merge_sub_histograms (sub, n_copies, n_counters, hist);
}

/* Four 8-bit samples per pixel, one histogram of BT.601 luma with OpenCV 4's
 * RGB->GRAY fixed-point rounding; R, G, B at shifts s0, s1, s2. */
kernel void
histogram_packed32_luma (global const uint *src, uint n_pixels, uint bins,
    uint4 shifts, uint n_copies, local uint *sub, global uint *hist)
{
  local uint *mine = my_copy (sub, n_copies, bins);

  zero_sub_histograms (sub, n_copies * (bins + 1));

  for (uint i = get_global_id (0); i < n_pixels; i += get_global_size (0)) {
    const uint p = src[i];
    const uint luma = (9798u * SAMPLE (p, shifts.s0)
        + 19235u * SAMPLE (p, shifts.s1)
        + 3735u * SAMPLE (p, shifts.s2) + 16384u) >> 15;
    atomic_inc (&mine[BIN_OF (luma, bins)]);
  }

  merge_sub_histograms (sub, n_copies, bins, hist);
}
