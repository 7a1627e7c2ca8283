# SPDX-License-Identifier: LGPL-2.1-or-later
"""Prometheus' text exposition format 0.0.4, read strictly, for the tests
of clhistogram-probe's /metrics: HELP then TYPE before each family's
samples, which come together; names, label names and label values as the
format writes them (backslash, double quote and line feed escaped, nothing
else); a number (NaN, +Inf and -Inf included) for each value."""
import math
import re
import shutil
import subprocess

NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
LABEL_NAME = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")
TYPES = ("counter", "gauge", "histogram", "summary", "untyped")


class Family:
    def __init__(self, name, help_text):
        self.name, self.help, self.type = name, help_text, None
        self.samples = []


def parse_labels(text, at, where):
    """`{name="value",...}` from text[at] ('{'); the labels and the index
    past the closing brace."""
    labels, at = {}, at + 1
    while text[at] != "}":
        m = LABEL_NAME.match(text, at)
        if not m or text[m.end():m.end() + 2] != '="':
            raise ValueError(f"{where}: a label is not name=\"value\"")
        name, at, value = m.group(), m.end() + 2, []
        while text[at] != '"':
            if text[at] == "\\":
                escaped = {"\\": "\\", '"': '"', "n": "\n"}.get(text[at + 1])
                if escaped is None:
                    raise ValueError(f"{where}: \\{text[at + 1]} in a label")
                value.append(escaped)
                at += 2
            else:
                value.append(text[at])
                at += 1
        if name in labels:
            raise ValueError(f"{where}: label {name} twice")
        labels[name] = "".join(value)
        at += 1
        if text[at] == ",":
            at += 1
        elif text[at] != "}":
            raise ValueError(f"{where}: labels not separated by ','")
    return labels, at + 1


def parse_value(text, where):
    if text in ("NaN", "+Inf", "-Inf"):
        return {"NaN": math.nan, "+Inf": math.inf, "-Inf": -math.inf}[text]
    if not re.fullmatch(r"[-+]?[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?", text):
        raise ValueError(f"{where}: {text!r} is not a number")
    return float(text)


def parse(text):
    """The families of the text, in order, each with its samples as
    (labels, value); ValueError saying where the text breaks the format."""
    if not text.endswith("\n"):
        raise ValueError("the text does not end with a line feed")
    families, current = [], None
    for number, line in enumerate(text[:-1].split("\n"), 1):
        where = f"line {number}"
        if line.startswith("# HELP "):
            name, _, help_text = line[7:].partition(" ")
            if not NAME.fullmatch(name) or any(f.name == name
                                               for f in families):
                raise ValueError(f"{where}: HELP of {name!r} again or bad")
            current = Family(name, help_text)
            families.append(current)
        elif line.startswith("# TYPE "):
            name, _, kind = line[7:].partition(" ")
            if not current or current.name != name or current.type \
                    or current.samples or kind not in TYPES:
                raise ValueError(f"{where}: TYPE of {name!r} out of place")
            current.type = kind
        elif line.startswith("#") or not line:
            raise ValueError(f"{where}: a comment or empty line")
        else:
            m = NAME.match(line)
            if not m or not current or m.group() != current.name \
                    or not current.type:
                raise ValueError(f"{where}: a sample out of its family")
            labels, at = ({}, m.end()) if line[m.end()] == " " else \
                parse_labels(line, m.end(), where)
            if line[at] != " ":
                raise ValueError(f"{where}: no space before the value")
            current.samples.append((labels, parse_value(line[at + 1:],
                                                        where)))
    return families


def samples(families):
    """{(family, frozenset of labels): value}, each series once."""
    table = {}
    for family in families:
        for labels, value in family.samples:
            key = (family.name, frozenset(labels.items()))
            if key in table:
                raise ValueError(f"{family.name} {labels} twice")
            table[key] = value
    return table


def series(name, **labels):
    return (name, frozenset(labels.items()))


# promtool check metrics' one remark on the probe's text: the linter keeps
# the quantile label for summaries, and clhistogram_quantile is a gauge of
# the last message (docs/probe.md, "Code values and their depth").
QUANTILE_REMARK = ('clhistogram_quantile non-summary metrics should not '
                   'have "quantile" label')


def promtool_lint(text):
    """What `promtool check metrics` finds wrong in @text beyond that one
    remark, as a list of lines (empty: nothing); None where promtool is
    not installed. Text it cannot parse (exit status 1) is a finding."""
    if not shutil.which("promtool"):
        return None
    lint = subprocess.run(["promtool", "check", "metrics"], input=text,
                          text=True, capture_output=True)
    said = set((lint.stdout + lint.stderr).splitlines()) - {QUANTILE_REMARK}
    # 3: lint remarks only; 1 would be text it cannot parse.
    if lint.returncode not in (0, 3):
        said.add(f"promtool exited {lint.returncode}")
    return sorted(said)
