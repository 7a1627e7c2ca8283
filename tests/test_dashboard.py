#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The Grafana dashboard's structure, without Grafana or Prometheus: the
JSON loads; its variables are the datasource (Prometheus), the probes
($instance) and the cameras ($input, label_values of
clhistogram_input_up); every panel but the rows queries that datasource
with at least one PromQL target, each with its own refId, brackets and
quotes that pair, and only variables the dashboard or Grafana defines;
panel ids are unique and each panel fits the 24-column grid. Then the
same check on broken copies (a panel without targets, one on another
datasource, an undefined variable, an unclosed bracket) must fail, each
for its own reason. (tests/test_dashboard_prometheus.py runs the queries
against Prometheus.)

    test_dashboard.py DASHBOARD.json
"""
import copy
import sys

import dashboard as dash

DATASOURCE = {"type": "prometheus", "uid": "${datasource}"}
PAIRS = {")": "(", "]": "[", "}": "{"}


def balanced(expr):
    """Whether expr's brackets pair, outside its double-quoted strings."""
    stack, quoted, escaped = [], False, False
    for c in expr:
        if quoted:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                quoted = False
        elif c == '"':
            quoted = True
        elif c in "([{":
            stack.append(c)
        elif c in PAIRS:
            if not stack or stack.pop() != PAIRS[c]:
                return False
    return not stack and not quoted


def check_variables(board, problems):
    variables = dash.variables(board)
    source = variables.get("datasource", {})
    if source.get("type") != "datasource" or source.get("query") != "prometheus":
        problems.append("no datasource variable of type prometheus")
    for name, metric_label in (("instance", "instance"), ("input", "input")):
        query = dash.variable_query(variables.get(name, {})) or ""
        if not (query.startswith("label_values(clhistogram_input_up")
                and query.endswith(f", {metric_label})")):
            problems.append(f"${name} is not label_values(clhistogram_input_up"
                            f"..., {metric_label}): {query!r}")
    return set(variables) | dash.GRAFANA_VARIABLES


def check_panel(panel, known, problems):
    title = panel.get("title") or f"panel {panel.get('id')}"
    if panel.get("datasource") != DATASOURCE:
        problems.append(f"{title}: datasource {panel.get('datasource')}, "
                        f"not {DATASOURCE}")
    targets = panel.get("targets") or []
    if not targets:
        problems.append(f"{title}: no targets")
    refs = [t.get("refId") for t in targets]
    if len(set(refs)) != len(refs) or not all(refs):
        problems.append(f"{title}: refIds {refs} not unique")
    for target in targets:
        expr = target.get("expr", "")
        where = f"{title} {target.get('refId')}"
        if not expr.strip():
            problems.append(f"{where}: no expr")
        if target.get("datasource", DATASOURCE) != DATASOURCE:
            problems.append(f"{where}: datasource {target.get('datasource')}")
        if not balanced(expr):
            problems.append(f"{where}: brackets or quotes do not pair: {expr}")
        for name in dash.used_variables(expr + target.get("legendFormat", "")) - known:
            problems.append(f"{where}: ${name} is not a variable")
    for name in dash.used_variables(title) - known:
        problems.append(f"{title}: ${name} in the title is not a variable")


def check_grid(board, problems):
    ids = [p.get("id") for p in board.get("panels", [])]
    ids += [p.get("id") for p in board.get("panels", [])
            for p in p.get("panels", [])]
    if len(set(ids)) != len(ids) or None in ids:
        problems.append(f"panel ids not unique: {ids}")
    for panel in board.get("panels", []):
        grid = panel.get("gridPos", {})
        if not all(isinstance(grid.get(k), int) for k in "xywh") \
                or grid["x"] + grid["w"] > 24:
            problems.append(f"{panel.get('title')}: gridPos {grid}")


def problems_of(board):
    problems = []
    for key in ("uid", "title", "schemaVersion"):
        if not board.get(key):
            problems.append(f"no {key}")
    known = check_variables(board, problems)
    check_grid(board, problems)
    for panel in dash.panels(board):
        check_panel(panel, known, problems)
    return problems


def broken_copies(board):
    """(what is broken, the word its problem must say, the copy)."""
    def first(b):
        return next(iter(dash.panels(b)))

    no_targets = copy.deepcopy(board)
    first(no_targets)["targets"] = []
    other_source = copy.deepcopy(board)
    first(other_source)["datasource"] = {"type": "loki", "uid": "logs"}
    undefined = copy.deepcopy(board)
    first(undefined)["targets"][0]["expr"] += ' + on() vector($camera)'
    unclosed = copy.deepcopy(board)
    first(unclosed)["targets"][0]["expr"] = "sum(clhistogram_input_up"
    return [("a panel without targets", "no targets", no_targets),
            ("a panel on Loki", "datasource", other_source),
            ("an undefined $camera", "$camera", undefined),
            ("an unclosed bracket", "do not pair", unclosed)]


def main():
    board = dash.load(sys.argv[1])
    failed = False
    problems = problems_of(board)
    for problem in problems:
        print("FAIL:", problem)
    failed |= bool(problems)
    n = sum(1 for _ in dash.panels(board))
    print(f"{n} panels, {sum(1 for _ in dash.queries(board))} queries, "
          f"{len(problems)} problems")
    for what, word, broken in broken_copies(board):
        found = problems_of(broken)
        if any(word in p for p in found):
            print(f"ok: {what} is refused: {[p for p in found if word in p][0]}")
        else:
            print(f"FAIL: {what} is not refused ({found})")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
