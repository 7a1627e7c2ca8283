#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Embed an OpenCL C source file in a C file as one string constant, so that the
plugin carries its kernels and looks up no file at run time.

A line `#include "NAME"` is replaced by the file NAME beside the source (the
driver compiles from a string and has no include path), and #line markers
keep the driver's build log pointing at the lines of kernels/*.cl and their
headers.

usage: embed.py INPUT.cl OUTPUT.c SYMBOL
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"\s*$')


def expand(path, shown, seen):
    """The lines of @path, its local includes expanded, with #line markers
    naming it as @shown."""
    if path in seen:
        raise SystemExit("embed.py: %s includes itself" % path)
    seen = seen | {path}
    out = ['#line 1 "%s"\n' % shown]
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            match = INCLUDE.match(line)
            if not match:
                out.append(line if line.endswith("\n") else line + "\n")
                continue
            name = match.group(1)
            inner = os.path.join(os.path.dirname(path), name)
            out += expand(inner, os.path.join(os.path.dirname(shown), name),
                          seen)
            out.append('#line %d "%s"\n' % (number + 1, shown))
    return out


def main():
    src, out, symbol = sys.argv[1:4]
    shown = os.path.join("kernels", os.path.basename(src))
    lines = []
    for line in expand(src, shown, frozenset()):
        escaped = line.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        lines.append('  "%s"' % escaped)
    with open(out, "w", encoding="utf-8") as f:
        f.write("/* SPDX-License-Identifier: LGPL-2.1-or-later */\n")
        f.write("/* Generated from %s by kernels/embed.py: do not edit. */\n" % shown)
        f.write("const char %s[] =\n%s;\n" % (symbol, "\n".join(lines) or '  ""'))


if __name__ == "__main__":
    main()
