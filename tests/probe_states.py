# SPDX-License-Identifier: LGPL-2.1-or-later
"""States of a running probe that a test waits for instead of a delay:
read from /proc, so that the probe needs no hook, and waited for by
polling, bounded by a timeout scaled as meson test's (tests/timeouts.py),
so that a loaded machine only takes longer."""
import os
import signal
import time

from timeouts import seconds

# The bound on a wait for a state of the probe (a stop included: the probe
# waits 5 s for the stream to end after a first signal, 1 s for a line in
# progress).
PROMPT_S = seconds(15)


def wait_for(proc, holds, what, timeout=PROMPT_S):
    """Waits until holds(pid) of the started probe: a state, not a delay,
    which a loaded machine may take any time to reach."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the probe ended ({proc.returncode}) "
                                 f"before {what}")
        if holds(proc.pid):
            return
        time.sleep(0.002)
    raise AssertionError(f"not {what} within {timeout} s")


def signals_taken(pid):
    """The probe takes SIGINT and SIGTERM itself: its first act blocks
    them for its signal thread, which /proc/PID/status shows in SigBlk. A
    signal sent before would end it by the default action (status -2),
    before there is a probe to say anything."""
    wanted = (1 << (signal.SIGINT - 1)) | (1 << (signal.SIGTERM - 1))
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        blocked = next((int(line.split()[1], 16) for line in f
                        if line.startswith("SigBlk:")), 0)
    return blocked & wanted == wanted


def file_open(path):
    """A state of a probe's start: its source has opened @path."""
    path = os.path.realpath(path)

    def holds(pid):
        folder = f"/proc/{pid}/fd"
        for fd in os.listdir(folder):
            try:
                if os.readlink(os.path.join(folder, fd)) == path:
                    return True
            except OSError:
                pass
        return False
    return holds


def writing_blocked(pid):
    """A state: a thread of the probe waits in a write to a pipe that is
    full (the kernel names where a task sleeps in /proc's wchan:
    pipe_write, anon_pipe_write since Linux 6.12)."""
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/wchan", encoding="ascii") as f:
                if f.read().endswith("pipe_write"):
                    return True
        except OSError:
            pass
    return False


def signal_pending(sig):
    """A state of the probe: @sig sent to it and not yet taken by its
    signal thread (ShdPnd, the signals pending for the whole process).
    Two signals sent while the first is pending are one."""
    def holds(pid):
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            pending = next((int(line.split()[1], 16) for line in f
                            if line.startswith("ShdPnd:")), 0)
        return bool(pending & (1 << (sig - 1)))
    return holds
