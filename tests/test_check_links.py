#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""scripts/check-links.py can fail: on a copy of the README and docs/, a
link to a missing file and a link to a missing heading each make it exit 1
naming the link; the copy as it is passes.

Usage: test_check_links.py CHECK_LINKS.py SOURCE_ROOT   (TAP on stdout)
"""

import os
import shutil
import subprocess
import sys
import tempfile

CASES = [
    ("a link to a missing file", "[gone](docs/no-such-page.md)",
     "docs/no-such-page.md"),
    ("a link to a missing heading", "[gone](docs/design.md#no-such-heading)",
     "docs/design.md#no-such-heading"),
]


def mirror(root, dest, keep):
    """@dest as @root's folder: links to its entries but @keep, which the
    caller copies."""
    os.makedirs(dest, exist_ok=True)
    for name in os.listdir(root):
        if name not in keep and name != ".git":
            os.symlink(os.path.join(root, name), os.path.join(dest, name))


def copy(root, dest):
    """The documents copied, every other file of the tree linked, so that
    links to them still resolve."""
    root = os.path.abspath(root)
    mirror(root, dest, ("docs", "README.md", "bench"))
    mirror(os.path.join(root, "bench"), os.path.join(dest, "bench"),
           ("results",))
    mirror(os.path.join(root, "bench", "results"),
           os.path.join(dest, "bench", "results"), ("README.md",))
    shutil.copytree(os.path.join(root, "docs"), os.path.join(dest, "docs"))
    for rel in ("README.md", os.path.join("bench", "results", "README.md")):
        shutil.copy(os.path.join(root, rel), os.path.join(dest, rel))


def run(script, root):
    proc = subprocess.run([sys.executable, script, root], capture_output=True,
                          text=True, check=False)
    return proc.returncode, proc.stdout + proc.stderr


def main():
    script, root = sys.argv[1], sys.argv[2]
    print("1..%d" % (len(CASES) + 1))
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        clean = os.path.join(tmp, "clean")
        copy(root, clean)
        status, out = run(script, clean)
        failed += status != 0
        print("%s 1 - the documents as they are pass"
              % ("ok" if status == 0 else "not ok"))
        if status != 0:
            print("# " + out.replace("\n", "\n# "))
        readme = os.path.join(clean, "README.md")
        with open(readme, encoding="utf-8") as f:
            text = f.read()
        for i, (what, link, phrase) in enumerate(CASES, start=2):
            with open(readme, "w", encoding="utf-8") as f:
                f.write(text + "\nSee " + link + ".\n")
            status, out = run(script, clean)
            ok = status == 1 and phrase in out and "README.md" in out
            failed += not ok
            print("%s %d - %s: exit %d" % ("ok" if ok else "not ok", i, what,
                                           status))
            if not ok:
                print("# " + out.replace("\n", "\n# "))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
