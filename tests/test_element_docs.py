#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""That scripts/element-docs.py --check fails, naming the page, when a
page differs from what it makes: a line changed, a page missing, a page
too many; and passes on the pages it has just written.

Usage: test_element_docs.py SCRIPT --plugin-dir DIR --source-root ROOT

The pages are written into a temporary folder, not read from docs/: the
test element-docs checks those; this one that such a check can fail.
"""

import os
import subprocess
import sys
import tempfile


def run(script, args, out, check):
    """The script's exit status and output, on the pages in OUT."""
    done = subprocess.run(
        [sys.executable, script, *args, "--out", out] +
        (["--check"] if check else []),
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return done.returncode, done.stdout


def expect_failure(script, args, out, page, what, line=""):
    """--check exits 1, naming PAGE, and its diff has LINE."""
    status, output = run(script, args, out, True)
    named = os.path.join(out, page) in output
    print(f"{what}: exit {status}, {page} named: {named}")
    if status != 1 or not named or line not in output.split("\n"):
        print(output)
        sys.exit(f"FAIL: --check on {what} did not exit 1 naming {page}"
                 + (f" and showing {line!r}" if line else ""))


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main():
    script, args = sys.argv[1], sys.argv[2:]
    with tempfile.TemporaryDirectory() as out:
        status, output = run(script, args, out, False)
        if status != 0:
            sys.exit(f"FAIL: writing the pages: exit {status}\n{output}")
        status, output = run(script, args, out, True)
        if status != 0:
            sys.exit(f"FAIL: --check on the pages just written: exit "
                     f"{status}\n{output}")
        pages = sorted(n for n in os.listdir(out) if n != "README.md")
        page = os.path.join(out, pages[0])

        with open(page, encoding="utf-8") as f:
            text = f.read()
        # One line: the first default the page gives.
        changed = text.replace("- Default: ", "- Default: 0 or ", 1)
        line = next(a for a, b in zip(changed.split("\n"), text.split("\n"))
                    if a != b)
        write(page, changed)
        expect_failure(script, args, out, pages[0], "a line changed",
                       "-" + line)
        write(page, text)

        os.remove(page)
        expect_failure(script, args, out, pages[0], "a page missing")
        write(page, text)

        extra = "clnosuchelement.md"
        write(os.path.join(out, extra), text)
        expect_failure(script, args, out, extra, "a page too many")
        os.remove(os.path.join(out, extra))

        status, output = run(script, args, out, True)
        if status != 0:
            sys.exit(f"FAIL: --check after the pages were restored: exit "
                     f"{status}\n{output}")
    print("PASS")


if __name__ == "__main__":
    main()
