#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Checks the relative links of the project's Markdown documents: the
README, docs/ (with docs/elements/) and bench/results/README.md. Every
link `[text](path)`, `[text](path#anchor)` and `[text](#anchor)` outside
code must name a file or folder of the tree, and its anchor a heading of
the Markdown file it names (GitHub's anchors: the heading's text in lower
case, without its punctuation, spaces as hyphens, "-1", "-2", ... after
repeats). Links with a scheme (https:, mailto:) are not followed.

  scripts/check-links.py [SOURCE_ROOT]

Prints each broken link as FILE:LINE: LINK: why, and exits 1 if there is
one."""
import os
import re
import sys

LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"(#{1,6})\s+(.*?)\s*#*\s*$")


def documents(root):
    found = [os.path.join(root, "README.md"),
             os.path.join(root, "bench", "results", "README.md")]
    for folder, _, files in os.walk(os.path.join(root, "docs")):
        found += [os.path.join(folder, f) for f in files if f.endswith(".md")]
    return sorted(f for f in found if os.path.isfile(f))


def prose(path):
    """The document's text with fenced code blocks emptied (their lines
    kept, so that line numbers hold) and inline code blanked out, and the
    headings outside code."""
    fenced, kept, headings = False, [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.lstrip().startswith("```"):
                fenced = not fenced
                kept.append("\n")
                continue
            if fenced:
                kept.append("\n")
                continue
            m = HEADING.match(line)
            if m:
                headings.append(m.group(2))
            kept.append(re.sub(r"`[^`\n]*`", "``", line))
    return "".join(kept), headings


def slug(heading):
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links' text
    text = text.lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


anchor_cache = {}


def anchors(path):
    if path not in anchor_cache:
        seen, found = {}, set()
        for heading in prose(path)[1]:
            base = slug(heading)
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
        anchor_cache[path] = found
    return anchor_cache[path]


def check(root):
    broken = []
    for doc in documents(root):
        here = os.path.dirname(doc)
        text = prose(doc)[0]
        for m in LINK.finditer(text):
            link = m.group(1)
            if re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*:", link):
                continue
            number = text.count("\n", 0, m.start()) + 1
            where = f"{os.path.relpath(doc, root)}:{number}: {link}"
            path, _, anchor = link.partition("#")
            target = os.path.normpath(os.path.join(here, path)) if path else doc
            if not os.path.exists(target):
                broken.append(f"{where}: no {os.path.relpath(target, root)}")
            elif anchor and target.endswith(".md") and os.path.isfile(target) \
                    and anchor not in anchors(target):
                broken.append(f"{where}: no heading #{anchor} in "
                              f"{os.path.relpath(target, root)}")
    return broken


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), ".."))
    broken = check(root)
    for b in broken:
        print(b)
    print(f"check-links: {len(documents(root))} documents, "
          f"{len(broken)} broken links")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
