#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""tests/timeout-multiplier.sh: the multiplier of the meson test that runs
a test, in each spelling argparse takes, reaches the test as
CLH_TIMEOUT_MULTIPLIER and CK_TIMEOUT_MULTIPLIER; without one, an inherited
value, else 1; meson's 0 (no timeout) is 1000; a value that is not a number
is refused. The parent is a stand-in named meson, as meson test is the
parent of every test it runs.

    test_timeout_multiplier.py TIMEOUT-MULTIPLIER.SH
"""
import os
import subprocess
import sys
import tempfile
import unittest

WRAPPER = None


def run_under(args, env=None):
    """What the wrapper gives a test run by `meson ARGS`: the two
    variables, or the wrapper's exit status and stderr."""
    with tempfile.TemporaryDirectory() as folder:
        meson = os.path.join(folder, "meson")
        with open(meson, "w", encoding="utf-8") as f:
            # Not exec: the stand-in stays the wrapper's parent.
            f.write('#!/bin/sh\n"$WRAPPER" sh -c '
                    '\'echo "$CLH_TIMEOUT_MULTIPLIER $CK_TIMEOUT_MULTIPLIER"\''
                    '\n')
        os.chmod(meson, 0o755)
        environ = {k: v for k, v in os.environ.items()
                   if k not in ("CLH_TIMEOUT_MULTIPLIER",
                                "CK_TIMEOUT_MULTIPLIER")}
        environ.update(env or {}, WRAPPER=WRAPPER)
        done = subprocess.run([meson, *args], capture_output=True, text=True,
                              env=environ, timeout=60)
    if done.returncode:
        return done.returncode, done.stderr
    return done.stdout.split()


class Multiplier(unittest.TestCase):
    def test_spellings(self):
        for args, want in ((["test", "-t", "3"], "3"),
                           (["test", "-t2.5"], "2.5"),
                           (["test", "-C", "build", "--timeout-multiplier",
                             "4", "--print-errorlogs"], "4"),
                           (["test", "--timeout-multiplier=5"], "5"),
                           (["test", "--timeout-m", "6"], "6"),
                           (["test", "-t", "2", "-t", "7"], "7"),
                           (["test", "-t", "0"], "1000")):
            with self.subTest(args=args):
                self.assertEqual(run_under(args), [want, want])

    def test_without_one(self):
        self.assertEqual(run_under(["test", "--suite", "fast"]), ["1", "1"])
        self.assertEqual(run_under(["test"], {"CLH_TIMEOUT_MULTIPLIER": "8"}),
                         ["8", "8"])
        # meson's own wins over one inherited.
        self.assertEqual(run_under(["test", "-t", "3"],
                                   {"CLH_TIMEOUT_MULTIPLIER": "8"}),
                         ["3", "3"])
        # Another command of meson's: not a test run.
        self.assertEqual(run_under(["compile", "-t", "3"]), ["1", "1"])

    def test_refused(self):
        for args in (["test", "-t", "lots"], ["test", "-t", "1.2.3"],
                     ["test", "--timeout-multiplier=-2"]):
            with self.subTest(args=args):
                status, stderr = run_under(args)
                self.assertEqual(status, 2)
                self.assertIn("is not a timeout multiplier", stderr)


if __name__ == "__main__":
    WRAPPER = os.path.abspath(sys.argv[1])
    unittest.main(argv=sys.argv[:1], verbosity=2)
