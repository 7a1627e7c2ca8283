/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "clh-test-counting.h"

/* A test, the engine it counts with, and the variable its checks read to
 * know who should count. */
typedef struct {
  ClhEngine **engine;
  ClhCounting *counting;
  GTestFunc plain;
  GTestDataFunc func;
  gconstpointer data;
} HostTest;

static void
set_counting (const HostTest *test, ClhCounting counting)
{
  *test->counting = counting;
  clh_engine_set_counting (*test->engine, counting);
}

static void
on_host (gconstpointer data)
{
  const HostTest *test = data;
  const ClhCounting before = *test->counting;

  set_counting (test, CLH_COUNTING_HOST);
  if (test->plain)
    test->plain ();
  else
    test->func (test->data);
  set_counting (test, before);
}

/**
 * clh_test_add_on_host:
 * @path: the test's path
 * @engine: where the test file keeps the engine its tests count with
 * @counting: where it keeps who should count, which its checks read
 * @plain: (nullable): a test without data, or
 * @func: (nullable): a test with @data
 * @data: @func's data
 *
 * Adds @plain, or @func with @data, run with *@engine and *@counting set
 * to %CLH_COUNTING_HOST, and set back after. What it adds lives as long as
 * the program.
 */
void
clh_test_add_on_host (const gchar *path, ClhEngine **engine,
    ClhCounting *counting, GTestFunc plain, GTestDataFunc func,
    gconstpointer data)
{
  static GPtrArray *tests;
  HostTest *test = g_new (HostTest, 1);

  if (!tests)
    tests = g_ptr_array_new_with_free_func (g_free);
  test->engine = engine;
  test->counting = counting;
  test->plain = plain;
  test->func = func;
  test->data = data;
  g_ptr_array_add (tests, test);
  g_test_add_data_func (path, test, on_host);
}
