#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""scripts/check-layers.py can fail: on a copy of the sources, each rule
broken once (an include across families, base/ including a family, a
private engine header, an unknown folder, a file without its family's
prefix, a name of the meta library's namespace, a call across families)
makes it exit 1 naming what broke it; the copy as it is passes.

Usage: test_check_layers.py CHECK_LAYERS.py SOURCE_ROOT   (TAP on stdout)
"""

import os
import shutil
import subprocess
import sys
import tempfile

TREES = ("model", "kernels", "engine", "reference", "gst")


def copy_tree(root, dest):
    for top in TREES:
        shutil.copytree(os.path.join(root, top), os.path.join(dest, top),
                        ignore=shutil.ignore_patterns("*.cl", "*.py",
                                                      "meson.build"))


def append(dest, rel, text):
    with open(os.path.join(dest, rel), "a", encoding="utf-8") as f:
        f.write(text)


def write(dest, rel, text):
    os.makedirs(os.path.dirname(os.path.join(dest, rel)), exist_ok=True)
    with open(os.path.join(dest, rel), "w", encoding="utf-8") as f:
        f.write(text)


# (what is broken, how, a phrase the error must hold)
CASES = [
    ("a family includes another family's header",
     lambda d: append(d, "gst/track/gstcltrackfilter.c",
                      '#include "histogram/gstclhistogramregions.h"\n'),
     "gst/track/gstcltrackfilter.c (track) includes "
     "gst/histogram/gstclhistogramregions.h (histogram)"),
    ("base/ includes a family's header",
     lambda d: append(d, "gst/base/gstclbaseutils.c",
                      '#include "scope/gstclscopebase.h"\n'),
     "gst/base/gstclbaseutils.c (base) includes gst/scope/gstclscopebase.h"),
    ("an element includes a private engine header",
     lambda d: append(d, "gst/marks/gstclexposuremarks.c",
                      '#include "clh-engine-dispatch.h"\n'),
     "includes \"clh-engine-dispatch.h\", which is neither"),
    ("a folder that is no family",
     lambda d: write(d, "gst/extra/gstclextra.c", "/* nothing */\n"),
     "gst/extra/gstclextra.c: extra/ is no family"),
    ("a file without its family's prefix",
     lambda d: write(d, "gst/scope/gstclwave.c", "/* nothing */\n"),
     "gst/scope/gstclwave.c: a file of scope/ starts with \"gstclscope\""),
    ("a private function in the meta library's namespace",
     lambda d: append(d, "gst/overlay/gstcloverlaydraw.c",
                      "\nvoid\ngst_histogram_draw_thing (void)\n{\n}\n"),
     "defines gst_histogram_draw_thing, a name of the meta library's"),
    ("a private type in the meta library's namespace",
     lambda d: append(d, "gst/overlay/gstcloverlaydraw.h",
                      "\ntypedef struct {\n  int x;\n} GstHistogramThing;\n"),
     "defines GstHistogramThing, a name of the meta library's"),
    ("base/ calls a family's function",
     lambda d: append(d, "gst/base/gstclbaseutils.c",
                      "\nstatic void\ncaller (void)\n{\n"
                      "  gst_cl_histogram_parse_zones (0, 0, 0, 0);\n}\n"),
     "gst/base/gstclbaseutils.c (base) calls gst_cl_histogram_parse_zones"),
]


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
        copy_tree(root, clean)
        status, out = run(script, clean)
        ok = status == 0
        failed += not ok
        print("%s 1 - the sources as they are pass" % ("ok" if ok else
                                                       "not ok"))
        if not ok:
            print("# " + out.replace("\n", "\n# "))
        for i, (what, breaks, phrase) in enumerate(CASES, start=2):
            dest = os.path.join(tmp, "case%d" % i)
            copy_tree(root, dest)
            breaks(dest)
            status, out = run(script, dest)
            ok = status == 1 and phrase in out
            failed += not ok
            print("%s %d - %s: exit %d" % ("ok" if ok else "not ok", i, what,
                                           status))
            if not ok:
                print("# wanted exit 1 and: " + phrase)
                print("# " + out.replace("\n", "\n# "))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
