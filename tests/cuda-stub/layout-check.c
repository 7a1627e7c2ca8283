/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The project's CUDA declarations (cuda-stub/) against the CUDA
 * toolkit's, where one is installed: every size, offset and value of
 * layout.h the same under both. Prints each difference; exit status 1 if
 * there is one. */
#include <stdio.h>
#include <string.h>

#include "layout.h"

int
main (void)
{
  size_t i, differ = 0;

  for (i = 0; i < clh_cuda_layout_n; i++) {
    const ClhCudaLayoutEntry *ours = &clh_cuda_layout_stub[i];
    const ClhCudaLayoutEntry *theirs = &clh_cuda_layout_toolkit[i];

    if (strcmp (ours->what, theirs->what) || ours->value != theirs->value) {
      printf ("differs: %s = %llu here, %llu in the toolkit's cuda.h\n",
          ours->what, ours->value, theirs->value);
      differ++;
    }
  }
  printf ("%zu of %zu sizes, offsets and values as in the toolkit's "
      "cuda.h\n", clh_cuda_layout_n - differ, clh_cuda_layout_n);
  return differ ? 1 : 0;
}
