#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Checks that the engine's layers point one way (docs/design.md, "The
engine's layers").

The layers, lowest first:

  model    model/*, kernels/*.h: frames, requests, regions, tracks, stats,
           the kernels' ABI
  runtime  engine/runtime/*: devices, contexts, programs, host memory, the
           submission thread and its batcher
  clients  engine/*: the histogram engine and the tracker

and, beside them, the golden reference (reference/*), which may see the
model's headers and nothing of the engine.

It reads every `#include "..."` of those files, and the calls between the
engine's C files, and fails if

  - a file includes a file of a higher layer, or the reference includes
    anything but the model and itself;
  - an include is not found among those files;
  - the includes make a cycle;
  - a file of the engine (runtime or clients) calls a function of a higher
    layer, or the calls between two or more engine files make a cycle;
  - the reference calls a function of the model (or of the engine): it
    must do its own arithmetic, not the one it checks.

The plugin's elements (gst/) sit on the engine, in families: base/ (the
base class every element derives from and what they share: the device
context, host memory, pools, frame mapping, CUDA input, analytics), and
one folder per element family (FAMILIES), each with one file prefix, plus
gst/plugin.c, which registers them. It fails if

  - a folder under gst/ is no known family, or a family's file does not
    start with the family's prefix;
  - a family includes a header of another family but base/, or base/
    includes a family's header;
  - a file under gst/ includes an engine header that is not one of the
    engine's public ones (the model's headers and PUBLIC_ENGINE_HEADERS);
  - a family calls a function another family (not base/) defines, or
    base/ calls a family's function;
  - a file under gst/ defines a function or type in the meta library's
    namespace (gst_histogram_*, GstHistogram*): those names are the public
    library's (gst-libs/).

Usage: check-layers.py [SOURCE_ROOT]   (default: the parent of scripts/)
Python 3 standard library only; no build needed.
"""

import os
import re
import sys

LAYERS = ["model", "runtime", "clients"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# GNU style: a function's name starts the line of its definition.
DEFINITION = re.compile(r"^(clh_\w+)\s*\(", re.M)
CALL = re.compile(r"\b(clh_\w+)\s*\(")
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
STRING = re.compile(r'"(?:\\.|[^"\\\n])*"')


def layer_of(rel):
    """The layer of a file, by its path relative to the source root."""
    parts = rel.split("/")
    if parts[0] == "model" or (parts[0] == "kernels" and rel.endswith(".h")):
        return "model"
    if parts[0] == "engine" and len(parts) > 2 and parts[1] == "runtime":
        return "runtime"
    if parts[0] == "engine" and len(parts) == 2:
        return "clients"
    if parts[0] == "reference":
        return "reference"
    return None


def collect(root):
    """Every C source and header of the layers: {relative path: layer}."""
    files = {}
    for top in ("model", "kernels", "engine", "reference"):
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for name in names:
                if not name.endswith((".c", ".h")):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, name), root)
                rel = rel.replace(os.sep, "/")
                layer = layer_of(rel)
                if layer:
                    files[rel] = layer
    return files


def code_of(text):
    """@text without comments and string literals."""
    return STRING.sub('""', COMMENT.sub(" ", text))


def find_cycle(graph):
    """A cycle of @graph ({node: set of nodes}) as a list, or None."""
    state = {}
    stack = []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


# The element families under gst/ and the prefix of their files.
FAMILIES = {
    "base": "gstclbase",
    "histogram": "gstclhistogram",
    "overlay": "gstcloverlay",
    "scope": "gstclscope",
    "track": "gstcltrack",
    "marks": "gstclexposuremarks",
    "monitor": "gstclexposuremonitor",
}
# The engine's headers the elements may include, besides the model's: its
# clients' APIs and the device context they share.
PUBLIC_ENGINE_HEADERS = {
    "clh-context.h", "clh-error.h", "clh-engine.h", "clh-tracker.h",
    "clh-scope.h", "clh-marks.h",
}
GST_DEFINITION = re.compile(r"^(gst_cl_\w+)\s*\(", re.M)
GST_CALL = re.compile(r"\b(gst_cl_\w+)\s*\(")
META_NAMESPACE = re.compile(
    r"^(gst_histogram_\w+)\s*\(|^\s*(?:typedef\s+)?struct\s+_(GstHistogram\w*)"
    r"|^}\s*(GstHistogram\w*)\s*;", re.M)


def rank(layer):
    return LAYERS.index(layer) if layer in LAYERS else None


def check(root):
    files = collect(root)
    by_name = {}
    for rel in files:
        by_name.setdefault(os.path.basename(rel), []).append(rel)
    errors = []
    for name, rels in sorted(by_name.items()):
        if len(rels) > 1:
            errors.append("%s: one name, several files: %s"
                          % (name, ", ".join(sorted(rels))))

    texts = {}
    for rel in files:
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            texts[rel] = f.read()

    # Includes.
    includes = {}
    for rel, text in sorted(texts.items()):
        includes[rel] = set()
        for name in INCLUDE.findall(text):
            targets = by_name.get(os.path.basename(name))
            if not targets:
                errors.append("%s includes \"%s\", which is none of the "
                              "layers' files" % (rel, name))
                continue
            target = targets[0]
            includes[rel].add(target)
            mine, theirs = files[rel], files[target]
            if mine == "reference":
                if theirs not in ("model", "reference"):
                    errors.append("%s (reference) includes %s (%s): the "
                                  "reference sees the model only"
                                  % (rel, target, theirs))
            elif theirs == "reference":
                errors.append("%s (%s) includes %s (reference)"
                              % (rel, mine, target))
            elif rank(theirs) > rank(mine):
                errors.append("%s (%s) includes %s (%s), a higher layer"
                              % (rel, mine, target, theirs))
    cycle = find_cycle(includes)
    if cycle:
        errors.append("include cycle: " + " -> ".join(cycle))

    # Calls: which file defines each function, and who calls it.
    defined = {}
    for rel, text in texts.items():
        if rel.endswith(".c") or files[rel] == "model":
            for name in DEFINITION.findall(code_of(text)):
                defined.setdefault(name, rel)
    calls = {}
    for rel, text in sorted(texts.items()):
        if not rel.endswith(".c"):
            continue
        calls[rel] = {}
        for name in CALL.findall(code_of(text)):
            target = defined.get(name)
            if target and target != rel:
                calls[rel].setdefault(target, set()).add(name)
    engine_calls = {}
    for rel, targets in sorted(calls.items()):
        mine = files[rel]
        for target, names in sorted(targets.items()):
            theirs = files[target]
            if mine == "reference" and theirs != "reference":
                errors.append("%s (reference) calls %s of %s (%s): the "
                              "reference must not call what it checks"
                              % (rel, ", ".join(sorted(names)), target, theirs))
            elif theirs == "reference" and mine != "reference":
                errors.append("%s (%s) calls %s of %s (reference)"
                              % (rel, mine, ", ".join(sorted(names)), target))
            elif mine != "reference" and rank(theirs) > rank(mine):
                errors.append("%s (%s) calls %s of %s (%s), a higher layer"
                              % (rel, mine, ", ".join(sorted(names)), target,
                                 theirs))
            if mine in ("runtime", "clients") and theirs == mine:
                engine_calls.setdefault(rel, set()).add(target)
    cycle = find_cycle(engine_calls)
    if cycle:
        errors.append("call cycle: " + " -> ".join(cycle))

    for layer in LAYERS + ["reference"]:
        members = sorted(r for r, l in files.items() if l == layer)
        print("%-9s %2d files: %s" % (layer, len(members),
                                      " ".join(os.path.basename(m)
                                               for m in members)))
    n_includes = sum(len(t) for t in includes.values())
    n_calls = sum(len(t) for t in engine_calls.values())
    print("%d includes, %d calls between engine files of one layer"
          % (n_includes, n_calls))
    return errors


def collect_elements(root):
    """Every C source and header under gst/: {path relative to gst/: its
    family, or "plugin" for the files at the top}."""
    files = {}
    top = os.path.join(root, "gst")
    for dirpath, _, names in os.walk(top):
        for name in names:
            if not name.endswith((".c", ".h")):
                continue
            rel = os.path.relpath(os.path.join(dirpath, name), top)
            rel = rel.replace(os.sep, "/")
            files[rel] = rel.split("/")[0] if "/" in rel else "plugin"
    return files


def element_include_errors(rel, family, name, files, public):
    """What is wrong with gst/@rel of @family including "@name"."""
    if "/" in name:
        target = name
    elif "%s/%s" % (family, name) in files:
        target = "%s/%s" % (family, name)
    elif family == "plugin" and name in files:
        target = name
    elif name in public:
        return []
    else:
        return ["gst/%s includes \"%s\", which is neither its family's "
                "file, base/'s, nor one of the engine's public headers"
                % (rel, name)]
    if target not in files:
        return ["gst/%s includes \"%s\", which is no file under gst/"
                % (rel, name)]
    theirs = files[target]
    if family == "plugin" or theirs in (family, "base"):
        return []
    return ["gst/%s (%s) includes gst/%s (%s): a family includes only "
            "base/ and its own files" % (rel, family, target, theirs)]


def check_elements(root, layer_files):
    """The element families' rules (the module's docstring)."""
    files = collect_elements(root)
    public = PUBLIC_ENGINE_HEADERS | {
        os.path.basename(r) for r, l in layer_files.items() if l == "model"}
    errors = []
    texts = {}
    for rel, family in sorted(files.items()):
        with open(os.path.join(root, "gst", rel), encoding="utf-8") as f:
            texts[rel] = f.read()
        if family == "plugin":
            continue
        if family not in FAMILIES:
            errors.append("gst/%s: %s/ is no family (known: %s)"
                          % (rel, family, ", ".join(sorted(FAMILIES))))
            continue
        if not os.path.basename(rel).startswith(FAMILIES[family]):
            errors.append("gst/%s: a file of %s/ starts with \"%s\""
                          % (rel, family, FAMILIES[family]))
    for rel, text in sorted(texts.items()):
        for name in INCLUDE.findall(text):
            errors += element_include_errors(rel, files[rel], name, files,
                                             public)
        for m in META_NAMESPACE.finditer(code_of(text)):
            errors.append("gst/%s defines %s, a name of the meta library's "
                          "namespace" % (rel, next(g for g in m.groups()
                                                   if g)))
    defined = {}
    for rel, text in texts.items():
        if rel.endswith(".c"):
            for name in GST_DEFINITION.findall(code_of(text)):
                defined.setdefault(name, rel)
    for rel, text in sorted(texts.items()):
        mine = files[rel]
        if mine == "plugin":
            continue
        for name in sorted(set(GST_CALL.findall(code_of(text)))):
            target = defined.get(name)
            theirs = files.get(target)
            if target and theirs not in (mine, "base", "plugin"):
                errors.append("gst/%s (%s) calls %s of gst/%s (%s)"
                              % (rel, mine, name, target, theirs))
    for family in sorted(FAMILIES):
        members = sorted(r for r, f in files.items() if f == family)
        print("gst/%-10s %2d files" % (family + "/", len(members)))
    return errors


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    errors = check(root)
    errors += check_elements(root, collect(root))
    for error in errors:
        print("error: " + error)
    if errors:
        print("layers: %d errors" % len(errors))
        return 1
    print("layers: OK, every include and call points down, no cycle; "
          "the element families include only base/ and themselves")
    return 0


if __name__ == "__main__":
    sys.exit(main())
