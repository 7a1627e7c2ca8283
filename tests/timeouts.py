# SPDX-License-Identifier: LGPL-2.1-or-later
"""The waits a test bounds itself, scaled as meson test's own timeouts:
by the multiplier tests/timeout-multiplier.sh puts in the environment
(meson test -t N; 1 when the test runs alone). A wait for a state is
bounded so that a test that would hang fails instead; the bound is never
the thing tested, so a slower machine only needs a larger multiplier."""
import os


def multiplier():
    text = os.environ.get("CLH_TIMEOUT_MULTIPLIER", "1")
    try:
        value = float(text)
    except ValueError:
        raise SystemExit(f"CLH_TIMEOUT_MULTIPLIER={text!r} is not a number")
    if value < 0:
        raise SystemExit(f"CLH_TIMEOUT_MULTIPLIER={text!r} is negative")
    return value or 1000.0


MULTIPLIER = multiplier()


def seconds(base):
    """A wait of `base` seconds on an idle machine, scaled."""
    return base * MULTIPLIER
