/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A sampling profiler for one run, LD_PRELOADed: SIGPROF every 1 ms of the
 * process's CPU time, each sample the running thread's name and stack;
 * at exit, the functions most often on top (self) and anywhere on the
 * stack (inclusive), overall and by thread name. Scratch tool. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/time.h>

#define DEPTH 24
#define MAX_SAMPLES 400000
typedef struct { char name[16]; int n; void *pc[DEPTH]; } Sample;
static Sample *samples;
static volatile int n_samples;

static void on_prof (int sig, siginfo_t *si, void *uc)
{
  int i = __atomic_fetch_add (&n_samples, 1, __ATOMIC_RELAXED);
  if (i >= MAX_SAMPLES) return;
  prctl (PR_GET_NAME, samples[i].name);
  samples[i].n = backtrace (samples[i].pc, DEPTH);
}

__attribute__((constructor)) static void start (void)
{
  void *warm[4];
  struct sigaction sa = { 0 };
  struct itimerval it = { { 0, 1000 }, { 0, 1000 } };
  if (!getenv ("SPROF_OUT")) return;
  samples = calloc (MAX_SAMPLES, sizeof (Sample));
  backtrace (warm, 4);
  sa.sa_sigaction = on_prof;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigaction (SIGPROF, &sa, NULL);
  setitimer (ITIMER_PROF, &it, NULL);
}

typedef struct { char key[200]; long count; } Entry;
static Entry *table; static int n_table, cap_table;
static void add (const char *key, long c)
{
  int i;
  for (i = 0; i < n_table; i++)
    if (!strcmp (table[i].key, key)) { table[i].count += c; return; }
  if (n_table == cap_table) { cap_table = cap_table ? 2 * cap_table : 1024; table = realloc (table, cap_table * sizeof (Entry)); }
  snprintf (table[n_table].key, sizeof table[n_table].key, "%s", key);
  table[n_table++].count = c;
}
static int by_count (const void *a, const void *b) { long d = ((Entry *) b)->count - ((Entry *) a)->count; return d > 0 ? 1 : d < 0 ? -1 : 0; }
static void sym (void *pc, char *out, size_t size)
{
  Dl_info info;
  if (dladdr (pc, &info) && info.dli_fname) {
    const char *base = strrchr (info.dli_fname, '/');
    base = base ? base + 1 : info.dli_fname;
    if (info.dli_sname && (char *) pc - (char *) info.dli_saddr < 65536)
      snprintf (out, size, "%s:%s", base, info.dli_sname);
    else
      snprintf (out, size, "%s+0x%lx", base, (unsigned long) ((char *) pc - (char *) info.dli_fbase));
  } else snprintf (out, size, "%p", pc);
}
static void dump (FILE *f, const char *title, int mode)
{
  int i, j, k; char s[180], key[200];
  n_table = 0;
  for (i = 0; i < n_samples && i < MAX_SAMPLES; i++) {
    Sample *x = &samples[i];
    /* frames 0-1: the handler and the signal trampoline */
    if (mode == 0) { if (x->n > 2) { sym (x->pc[2], s, sizeof s); add (s, 1); } }
    else if (mode == 1) { if (x->n > 2) { sym (x->pc[2], s, sizeof s); snprintf (key, sizeof key, "%-15s %s", x->name, s); add (key, 1); } }
    else if (mode == 2) { add (x->name, 1); }
    else {
      char seen[DEPTH][180]; int ns = 0;
      for (j = 2; j < x->n; j++) { sym (x->pc[j], s, sizeof s);
        for (k = 0; k < ns && strcmp (seen[k], s); k++) ;
        if (k == ns) { strcpy (seen[ns++], s); add (s, 1); } }
    }
  }
  qsort (table, n_table, sizeof (Entry), by_count);
  fprintf (f, "== %s (%d samples)\n", title, n_samples);
  for (i = 0; i < n_table && i < (mode == 2 ? 30 : 60); i++)
    fprintf (f, "%7ld %5.1f%%  %s\n", table[i].count, 100.0 * table[i].count / n_samples, table[i].key);
}
__attribute__((destructor)) static void stop (void)
{
  struct itimerval off = { { 0, 0 }, { 0, 0 } };
  FILE *f;
  if (!samples) return;
  setitimer (ITIMER_PROF, &off, NULL);
  f = fopen (getenv ("SPROF_OUT"), "w");
  if (!f) return;
  dump (f, "by thread", 2); dump (f, "self", 0); dump (f, "self by thread", 1); dump (f, "inclusive", 3);
  fclose (f);
}
