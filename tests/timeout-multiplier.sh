#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Runs a test (its command line: "$@") with meson test's timeout
# multiplier in its environment, so that the waits a test bounds itself
# scale as meson's own timeouts do: CLH_TIMEOUT_MULTIPLIER for the
# project's tests (tests/timeouts.py, tests/clh-test-timeout.c) and
# CK_TIMEOUT_MULTIPLIER for gst-check's tcase_set_timeout() (check's own
# variable). The default test setup (tests/meson.build) runs every test
# through it.
#
# meson test passes its --timeout-multiplier to no test, so it is read
# from the command line of the meson test that started this one (its
# parent): "-t N", "-tN", "--timeout-multiplier N" or "=N", or an
# abbreviation argparse accepts. Without one, an inherited
# CLH_TIMEOUT_MULTIPLIER, else 1. meson's 0 (no timeout) becomes 1000:
# a test's own waits stay bounded, by far more than any machine needs.
set -eu
# A test's preloaded library (the OpenCL fault injector) is the test's:
# tr and awk run without it, and the test gets it back.
preload=${LD_PRELOAD-} preload_set=${LD_PRELOAD+set}
unset LD_PRELOAD
from_meson() {
  [ -r "/proc/$PPID/cmdline" ] || return 0
  tr '\0' '\n' <"/proc/$PPID/cmdline" | awk -v long=--timeout-multiplier '
    /(^|\/)meson(\.py)?$/ || /mesonbuild\.mesonmain$/ { meson = 1; next }
    meson && !command { command = $0; next }
    command != "test" { next }
    take { value = $0; take = 0; next }
    $0 == "-t" { take = 1; next }
    /^-t./ { value = substr($0, 3); next }
    {
      n = index($0, "=")
      name = n ? substr($0, 1, n - 1) : $0
      if (length(name) >= 4 && index(long, name) == 1) {
        if (n) value = substr($0, n + 1); else take = 1
      }
    }
    END { print value }'
}
multiplier=$(from_meson)
[ -n "$multiplier" ] || multiplier=${CLH_TIMEOUT_MULTIPLIER:-1}
case "$multiplier" in
  ""|.|*[!0-9.]*|*.*.*)
    echo "timeout-multiplier.sh: \"$multiplier\" is not a timeout multiplier" \
      "(a number such as 1, 2 or 0.5)" >&2
    exit 2 ;;
esac
if awk -v m="$multiplier" 'BEGIN { exit !(m + 0 == 0) }'; then
  multiplier=1000
fi
CLH_TIMEOUT_MULTIPLIER=$multiplier CK_TIMEOUT_MULTIPLIER=$multiplier
export CLH_TIMEOUT_MULTIPLIER CK_TIMEOUT_MULTIPLIER
if [ -n "$preload_set" ]; then
  LD_PRELOAD=$preload
  export LD_PRELOAD
fi
exec "$@"
