# SPDX-License-Identifier: LGPL-2.1-or-later
"""The text of one section of a Markdown document, for the tests that run
the examples the README and the guides under docs/ show."""
import re


def doc_section(path, title):
    """The lines after the heading whose text starts with @title (any
    level), up to the next heading of its level or above, or the end;
    headings inside fenced code blocks do not count. Raises ValueError
    when there is no such heading."""
    lines = open(path, encoding="utf-8").read().splitlines(keepends=True)
    level, start, fenced = None, None, False
    for i, line in enumerate(lines):
        if line.startswith("```"):
            fenced = not fenced
            continue
        m = None if fenced else re.match(r"(#+) (.*)", line)
        if not m:
            continue
        if start is None:
            if m.group(2).startswith(title):
                level, start = len(m.group(1)), i + 1
        elif len(m.group(1)) <= level:
            return "".join(lines[start:i])
    if start is None:
        raise ValueError(f"{path}: no section '{title}'")
    return "".join(lines[start:])
