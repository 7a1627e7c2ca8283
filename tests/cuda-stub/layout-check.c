/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The project's CUDA declarations (cuda-stub/) against the CUDA toolkit's,
 * where one is installed: every size, offset and value of layout.h the
 * same under both. First the comparison is shown to fail on a list with
 * one value changed; then it prints each difference of the real lists.
 * Exit status 1 if there is one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"

/* The entries where @ours and @theirs differ, printed if @say. */
static size_t
differences (const ClhCudaLayoutEntry *ours,
    const ClhCudaLayoutEntry *theirs, size_t n, int say)
{
  size_t i, differ = 0;

  for (i = 0; i < n; i++) {
    if (strcmp (ours[i].what, theirs[i].what) == 0
        && ours[i].value == theirs[i].value)
      continue;
    if (say)
      printf ("differs: %s = %llu here, %llu in the toolkit's cuda.h\n",
          ours[i].what, ours[i].value, theirs[i].value);
    differ++;
  }
  return differ;
}

int
main (void)
{
  const size_t n = clh_cuda_layout_n;
  ClhCudaLayoutEntry *changed = malloc (n * sizeof (*changed));
  size_t differ;

  /* A wrong offset in the middle of the list must be caught. */
  memcpy (changed, clh_cuda_layout_stub, n * sizeof (*changed));
  changed[n / 2].value++;
  if (differences (changed, clh_cuda_layout_stub, n, 0) != 1) {
    printf ("the comparison misses a changed value\n");
    free (changed);
    return 1;
  }
  free (changed);
  differ = differences (clh_cuda_layout_stub, clh_cuda_layout_toolkit, n, 1);
  printf ("%zu of %zu sizes, offsets and values as in the toolkit's "
      "cuda.h\n", n - differ, n);
  return differ ? 1 : 0;
}
