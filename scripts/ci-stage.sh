#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Runs one stage of CI (or of a script CI runs) and says how long it took.
#   scripts/ci-stage.sh [--log FILE] NAME COMMAND [ARG...]
# The command's output goes where this script's goes, or to FILE. Then a
# line "stage NAME: OK in 3 min 25 s" (FAIL, with the command's exit
# status, when it fails); and where CLH_STAGE_LOG names a file, a JSON
# line {"name", "result", "start" (s since the epoch), "duration" (s),
# "status", "depth"} appended to it, which scripts/tally.py --stages
# reads into a table. A stage run inside another (a script CI runs
# timing its own parts) has a depth one more than its parent's, so that
# the table indents it and counts the whole run's time once. Exits with
# the command's status.
set -u
log=""
if [ "${1:-}" = --log ]; then
  log=${2:?"usage: $0 [--log FILE] NAME COMMAND [ARG...]"}
  shift 2
fi
[ $# -ge 2 ] || { echo "usage: $0 [--log FILE] NAME COMMAND [ARG...]" >&2; exit 2; }
name=$1
shift
case "$name" in
  *[!A-Za-z0-9._-]*) echo "ci-stage: NAME '$name': letters, digits, . _ - only" >&2; exit 2 ;;
esac
depth=${CLH_STAGE_DEPTH:-0}
case "$depth" in ""|*[!0-9]*) depth=0 ;; esac
start=$(date +%s)
status=0
CLH_STAGE_DEPTH=$((depth + 1))
export CLH_STAGE_DEPTH
if [ -n "$log" ]; then
  "$@" > "$log" 2>&1 || status=$?
else
  "$@" || status=$?
fi
seconds=$(($(date +%s) - start))
result=OK
[ "$status" -eq 0 ] || result=FAIL
if [ -n "${CLH_STAGE_LOG:-}" ]; then
  printf '{"name": "%s", "result": "%s", "start": %d, "duration": %d, "status": %d, "depth": %d}\n' \
    "$name" "$result" "$start" "$seconds" "$status" "$depth" >> "$CLH_STAGE_LOG"
fi
printf 'stage %s: %s in %d min %02d s%s%s\n' "$name" "$result" \
  $((seconds / 60)) $((seconds % 60)) \
  "$([ "$status" -eq 0 ] || echo " (exit status $status)")" \
  "$([ -z "$log" ] || echo "; log: $log")"
exit "$status"
