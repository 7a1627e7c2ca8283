#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The CI jobs that do not fit .ci/run's 50 minutes on 2 cores, for a
# release or a change to the build, the packaging or memory handling
# (docs/reliability.md, "CI and its time"):
#   quick-start     the README's Quick start block, run verbatim in a fresh
#                   Debian 13 chroot (it installs, builds and runs the
#                   quick suite): about 12 min
#   video           suite 'slower': vtest.avi through every format the
#                   element counts, checked frame by frame: about 7 min
#   container       the probe's container image (deploy/Containerfile)
#                   built with podman from Debian 12 packages built here
#                   in a fresh chroot, and run on vtest.avi (suite
#                   'container', tests/test_container.py): about 10 min
#   asan-thorough   every test but the Python ones and suite 'long' under
#                   AddressSanitizer, the thorough variants and the fault
#                   sweep among them: over an hour
# Run as root after scripts/setup.sh; each job is a stage
# (scripts/ci-stage.sh), and the last line says "N passed, N failed,
# N skipped" over them all.
#   scripts/ci-slow.sh
set -u
cd "$(dirname "$0")/.." || exit 1
mkdir -p build-ci
CLH_STAGE_LOG=$PWD/build-ci/slow-stages.json
export CLH_STAGE_LOG
rm -f "$CLH_STAGE_LOG"
stage=scripts/ci-stage.sh
status=0
CLH_DEBIAN_JOBS=quick-start $stage quick-start \
  ./scripts/debian-ci.sh trixie || status=1
$stage setup ./scripts/setup.sh || status=1
$stage build ninja -C build || status=1
$stage video meson test -C build --print-errorlogs --suite slower \
  --no-suite container --logbase slower || status=1
CLH_DEBIAN_JOBS=packages $stage container-packages \
  ./scripts/debian-ci.sh bookworm || status=1
CLH_CONTAINER_DEBS=$PWD/build-debian/bookworm/debs $stage container \
  meson test -C build --print-errorlogs --suite container \
  --logbase container || status=1
$stage asan-thorough ./scripts/sanitize.sh asan-thorough || status=1
python3 scripts/tally.py --stages "$CLH_STAGE_LOG" \
  build-debian/trixie/testlog.json build-debian/trixie/results.json \
  build/meson-logs/slower.json \
  build-debian/bookworm/results.json build/meson-logs/container.json \
  build-asan/meson-logs/asan-thorough.json
exit $status
