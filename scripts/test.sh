#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Set up (packages, vtest.avi, build), build and run the test suite, each
# step timed (scripts/ci-stage.sh); the last line says "N passed, N
# failed, N skipped". Exits non-zero on a failure.
#   scripts/test.sh           the quick run: every test, formats sampled
#                             one of each layout, a short fuzz, one video
#   scripts/test.sh --full    the thorough run CI makes: every format and
#                             size, the video checks, the 90 s fuzz, the
#                             Python tracker pipelines (the video through
#                             every format, suite 'slower', is
#                             scripts/ci-slow.sh's)
#   scripts/test.sh --stress N
#                             the quick run N times with every core kept
#                             busy by stress-ng (one CPU worker a core, at
#                             full load), then each test that failed at
#                             least once (scripts/stress-report.py)
#   ... --timeout-multiplier M
#                             meson test's timeouts, and the waits each test
#                             bounds itself (tests/timeout-multiplier.sh),
#                             M times as long: for a slower machine
# (tests/meson.build, "Two runs of the suites", says which test is where.)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
usage() {
  echo "usage: $0 [--full | --stress N] [--timeout-multiplier M]" >&2
  exit 2
}
runs=0 skip="--no-suite slow" multiplier=1
while [ $# -gt 0 ]; do
  case "$1" in
    --full) skip="--no-suite fast --no-suite slower" ;;
    --stress)
      runs=${2:-}
      case "$runs" in ""|*[!0-9]*|0) usage ;; esac
      shift ;;
    --timeout-multiplier)
      multiplier=${2:-}
      case "$multiplier" in ""|.|*[!0-9.]*|*.*.*) usage ;; esac
      shift ;;
    *) usage ;;
  esac
  shift
done
[ "$runs" -eq 0 ] || [ "$skip" = "--no-suite slow" ] || usage
stage="$root/scripts/ci-stage.sh"
"$stage" setup "$root/scripts/setup.sh"
echo "test: building (ninja)" >&2
"$stage" build ninja -C "$root/build"
if [ "$runs" -gt 0 ]; then
  logs=""
  stress-ng --cpu 0 --cpu-load 100 --timeout 0 --quiet &
  load=$!
  # SIGINT: stress-ng stops its workers and waits for them.
  trap 'kill -INT "$load" 2>/dev/null; wait "$load" 2>/dev/null' EXIT
  for run in $(seq 1 "$runs"); do
    echo "test: stress run $run of $runs, beside stress-ng --cpu 0 (meson test --no-suite slow)" >&2
    rm -f "$root/build/meson-logs/stress-$run.json"
    meson test -C "$root/build" --print-errorlogs --no-suite slow \
      --timeout-multiplier "$multiplier" --logbase "stress-$run" || true
    python3 "$root/scripts/tally.py" "$root/build/meson-logs/stress-$run.json"
    logs="$logs $root/build/meson-logs/stress-$run.json"
  done
  status=0
  # shellcheck disable=SC2086
  python3 "$root/scripts/stress-report.py" $logs || status=$?
  exit $status
fi
status=0
echo "test: running the tests (meson test $skip)" >&2
# shellcheck disable=SC2086
"$stage" tests meson test -C "$root/build" --print-errorlogs \
  $skip --timeout-multiplier "$multiplier" || status=$?
python3 "$root/scripts/tally.py" "$root/build/meson-logs/testlog.json"
exit $status
