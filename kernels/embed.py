#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Embed an OpenCL C source file in a C file as one string constant, so that the
plugin carries its kernels and looks up no file at run time.

usage: embed.py INPUT.cl OUTPUT.c SYMBOL
"""
import sys


def main():
    src, out, symbol = sys.argv[1:4]
    with open(src, encoding="utf-8") as f:
        text = f.read()
    lines = []
    for line in text.splitlines(keepends=True):
        escaped = line.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        lines.append('  "%s"' % escaped)
    with open(out, "w", encoding="utf-8") as f:
        f.write("/* SPDX-License-Identifier: LGPL-2.1-or-later */\n")
        f.write("/* Generated from %s by kernels/embed.py: do not edit. */\n" % src.split("/")[-1])
        f.write("const char %s[] =\n%s;\n" % (symbol, "\n".join(lines) or '  ""'))


if __name__ == "__main__":
    main()
