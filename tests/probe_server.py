# SPDX-License-Identifier: LGPL-2.1-or-later
"""What the tests that run clhistogram-probe --metrics share: its
environment, and the URL it says once its server listens."""
import os
import re
import time

from timeouts import seconds


def probe_env():
    return dict(os.environ, GST_DEBUG="0")


def metrics_url(process, err, limit=60):
    """The URL of "clhistogram-probe: metrics on URL" in err() (the
    probe's stderr so far), polled until the probe says it, exits, or
    seconds(limit) go by (then None)."""
    deadline = time.monotonic() + seconds(limit)
    while time.monotonic() < deadline:
        m = re.search(r"^clhistogram-probe: metrics on (\S+)$", err(), re.M)
        if m:
            return m.group(1)
        if process.poll() is not None:
            return None
        time.sleep(0.02)
    return None
