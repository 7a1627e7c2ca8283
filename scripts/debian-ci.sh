#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The Debian jobs of CI, each in a fresh chroot (scripts/debian-chroot.sh),
# as root:
#   quick-start  Debian 13 only: the README's Quick start block, run
#                verbatim (it installs, builds and runs the quick suite)
#   packages     the Debian packages built (scripts/build-packages.sh) and
#                checked by lintian; without their build-time tests
#                (DEB_BUILD_OPTIONS=nocheck), a subset of the suite that
#                CI already ran from this tree on the same release: the
#                plain suite on Debian 12, the Quick start's on Debian 13
#   install      those packages installed with apt on a machine that never
#                built clhistogram (tests/package-test.sh)
#   scripts/debian-ci.sh [RELEASE...]      (default: bookworm trixie)
# CLH_DEBIAN_JOBS picks jobs (default: "quick-start packages install").
# Logs, packages and the results go to build-debian/RELEASE/; results.json
# holds one line per job in the format of meson's testlog.json (the quick
# suite's own testlog.json beside it), for scripts/tally.py.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
releases=${*:-bookworm trixie}
out=$root/build-debian
work=${CLH_CHROOT_DIR:-/var/tmp/clhistogram/chroot}
export CLH_CHROOT_DIR="$work"
jobs=${CLH_DEBIAN_JOBS:-quick-start packages install}
status=0

wanted() { case " $jobs " in *" $1 "*) return 0 ;; esac; return 1; }

# A job as a stage of CI (scripts/ci-stage.sh: its wall time) and as a
# result in results.json.
run_job() {  # RELEASE JOB COMMAND...
  release=$1 job=$2
  shift 2
  start=$(date +%s)
  rc=0
  "$root/scripts/ci-stage.sh" --log "$out/$release/$job.log" \
    "debian-$release-$job" "$@" || rc=$?
  result=OK
  [ "$rc" -eq 0 ] || { result=FAIL; status=1; }
  printf '{"name": "debian-%s-%s", "result": "%s", "duration": %s}\n' \
    "$release" "$job" "$result" $(($(date +%s) - start)) \
    >> "$out/$release/results.json"
  return $rc
}

# The first sh block under "## Quick start", as the README shows it.
quick_start() {
  awk '/^## Quick start/ {q = 1} q && $0 == "```sh" {on = 1; next}
       on && /^```/ {exit} on' "$root/README.md"
}

for release in $releases; do
  rm -rf "${out:?}/$release"
  mkdir -p "$out/$release/debs"
  if [ "$release" = trixie ] && wanted quick-start; then
    quick_start > "$out/$release/quick-start.sh"
    run_job "$release" quick-start "$root/scripts/debian-chroot.sh" "$release" \
      "$release-quick-start" sh -ex -c "$(cat "$out/$release/quick-start.sh")" || true
    cp "$work/$release-quick-start/src/build/meson-logs/testlog.json" \
      "$out/$release/testlog.json" 2>/dev/null || true
  fi
  wanted packages || continue
  if run_job "$release" packages "$root/scripts/debian-chroot.sh" "$release" \
      "$release-packages" env DEB_BUILD_OPTIONS=nocheck \
      scripts/build-packages.sh /src/debs; then
    cp "$work/$release-packages/src/debs/"* "$out/$release/debs/"
    wanted install && run_job "$release" install env CLH_CHROOT_COPY="$out/$release/debs" \
      "$root/scripts/debian-chroot.sh" "$release" "$release-install" \
      tests/package-test.sh /src/debs || true
  fi
  # The chroots are large (GStreamer, LLVM): kept only for a failure.
  [ $status -ne 0 ] || "$root/scripts/debian-chroot.sh" --remove \
    "$release-quick-start" "$release-packages" "$release-install"
done
exit $status
