#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Writes the reference pages of the clhistogram plugin's elements,
docs/elements/ELEMENT.md, and their index, docs/elements/README.md, from
the plugin as GStreamer's registry sees it and the gtk-doc comments of its
sources; or checks that the pages are what it would write.

Usage (Debian's python3, with python3-gi and gir1.2-gstreamer-1.0):
  element-docs.py --plugin-dir DIR --source-root ROOT --out docs/elements
  element-docs.py ... --check

DIR is the folder the plugin is built in (meson's plugin_dir), ROOT the
checkout: its gst/ folder is searched for the sources. --check writes
nothing: it prints a unified diff of each page that differs (a missing or
an extra page too) and exits 1; 0 when every page is the same.

From the registry: each element's metadata, rank, type hierarchy, pad
templates, properties and signals (those of the plugin's own types:
GStreamer's own, such as GstObject's name, are named only). From the
sources: the element's SECTION:element-NAME comment (its subsections
"Messages", "Properties", "Signals", ... open the page's sections of that
name), the comments of properties (Type:name) and signals (Type::name),
and what a build option adds (BUILD_OPTIONS): such pad caps and properties
are described from the sources, so that a page is the same whether or not
this build has the option.
"""

import argparse
import ast
import collections
import contextlib
import difflib
import os
import re
import sys
import tempfile

try:
    import gi
    gi.require_version("Gst", "1.0")
    from gi.repository import GObject, Gst
except (ImportError, ValueError) as err:
    sys.exit(f"element-docs: {err}: run it with Debian's python3 "
             "(python3-gi, gir1.2-gstreamer-1.0)")

PLUGIN = "clhistogram"
# The preprocessor symbols the build defines for an optional library (gst/
# meson.build's plugin_c_args), and what a reader is told of them.
BUILD_OPTIONS = {
    "HAVE_GST_CUDA": "GStreamer's CUDA library (NVIDIA decoders)",
    "HAVE_GST_ANALYTICS": "GStreamer's analytics library "
                          "(GStreamer 1.24 and later)",
}
# The page's own sections: a SECTION subsection of one of these names is
# the start of that section, not part of the description.
PAGE_SECTIONS = ("Messages", "Pad templates", "Properties", "Signals",
                 "Action signals")
GENERATED = ("<!-- Made by scripts/element-docs.py from the plugin and its "
             "sources: edit those, not this page. -->")
RANKS = {0: "none", 64: "marginal", 128: "secondary", 256: "primary"}
DocBlock = collections.namedtuple("DocBlock", "params body")
Property = collections.namedtuple("Property", "name owner pspec condition")


# The sources

def read_sources(root):
    """Every C file under ROOT/gst: {path relative to ROOT: text}."""
    sources = {}
    for folder, dirs, files in os.walk(os.path.join(root, "gst")):
        dirs.sort()
        for name in sorted(files):
            if name.endswith((".c", ".h")):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    sources[os.path.relpath(path, root)] = f.read()
    return sources


def doc_blocks(sources):
    """The gtk-doc comments, {symbol: DocBlock}: SECTION:element-NAME,
    Type:property, Type::signal."""
    blocks = {}
    for text in sources.values():
        for m in re.finditer(r"/\*\*[ \t]*\n(.*?)\*/", text, re.S):
            lines = [re.sub(r"^\s*\* ?", "", line).rstrip()
                     for line in m.group(1).split("\n")]
            symbol = lines[0].strip()
            if symbol.startswith("SECTION:") or symbol.endswith(":"):
                blocks[symbol.rstrip(":")] = parse_doc(lines[1:])
    return blocks


def parse_doc(lines):
    """A comment's @name: lines (continued on indented lines) and the text
    after them."""
    params, i = [], 0
    while i < len(lines) and lines[i].startswith("@"):
        name, _, text = lines[i][1:].partition(":")
        i += 1
        while i < len(lines) and lines[i].startswith(" ") and lines[i].strip():
            text += " " + lines[i].strip()
            i += 1
        params.append((name.strip(), text.strip()))
    body = lines[i:]
    while body and not body[0]:
        body.pop(0)
    while body and not body[-1]:
        body.pop()
    return DocBlock(params, body)


def section_sources(sources):
    """{element name: path of the source holding its SECTION comment}."""
    found = {}
    for path, text in sources.items():
        for name in re.findall(r"^\s*\*\s*SECTION:element-([\w-]+)\s*$", text,
                               re.M):
            found[name] = path
    return found


def type_sources(sources):
    """{type name: path} of the GObject types the sources define: the
    plugin's own types."""
    found = {}
    for path, text in sources.items():
        for name in re.findall(
                r"\bG_DEFINE_(?:ABSTRACT_|FINAL_)?TYPE\w*\s*\(\s*(\w+)", text):
            found[name] = path
    return found


def uncomment(text):
    """TEXT without C comments, strings kept, continuation lines joined."""
    text = re.sub(r'"(?:[^"\\\n]|\\.)*"|/\*.*?\*/|//[^\n]*',
                  lambda m: m.group(0) if m.group(0)[0] == '"' else " ",
                  text, flags=re.S)
    return text.replace("\\\n", " ")


def condition(word, rest, defined):
    """Whether #WORD REST holds with the symbols DEFINED. Only the build
    options matter here, which are plain #ifdefs: any other #if counts as
    true."""
    m = re.fullmatch(r"\s*(!?)\s*defined\s*\(?\s*(\w+)\s*\)?\s*", rest)
    if word == "if" and not m:
        return True
    negate, symbol = (m.group(1) == "!", m.group(2)) if m else \
        (word == "ifndef", rest.strip())
    return (symbol in defined) != negate


def active_text(text, defined):
    """The lines of uncommented TEXT the preprocessor keeps with the
    symbols DEFINED."""
    kept, stack, active = [], [], True
    for line in text.split("\n"):
        m = re.match(r"\s*#\s*(ifdef|ifndef|if|elif|else|endif)\b(.*)", line)
        if not m:
            if active:
                kept.append(line)
            continue
        word, rest = m.groups()
        if word in ("ifdef", "ifndef", "if"):
            holds = condition(word, rest, defined)
            stack.append((active, holds))
            active = active and holds
        elif word == "elif":
            outer, taken = stack[-1]
            holds = not taken and condition("if", rest, defined)
            stack[-1] = (outer, taken or holds)
            active = outer and holds
        elif word == "else":
            outer, taken = stack[-1]
            stack[-1] = (outer, True)
            active = outer and not taken
        else:
            active = stack.pop()[0]
    return "\n".join(kept)


def tokens(text):
    return re.findall(r'"(?:[^"\\\n]|\\.)*"|\w+|\S', text)


def split_args(toks, i):
    """The arguments of the call whose '(' is TOKS[i], and the index after
    its ')'."""
    args, depth, i = [[]], 0, i + 1
    while depth or toks[i] != ")":
        depth += {"(": 1, ")": -1}.get(toks[i], 0)
        if toks[i] == "," and not depth:
            args.append([])
        else:
            args[-1].append(toks[i])
        i += 1
    return args, i + 1


def macros(path, sources, defined, table=None, seen=None):
    """The #defines PATH sees with the symbols DEFINED: those of the
    headers it includes that lie under gst/, then its own."""
    table = {} if table is None else table
    seen = set() if seen is None else seen
    seen.add(path)
    by_name = {os.path.basename(p): p for p in sources}
    for line in active_text(uncomment(sources[path]), defined).split("\n"):
        include = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
        define = re.match(r"\s*#\s*define\s+(\w+)(\([^)]*\))?(.*)", line)
        if include and by_name.get(os.path.basename(include.group(1))) \
                not in (None, *seen):
            macros(by_name[os.path.basename(include.group(1))], sources,
                   defined, table, seen)
        elif define:
            params = define.group(2)
            table[define.group(1)] = (
                None if params is None else
                [p.strip() for p in params[1:-1].split(",") if p.strip()],
                tokens(define.group(3)))
    return table


def expand(toks, table, hidden=frozenset()):
    """TOKS with their macros expanded (enough of the preprocessor for
    caps strings: no # nor ##)."""
    out, i = [], 0
    while i < len(toks):
        tok, i = toks[i], i + 1
        params, body = table.get(tok, (None, None))
        if body is None or tok in hidden:
            out.append(tok)
        elif params is None:
            out += expand(body, table, hidden | {tok})
        elif i < len(toks) and toks[i] == "(":
            args, i = split_args(toks, i)
            bound = dict(zip(params, (expand(a, table, hidden) for a in args)))
            out += expand([t for b in body for t in bound.get(b, [b])], table,
                          hidden | {tok})
        else:
            out.append(tok)
    return out


def c_string(tok):
    return ast.literal_eval(tok)


def segments(toks):
    """TOKS with adjacent string literals joined, as the compiler joins
    them."""
    out = []
    for tok in toks:
        if tok.startswith('"') and out and isinstance(out[-1], list):
            out[-1].append(c_string(tok))
        else:
            out.append([c_string(tok)] if tok.startswith('"') else tok)
    return ["".join(s) if isinstance(s, list) else s for s in out]


def calls(text, pattern):
    """(name, arguments) of TEXT's calls of functions or macros whose name
    matches PATTERN."""
    toks = tokens(text)
    for i, tok in enumerate(toks[:-1]):
        if toks[i + 1] == "(" and re.fullmatch(pattern, tok):
            yield tok, split_args(toks, i + 1)[0]


def is_string(toks):
    return bool(toks) and all(t.startswith('"') for t in toks)


def template_caps(path, sources, defined):
    """{template name: caps expression, expanded} of PATH's static pad
    templates."""
    table = macros(path, sources, defined)
    found = {}
    for _, args in calls(uncomment(sources[path]), "GST_STATIC_PAD_TEMPLATE"):
        caps = args[3]
        if caps[:2] == ["GST_STATIC_CAPS", "("]:
            caps = split_args(caps, 1)[0][0]
        found["".join(segments(args[0]))] = segments(expand(caps, table))
    return found


def option_caps(path, sources):
    """{(template name, build option): caps string} of what each build
    option adds to PATH's pad templates."""
    plain = template_caps(path, sources, set())
    extras = {}
    for symbol in BUILD_OPTIONS:
        for name, built in template_caps(path, sources, {symbol}).items():
            extra = added_text(plain.get(name, []), built)
            if extra:
                extras[(name, symbol)] = extra
    return extras


def added_text(plain, built):
    """What BUILT adds to PLAIN (expansions of one expression), as one
    string; a change other than text added to a string is an error."""
    if len(plain) != len(built):
        raise ValueError(f"caps expressions {plain} and {built} differ")
    added = []
    for before, after in zip(plain, built):
        if before == after:
            continue
        if not isinstance(after, str) or not after.startswith(before):
            raise ValueError(f"caps {after!r} is not {before!r} extended")
        added.append(after[len(before):].strip().lstrip(";").strip())
    return "; ".join(added)


def option_properties(path, sources):
    """{property name: (build option, g_param_spec kind, blurb)} of those
    PATH installs only with a build option."""
    text = uncomment(sources[path])
    plain = param_specs(active_text(text, set()))
    found = {}
    for symbol in BUILD_OPTIONS:
        for name, spec in param_specs(active_text(text, {symbol})).items():
            if name not in plain:
                found[name] = (symbol, *spec)
    return found


def param_specs(text):
    """{name: (kind, blurb)} of TEXT's g_param_spec_KIND (name, nick,
    blurb, ...) calls that give them as strings."""
    found = {}
    for function, args in calls(text, r"g_param_spec_\w+"):
        if len(args) >= 3 and all(is_string(a) for a in args[:3]):
            name, _, blurb = ("".join(segments(a)) for a in args[:3])
            found[name] = (function[len("g_param_spec_"):], blurb)
    return found


# The registry

def load_plugin(plugin_dir, registry_dir):
    """The plugin's element factories, from PLUGIN_DIR alone: a registry
    of its own, no system plugins."""
    os.environ.update(GST_PLUGIN_PATH_1_0=plugin_dir,
                      GST_PLUGIN_SYSTEM_PATH_1_0="",
                      GST_REGISTRY_1_0=os.path.join(registry_dir, "r.bin"))
    for var in ("GST_PLUGIN_LOADING_WHITELIST", "GST_TRACERS"):
        os.environ.pop(var, None)
    Gst.init(None)
    registry = Gst.Registry.get()
    plugin = registry.find_plugin(PLUGIN)
    if plugin is None or os.path.commonpath(
            [os.path.realpath(plugin.get_filename()),
             os.path.realpath(plugin_dir)]) != os.path.realpath(plugin_dir):
        sys.exit(f"element-docs: no {PLUGIN} plugin in {plugin_dir}")
    return sorted((f for f in registry.get_feature_list_by_plugin(PLUGIN)
                   if isinstance(f, Gst.ElementFactory)),
                  key=lambda f: f.get_name())


def ancestry(gtype):
    """GTYPE's types, GObject first."""
    chain = []
    while gtype.name != "invalid":
        chain.insert(0, gtype)
        gtype = gtype.parent
    return chain


class Element:
    """What a page says of one element: the registry's and the sources'."""

    def __init__(self, factory, sources, docs, types, pages):
        factory = factory.load()
        self.factory = factory
        self.name = factory.get_name()
        self.instance = factory.create(None)
        self.chain = ancestry(self.instance.__gtype__)
        # The element's type first, then its bases the plugin defines.
        self.own = [self.chain[-1].name] + [
            t.name for t in reversed(self.chain[:-1]) if t.name in types]
        self.docs = docs
        self.pages = pages
        path = section_sources(sources).get(self.name)
        self.caps_options = option_caps(path, sources) if path else {}
        self.prop_options = {}
        for owner in reversed(self.own):
            if owner in types:
                self.prop_options.update(
                    (name, (owner, condition)) for name, condition in
                    option_properties(types[owner], sources).items())

    def properties(self):
        """The plugin's own types' properties, sorted, with those a build
        option adds; and {owner: names} of GStreamer's own."""
        own, others = {}, collections.defaultdict(list)
        for pspec in self.instance.list_properties():
            owner = pspec.owner_type.name
            if owner not in self.own:
                others[owner].append(pspec.name)
            elif pspec.name in self.prop_options:
                check_option_property(pspec, self.prop_options[pspec.name][1])
            else:
                own[pspec.name] = Property(pspec.name, owner, pspec, None)
        for name, (owner, condition) in self.prop_options.items():
            own[name] = Property(name, owner, None, condition)
        return [own[n] for n in sorted(own)], others

    def signals(self):
        """The plugin's own types' signals: [(type name, query)], sorted."""
        found = []
        for gtype in self.chain:
            if gtype.name in self.own:
                found += [(gtype.name, GObject.signal_query(i))
                          for i in GObject.signal_list_ids(gtype)]
        return sorted(found, key=lambda s: s[1].signal_name)


def check_option_property(pspec, condition):
    """A property a build option adds must be what the sources say: the
    page describes it from them."""
    _, kind, blurb = condition
    if pspec.blurb != blurb or PARAM_KINDS.get(kind, pspec.value_type.name) \
            != pspec.value_type.name:
        sys.exit(f"element-docs: property {pspec.name}: the registry's "
                 f"{pspec.value_type.name} \"{pspec.blurb}\" is not the "
                 f"sources' g_param_spec_{kind} \"{blurb}\"")


PARAM_KINDS = {"boolean": "gboolean", "int": "gint", "uint": "guint",
               "int64": "gint64", "uint64": "guint64", "float": "gfloat",
               "double": "gdouble", "string": "gchararray"}


# Values as text

def number(value):
    """A number as C would write it, the doubles' extremes by name."""
    if isinstance(value, float):
        if abs(value) == sys.float_info.max:
            return ("-" if value < 0 else "") + "G_MAXDOUBLE"
        text = repr(value)
        return text[:-2] if text.endswith(".0") else text
    return str(value)


def gst_value(value):
    """A caps field's or property's value as caps strings write it,
    without type names."""
    if isinstance(value, Gst.ValueList):
        return "{ " + ", ".join(gst_value(v) for v in value.array) + " }"
    if isinstance(value, Gst.ValueArray):
        return "<" + ", ".join(gst_value(v) for v in value.array) + ">"
    if isinstance(value, Gst.IntRange):
        # The bindings' range holds GStreamer's maximum as its stop.
        return f"[ {value.range.start}, {value.range.stop} ]"
    if isinstance(value, Gst.FractionRange):
        return f"[ {gst_value(value.start)}, {gst_value(value.stop)} ]"
    if isinstance(value, Gst.Fraction):
        return f"{int(value.num)}/{int(value.denom)}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return number(value)
    return str(value)


def caps_lines(caps):
    """CAPS one structure a block: its name (and memory), then each field
    on a line, long lists wrapped."""
    lines = []
    for structure, features in structures(caps):
        memory = "" if features.is_equal(Gst.CapsFeatures.new_empty()) or \
            features.to_string() == "memory:SystemMemory" \
            else f"({features.to_string()})"
        lines.append(structure.get_name() + memory)
        names = [structure.nth_field_name(j)
                 for j in range(structure.n_fields())]
        width = max((len(n) for n in names), default=0)
        for name in names:
            lines += wrap(f"  {name:>{width}}: ",
                          gst_value(structure.get_value(name)))
    return lines


def structures(caps):
    """(structure, features) of each of CAPS' structures. GStreamer 1.26's
    bindings hand a structure out only inside a with statement (their
    StructureWrapper), 1.22's plainly."""
    for i in range(caps.get_size()):
        got = caps.get_structure(i)
        with got if hasattr(got, "__enter__") else \
                contextlib.nullcontext(got) as structure:
            yield structure, caps.get_features(i)


def wrap(head, text, limit=76):
    """HEAD TEXT in lines of at most LIMIT, continued under TEXT's start."""
    lines, line = [], head
    for word in text.split(" "):
        if len(line) + len(word) > limit and line.strip() and \
                len(line) > len(head):
            lines.append(line.rstrip())
            line = " " * (len(head) + 2)
        line += word + " "
    return lines + [line.rstrip()]


def flags_text(flags):
    """A property's flags as gst-inspect-1.0 words them."""
    words = [word for bit, word in (
        (GObject.ParamFlags.READABLE, "readable"),
        (GObject.ParamFlags.WRITABLE, "writable"),
        (GObject.ParamFlags.CONSTRUCT_ONLY, "construct-only"),
        (GObject.ParamFlags.DEPRECATED, "deprecated"),
        (Gst.PARAM_CONTROLLABLE, "controllable")) if flags & bit]
    if flags & GObject.ParamFlags.WRITABLE:
        words += [word for bit, word, _ in MUTABILITY if flags & bit][:1]
    return ", ".join(words)


# The GST_PARAM_MUTABLE_ flags, widest first: gst-inspect-1.0's words, the
# summary table's.
MUTABILITY = ((Gst.PARAM_MUTABLE_PLAYING,
               "changeable in NULL, READY, PAUSED or PLAYING state",
               "PLAYING"),
              (Gst.PARAM_MUTABLE_PAUSED,
               "changeable only in NULL, READY or PAUSED state", "PAUSED"),
              (Gst.PARAM_MUTABLE_READY,
               "changeable only in NULL or READY state", "READY"))


def changeable(pspec):
    """The summary table's word for when a property may be set."""
    if not pspec.flags & GObject.ParamFlags.WRITABLE:
        return "read-only"
    return next((word for bit, _, word in MUTABILITY if pspec.flags & bit),
                "—")


def type_text(pspec):
    gtype = pspec.value_type
    if gtype.is_a(GObject.TYPE_ENUM):
        return f"enum `{gtype.name}`"
    if gtype.is_a(GObject.TYPE_FLAGS):
        return f"flags `{gtype.name}`"
    return f"`{'string' if gtype.name == 'gchararray' else gtype.name}`"


def default_text(element, pspec):
    """The default as gst-inspect-1.0 gives it: a new element's value (of a
    readable property; the GParamSpec's otherwise)."""
    gtype = pspec.value_type
    value = element.instance.get_property(pspec.name) \
        if pspec.flags & GObject.ParamFlags.READABLE else pspec.default_value
    if gtype.is_a(GObject.TYPE_ENUM) or gtype.is_a(GObject.TYPE_FLAGS):
        nicks = {v: nick for nick, v, _ in enum_values(pspec)}
        if gtype.is_a(GObject.TYPE_FLAGS):
            nick = "+".join(n for v, n in sorted(nicks.items())
                            if v and int(value) & v == v) or "(none)"
        else:
            nick = nicks.get(int(value), "?")
        return f"`{nick}` ({int(value)})"
    if value is None:
        # gst-inspect-1.0 shows an unset array as an empty one.
        return "`<>`" if gtype.name == "GstValueArray" else "`NULL`"
    if gtype.name == "gchararray":
        return md_code(f'"{value}"')
    return md_code(gst_value(value))


def range_text(pspec):
    low = getattr(pspec, "minimum", None)
    return None if low is None else \
        f"{number(low)} to {number(pspec.maximum)}"


def enum_values(pspec):
    """[(nick, value, description)] of an enum or flags property."""
    # The Python class of the type: the bindings' GParamSpec wrappers
    # differ between PyGObject 3.42 (Debian 12) and 3.50 (Debian 13).
    values = getattr(pspec.value_type.pytype, "__enum_values__", None)
    if values is not None:
        return [(v.value_nick, k, v.value_name)
                for k, v in sorted(values.items())]
    values = getattr(pspec.value_type.pytype, "__flags_values__", {})
    return [(v.first_value_nick, k, v.first_value_name)
            for k, v in sorted(values.items())]


def md_code(text):
    fence = "``" if "`" in text else "`"
    return f"{fence}{text}{fence}"


def md_text(text):
    """Plain text (a blurb) as markdown: escaped only where it could read
    as markup (an HTML tag, emphasis, code), to keep the page readable."""
    text = re.sub(r"([\\`])", r"\\\1", text)
    text = re.sub(r"<(?=[A-Za-z][\w-]*[\s/>]|[/!?])", r"\\<", text)
    return re.sub(r"(?<=\S)\*|\*(?=\S)", r"\\*", text)


# gtk-doc to markdown

def gtkdoc_markdown(lines, element):
    """LINES of a gtk-doc comment as markdown: |[ ]| blocks fenced (the
    text after ]| starts a paragraph), #Type:property, #Type::signal,
    #Type, %CONSTANT and @param as links or code."""
    out, prose, code = [], [], None
    for line in lines + [None]:
        start = re.match(r"\s*\|\[(?:<!-- language=\"(\w+)\" -->)?(.*)",
                         line or "")
        if code is None and line is not None and not start:
            prose.append(line)
            continue
        if prose:
            out += references("\n".join(prose), element).split("\n")
            prose = []
        if line is None:
            return out + (code + ["```"] if code else [])
        if start and code is None:
            code = ["", "```" + (start.group(1) or "").lower()]
            line = start.group(2)
            if not line.strip():
                continue
        body, end, after = line.partition("]|")
        code += [body] if body.strip() or not end else []
        if end:
            out += code + ["```", ""]
            code = None
            prose += [after.strip()] if after.strip() else []


REFERENCE = re.compile(r"#(\w+)(::?)([\w-]*\w)|#([A-Za-z_]\w*)"
                       r"|%([A-Za-z_]\w*)|@(\w+)")


def references(text, element):
    """TEXT's gtk-doc references outside `code` made markdown."""
    parts = text.split("`")
    for i in range(0, len(parts), 2):
        parts[i] = REFERENCE.sub(lambda m: reference(m, element), parts[i])
    return "`".join(parts)


def reference(m, element):
    type_name, colons, member, other, constant, param = m.groups()
    if type_name:
        kind = "signal" if colons == "::" else "property"
        page = element.pages.get(type_name, element.name if type_name in
                                 element.own else None)
        if page is None:
            return md_code(f"{type_name}{colons}{member}")
        label = member if page == element.name else f"{page}'s {member}"
        return f"[`{label}`](\0{page}/{kind}/{member}\0)"
    return md_code(other or constant or param)


class Page:
    """A page's lines, with GitHub's anchors for its headings: links are
    resolved once every page is made."""

    def __init__(self, name):
        self.name = name
        self.lines = []
        self.anchors = {}
        self.slugs = collections.Counter()

    def heading(self, level, text, key=None):
        slug = re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")
        anchor = slug
        while anchor in self.slugs:
            self.slugs[slug] += 1
            anchor = f"{slug}-{self.slugs[slug]}"
        self.slugs[anchor] += 0
        if key:
            self.anchors[key] = anchor
        self.add("#" * level + " " + text, "")

    def add(self, *lines):
        self.lines += lines

    def add_markdown(self, lines):
        """LINES, their headings (outside code) with anchors."""
        fenced = False
        for line in lines:
            fenced ^= line.startswith("```")
            heading = None if fenced else re.match(r"(#+) (.*)", line)
            if heading:
                self.heading(len(heading.group(1)), heading.group(2).strip())
            else:
                self.add(line)
        self.add("")

    def text(self, pages):
        def link(m):
            page, kind, name = m.group(1).split("/")
            anchor = pages[page].anchors.get((kind, name)) \
                if page in pages else None
            if anchor is None:
                print(f"element-docs: {self.name}: no {kind} {page}:{name} "
                      "to link to", file=sys.stderr)
                return "#"
            return ("" if page == self.name else f"{page}.md") + "#" + anchor
        text = "\n".join(self.lines).rstrip() + "\n"
        text = re.sub(r"\n{3,}", "\n\n", text)
        return re.sub(r"\0([^\0]*)\0", link, text)


# The page

def element_page(element):
    page = Page(element.name)
    factory = element.factory
    page.add(GENERATED, "")
    page.heading(1, element.name)
    page.add(md_text(factory.get_metadata("description")), "")
    rank = factory.get_rank()
    page.add(f"- Long name: {md_text(factory.get_metadata('long-name'))}",
             f"- Classification: `{factory.get_metadata('klass')}`",
             f"- Rank: {RANKS.get(rank, 'custom')} ({rank})",
             f"- Author: {md_text(factory.get_metadata('author'))}")
    for key in sorted(set(factory.get_metadata_keys()) -
                      {"long-name", "klass", "description", "author"}):
        page.add(f"- {key}: {md_text(factory.get_metadata(key))}")
    page.add("", "Type hierarchy (abstract types in parentheses):", "", "```")
    for depth, gtype in enumerate(element.chain):
        name = f"({gtype.name})" if gtype.is_abstract() else gtype.name
        indent = " " + " " * 6 * (depth - 1) + "+----" if depth else ""
        page.add(indent + name)
    page.add("```", "")
    interfaces = sorted(i.name for i in element.chain[-1].interfaces)
    if interfaces:
        page.add("Implemented interfaces: " +
                 ", ".join(f"`{i}`" for i in interfaces), "")
    sections = description(page, element)
    if "messages" in sections:
        page.heading(2, "Messages")
        page.add_markdown(sections["messages"])
    pad_templates(page, element, sections.get("pad templates", []))
    properties(page, element, sections.get("properties", []))
    signals(page, element, sections)
    return page


def description(page, element):
    """The SECTION comment under Description, but for its subsections
    named as the page's own sections: {lowercase name: lines}."""
    block = element.docs.get(f"SECTION:element-{element.name}")
    if block is None:
        print(f"element-docs: {element.name}: no SECTION:element-"
              f"{element.name} comment in the sources", file=sys.stderr)
        return {}
    own = {s.lower() for s in PAGE_SECTIONS}
    body, sections, current, fenced = [], {}, None, False
    for line in gtkdoc_markdown(block.body, element):
        fenced ^= line.startswith("```")
        if not fenced and line.startswith("## "):
            title = line[3:].strip().lower()
            current = title if title in own else None
            if current:
                continue
        (sections.setdefault(current, []) if current else body).append(line)
    page.heading(2, "Description")
    page.add_markdown(body)
    return sections


def pad_templates(page, element, intro):
    page.heading(2, "Pad templates")
    page.add_markdown(intro)
    templates = sorted(element.factory.get_static_pad_templates(),
                       key=lambda t: (t.direction != Gst.PadDirection.SINK,
                                      t.name_template))
    for template in templates:
        name = template.name_template
        page.heading(3, name, ("template", name))
        page.add(f"- Direction: {template.direction.value_nick}",
                 f"- Presence: {template.presence.value_nick}", "")
        caps = template.get_caps()
        for (name, symbol), text in sorted(element.caps_options.items()):
            if name == template.name_template:
                caps = without_option_caps(caps, Gst.Caps.from_string(text),
                                           element.name, name)
        page.add("```", *caps_lines(caps), "```", "")
        for (name, symbol), text in sorted(element.caps_options.items()):
            if name == template.name_template:
                page.add(f"Where the plugin is built with "
                         f"{BUILD_OPTIONS[symbol]}, the template also has:",
                         "",
                         "```", *caps_lines(Gst.Caps.from_string(text)),
                         "```", "")


def without_option_caps(caps, option, element, template):
    """CAPS without the structures OPTION adds, which this build may or
    may not have; a build with some of them only is an error."""
    kept = Gst.Caps.new_empty()
    found = 0
    for i in range(caps.get_size()):
        one = caps.copy_nth(i)
        if any(one.is_equal(option.copy_nth(j))
               for j in range(option.get_size())):
            found += 1
        else:
            kept.append(one)
    if found not in (0, option.get_size()):
        sys.exit(f"element-docs: {element} {template}: the registry's caps "
                 "have only some of the structures the sources add with a "
                 "build option")
    return kept


def properties(page, element, intro):
    props, others = element.properties()
    page.heading(2, "Properties")
    page.add_markdown(intro)
    page.add("| Property | Type | Default | Changeable in |",
             "| --- | --- | --- | --- |")
    for prop in props:
        link = f"[{prop.name}](\0{element.name}/property/{prop.name}\0)"
        if prop.pspec is None:
            page.add(f"| {link} | {PARAM_TYPES.get(prop.condition[1], '—')} "
                     "| see below | see below |")
        else:
            default = default_text(element, prop.pspec).replace("|", "\\|")
            page.add(f"| {link} | {type_text(prop.pspec)} | {default} | "
                     f"{changeable(prop.pspec)} |")
    page.add("", "Changeable in: the last state in which setting the property "
             "takes effect, as its GST_PARAM_MUTABLE_ flag says; — where it "
             "has none.", "")
    if others:
        page.add("GStreamer's own classes add " + "; ".join(
            ", ".join(f"`{n}`" for n in sorted(names)) + f" ({owner})"
            for owner, names in sorted(others.items())) +
            ": see GStreamer's documentation of those classes.", "")
    for prop in props:
        page.heading(3, prop.name, ("property", prop.name))
        if prop.pspec is None:
            option_property(page, element, prop)
        else:
            registry_property(page, element, prop)


PARAM_TYPES = {kind: f"`{'string' if t == 'gchararray' else t}`"
               for kind, t in PARAM_KINDS.items()}


def registry_property(page, element, prop):
    pspec = prop.pspec
    page.add(md_text(pspec.blurb), "")
    lines = [f"- Type: {type_text(pspec)}"]
    if range_text(pspec):
        lines.append(f"- Range: {range_text(pspec)}")
    lines += [f"- Default: {default_text(element, pspec)}",
              f"- Flags: {flags_text(pspec.flags)}"]
    if prop.owner != element.own[0]:
        lines.append(f"- Inherited from `{prop.owner}`")
    values = enum_values(pspec)
    if values:
        lines += ["- Values:"] + [f"  - `{nick}` ({value}): {md_text(text)}"
                                  for nick, value, text in values]
    page.add(*lines, "")
    property_doc(page, element, prop)


def option_property(page, element, prop):
    symbol, kind, blurb = prop.condition
    page.add(f"*Only where the plugin is built with {BUILD_OPTIONS[symbol]}"
             ": gst-inspect-1.0 on such a build gives its default and "
             "flags.*", "", md_text(blurb), "")
    page.add(f"- Type: {PARAM_TYPES.get(kind, f'g_param_spec_{kind}')}", "")
    property_doc(page, element, prop)


def property_doc(page, element, prop):
    block = element.docs.get(f"{prop.owner}:{prop.name}")
    if block:
        page.add_markdown(gtkdoc_markdown(block.body, element))


def signals(page, element, sections):
    found = element.signals()
    for title, action in (("Signals", False), ("Action signals", True)):
        chosen = [s for s in found if bool(
            s[1].signal_flags & GObject.SignalFlags.ACTION) == action]
        if not chosen and title.lower() not in sections:
            continue
        page.heading(2, title)
        page.add_markdown(sections.get(title.lower(), []))
        for owner, query in chosen:
            signal(page, element, owner, query)


def signal(page, element, owner, query):
    """A signal's C signature (an action signal's emission), with its
    comment's parameter names where it gives them all."""
    name = query.signal_name
    block = element.docs.get(f"{owner}::{name}")
    params = block.params if block else []
    names = [p[0] for p in params] \
        if len(params) == len(query.param_types) + 1 else \
        [element.name] + [f"arg{i}" for i in range(len(query.param_types))]
    args = [f"{c_type(t)}{n}" for t, n in zip(query.param_types, names[1:])]
    returns = c_type(query.return_type).strip()
    page.heading(3, name, ("signal", name))
    if query.signal_flags & GObject.SignalFlags.ACTION:
        call = ", ".join([names[0], f'"{name}"'] + names[1:] +
                         ([] if returns == "void" else ["&result"]))
        page.add("```c", f"g_signal_emit_by_name ({call});", "```", "")
        if args or returns != "void":
            page.add("Arguments: " + ", ".join(f"`{a}`" for a in args) +
                     ("" if returns == "void" else
                      f"; returns `{returns}`") + ".", "")
    else:
        page.add("```c", returns, f"callback (GstElement * {names[0]},",
                 *(f"          {arg}," for arg in args),
                 "          gpointer user_data);", "```", "")
    page.add(*(f"- `{p}`: {references(text, element)}"
               for p, text in params[1:]), "")
    page.add(f"Flags: {signal_flags(query.signal_flags)}", "")
    if block:
        page.add_markdown(gtkdoc_markdown(block.body, element))


def c_type(gtype):
    if gtype.name == "void":
        return "void "
    if gtype.name == "gchararray":
        return "const gchar * "
    if gtype.fundamental.name in ("GObject", "GBoxed", "gpointer"):
        return f"{gtype.name} * "
    return f"{gtype.name} "


def signal_flags(flags):
    words = [(GObject.SignalFlags.RUN_FIRST, "run first"),
             (GObject.SignalFlags.RUN_LAST, "run last"),
             (GObject.SignalFlags.RUN_CLEANUP, "run cleanup"),
             (GObject.SignalFlags.NO_RECURSE, "no recurse"),
             (GObject.SignalFlags.DETAILED, "detailed"),
             (GObject.SignalFlags.ACTION, "action"),
             (GObject.SignalFlags.NO_HOOKS, "no hooks"),
             (GObject.SignalFlags.DEPRECATED, "deprecated")]
    return ", ".join(word for bit, word in words if flags & bit)


def index_page(pages, elements, kept_lines):
    page = Page("README")
    page.add(GENERATED, "")
    page.heading(1, f"Elements of the {PLUGIN} plugin")
    page.add("One page an element, made from the plugin and its sources by "
             "`scripts/element-docs.py` (the test `element-docs` checks "
             "them):", "")
    lines = {e.name: f"- [{e.name}]({e.name}.md): "
             f"{md_text(e.factory.get_metadata('long-name'))}: "
             f"{md_text(e.factory.get_metadata('description'))}"
             for e in elements}
    lines.update({n: line for n, line in kept_lines.items() if n not in lines})
    page.add(*(lines[n] for n in sorted(lines)), "")
    return page


# Writing and checking

def kept_pages(out, sources, built):
    """{element: its index line} of the elements the sources document that
    this build lacks: their pages stay as they are."""
    names = set(section_sources(sources)) - set(built)
    index = os.path.join(out, "README.md")
    lines = open(index, encoding="utf-8").read().split("\n") \
        if os.path.exists(index) else []
    kept = {}
    for name in sorted(names):
        print(f"element-docs: {name} is not in this build: its page is "
              "left as it is", file=sys.stderr)
        kept.update({name: line for line in lines
                     if line.startswith(f"- [{name}]({name}.md)")})
    return kept


def make_pages(args):
    sources = read_sources(args.source_root)
    docs, types = doc_blocks(sources), type_sources(sources)
    with tempfile.TemporaryDirectory() as registry_dir:
        factories = load_plugin(args.plugin_dir, registry_dir)
        pages = {f.get_element_type().name: f.get_name() for f in factories}
        elements = [Element(f, sources, docs, types, pages) for f in factories]
        made = {e.name: element_page(e) for e in elements}
    kept = kept_pages(args.out, sources, made)
    made["README"] = index_page(made, elements, kept)
    return {f"{n}.md": p.text(made) for n, p in made.items()}, \
        {f"{n}.md" for n in kept}


def compare(out, pages, kept):
    """Prints how OUT differs from PAGES; whether it does."""
    present = {n for n in os.listdir(out) if n.endswith(".md")} \
        if os.path.isdir(out) else set()
    differs = False
    for name in sorted((present - kept) | set(pages)):
        path = os.path.join(out, name)
        old = open(path, encoding="utf-8").read() if name in present else ""
        new = pages.get(name, "")
        if old != new:
            differs = True
            state = "missing" if name not in present else \
                "extra" if name not in pages else "differs"
            print(f"element-docs: {path}: {state}")
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(True), new.splitlines(True),
                f"{path} (as it is)", f"{path} (as made)"))
    return differs


def write(out, pages, kept):
    os.makedirs(out, exist_ok=True)
    for name in os.listdir(out):
        if name.endswith(".md") and name not in pages and name not in kept:
            os.remove(os.path.join(out, name))
    for name, text in pages.items():
        with open(os.path.join(out, name), "w", encoding="utf-8") as f:
            f.write(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plugin-dir", required=True)
    parser.add_argument("--source-root", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    pages, kept = make_pages(args)
    if not args.check:
        write(args.out, pages, kept)
    elif compare(args.out, pages, kept):
        print("element-docs: the pages differ from the plugin and sources; "
              "to write them:\n  " + " ".join(
                  [os.path.normpath(sys.argv[0]), "--plugin-dir",
                   args.plugin_dir, "--source-root", args.source_root,
                   "--out", args.out]))
        sys.exit(1)


if __name__ == "__main__":
    main()
