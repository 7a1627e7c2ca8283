#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The tests under AddressSanitizer, LeakSanitizer and
# UndefinedBehaviorSanitizer, in build-asan/; then the concurrency tests
# under ThreadSanitizer, in build-tsan/, against GLib and GStreamer built
# with -fsanitize=thread by scripts/tsan-deps.sh (run first if they are
# not built). Any report fails its test. Run after scripts/setup.sh (the
# packages). Each part is a stage (scripts/ci-stage.sh: its wall time).
# The last line says "N passed, N failed, N skipped" over all.
#   scripts/sanitize.sh [asan|asan-thorough|tsan]...   (default: asan tsan)
# asan: suite 'asan', what CI runs: every error path, the fuzzer, the
#   engines' quick variants, the exposure element, and the probe against
#   hostile peers (its Python tests run the instrumented probe).
# asan-thorough: every test but the Python ones (the interpreter is not
#   built with the sanitizers, and loads the plugin in-process) and suite
#   'long', the thorough variants rather than the quick ones, and the
#   fault sweep; scripts/ci-slow.sh runs it, over an hour on 2 cores.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
supp="$root/tests/sanitizers"
jobs=${*:-asan tsan}
asan_configured=no
stage="$root/scripts/ci-stage.sh"
status=0
logs=""

configure() {
  dir=$1; shift
  if [ -d "$dir" ]; then
    meson setup --reconfigure "$dir" "$@" > /dev/null
  else
    meson setup "$dir" "$@" > /dev/null
  fi
}

# PoCL's LLVM replaces the thread's alternate signal stack, which ASan
# would otherwise use; a fault-injection shim preloaded comes before the
# ASan runtime in the link order, on purpose.
# Full stacks on every allocation: GLib and GStreamer are built without
# frame pointers, and suppressions match on the callers.
# intercept_tls_get_addr=0: GCC 12's runtime takes a dynamic TLS block
# whose address is 16 bytes past a page boundary for one with glibc 2.19's
# header, and LeakSanitizer's tracer then dies scanning a range read from
# before it ("Tracer caught signal 11"; google/sanitizers, "Detecting GLIBC
# version (DTLS SIGSEGV)"). PoCL's kernel libraries land there by chance.
# Without the interceptor, dynamic TLS blocks are still scanned: glibc
# allocates them with malloc, reachable from the thread's DTV.
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:use_sigaltstack=0:verify_asan_link_order=0:detect_stack_use_after_return=0:fast_unwind_on_malloc=0:malloc_context_size=15:intercept_tls_get_addr=0"
export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$supp/ubsan.supp"
# history_size=7: the longest access history, so that both stacks of a
# report are restored and the suppressions can match them.
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:history_size=7:suppressions=$supp/tsan.supp"
# GSlice's per-thread magazines hand memory between threads in ways TSan
# cannot follow.
export G_SLICE=always-malloc
# The registry scanner is a separate, unsanitized program: scan in-process.
export GST_REGISTRY_FORK=no

for job in $jobs; do
  case $job in
    asan|asan-thorough)
      if [ $asan_configured = no ]; then
        configure "$root/build-asan" -Db_sanitize=address,undefined \
          -Db_lundef=false -Dintrospection=disabled \
          -Dc_args=-fno-sanitize-recover=undefined
        "$stage" asan-build ninja -C "$root/build-asan" || status=1
        asan_configured=yes
      fi
      if [ "$job" = asan ]; then
        "$stage" asan-tests meson test -C "$root/build-asan" \
          --print-errorlogs --suite asan --timeout-multiplier 4 \
          --logbase asan || status=1
        logs="$logs $root/build-asan/meson-logs/asan.json"
      else
        # The fault sweep's N up to 2 per function here (6 in the plain
        # suite): its time.
        CLFAULT_SWEEP_MAX_N=2 "$stage" asan-thorough-tests meson test \
          -C "$root/build-asan" --print-errorlogs --no-suite python \
          --no-suite long --no-suite fast --timeout-multiplier 4 \
          --logbase asan-thorough || status=1
        logs="$logs $root/build-asan/meson-logs/asan-thorough.json"
      fi
      ;;
    tsan)
      # The distribution's GLib and GStreamer hide their locking from
      # ThreadSanitizer (scripts/tsan-deps.sh says why): build ours against
      # instrumented ones, and load only their plugins.
      deps="$root/build-tsan-deps/prefix"
      [ -f "$deps/.complete" ] || "$stage" tsan-deps "$root/scripts/tsan-deps.sh"
      (
        export PKG_CONFIG_PATH="$deps/lib/pkgconfig"
        export LD_LIBRARY_PATH="$deps/lib"
        export GST_PLUGIN_SYSTEM_PATH_1_0="$deps/lib/gstreamer-1.0"
        export PATH="$deps/bin:$PATH"
        configure "$root/build-tsan" -Db_sanitize=thread -Db_lundef=false \
          -Dintrospection=disabled
        "$stage" tsan-build ninja -C "$root/build-tsan"
        "$stage" tsan-tests meson test -C "$root/build-tsan" --print-errorlogs \
          --suite threads --timeout-multiplier 4
      ) || status=1
      logs="$logs $root/build-tsan/meson-logs/testlog.json"
      ;;
    *) echo "sanitize.sh: no job '$job' (asan, asan-thorough, tsan)" >&2; exit 2 ;;
  esac
done
# shellcheck disable=SC2086
python3 "$root/scripts/tally.py" $logs
exit $status
