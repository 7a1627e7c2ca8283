/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clh_host_copy(): every byte of one to four ranges of odd sizes, from
 * nothing to several chunks each, copied alone and with helper threads
 * (which this project's 2-CPU machines would not get otherwise), and from
 * several threads at once sharing the helpers. */
#include <string.h>

#include "clh-host-copy.h"

static const gsize sizes[] = {
  0, 1, 7, 256 * 1024 - 1, 256 * 1024, 256 * 1024 + 1, 1024 * 1024 + 13,
  5 * 1024 * 1024 + 3,
};

/* Copies @n ranges of the sizes from @first on, and checks them. */
static void
check_copy (GRand *rand, guint n, guint first)
{
  guint8 *dst[CLH_HOST_COPY_MAX], *src[CLH_HOST_COPY_MAX];
  guint8 *to[CLH_HOST_COPY_MAX];
  const guint8 *from[CLH_HOST_COPY_MAX];
  gsize size[CLH_HOST_COPY_MAX];
  guint i;
  gsize b;

  for (i = 0; i < n; i++) {
    size[i] = sizes[(first + i * 3) % G_N_ELEMENTS (sizes)];
    /* Copied one byte into its allocations, with one byte more on each
     * side, which must stay as it was. */
    src[i] = g_malloc (size[i] + 2);
    dst[i] = g_malloc (size[i] + 2);
    for (b = 0; b < size[i] + 2; b++) {
      src[i][b] = (guint8) g_rand_int (rand);
      dst[i][b] = (guint8) ~src[i][b];
    }
    to[i] = dst[i] + 1;
    from[i] = src[i] + 1;
  }
  clh_host_copy (n, to, from, size);
  for (i = 0; i < n; i++) {
    g_assert_cmpuint (dst[i][0], ==, (guint8) ~src[i][0]);
    g_assert_true (memcmp (dst[i] + 1, src[i] + 1, size[i]) == 0);
    g_assert_cmpuint (dst[i][size[i] + 1], ==, (guint8) ~src[i][size[i] + 1]);
    g_free (src[i]);
    g_free (dst[i]);
  }
}

static void
check_all (guint32 seed)
{
  GRand *rand = g_rand_new_with_seed (seed);
  guint n, first;

  for (n = 1; n <= CLH_HOST_COPY_MAX; n++)
    for (first = 0; first < G_N_ELEMENTS (sizes); first++)
      check_copy (rand, n, first);
  g_rand_free (rand);
}

static void
test_alone (void)
{
  clh_host_copy_set_helpers (0);
  g_assert_false (clh_host_copy_has_helpers ());
  check_all (1);
}

static void
test_helpers (void)
{
  clh_host_copy_set_helpers (3);
  g_assert_true (clh_host_copy_has_helpers ());
  check_all (2);
}

/* As many helpers as may be set: four large ranges then take the most
 * chunks a copy can have. */
static void
test_most_helpers (void)
{
  clh_host_copy_set_helpers (8);
  g_assert_true (clh_host_copy_has_helpers ());
  check_all (3);
}

static gpointer
copier (gpointer seed)
{
  check_all (GPOINTER_TO_UINT (seed));
  return NULL;
}

static void
test_threads (void)
{
  GThread *threads[4];
  guint i;

  clh_host_copy_set_helpers (2);
  for (i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("copier", copier, GUINT_TO_POINTER (10 + i));
  for (i = 0; i < G_N_ELEMENTS (threads); i++)
    g_thread_join (threads[i]);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/host-copy/alone", test_alone);
  g_test_add_func ("/host-copy/helpers", test_helpers);
  g_test_add_func ("/host-copy/most-helpers", test_most_helpers);
  g_test_add_func ("/host-copy/threads", test_threads);
  return g_test_run ();
}
