# SPDX-License-Identifier: LGPL-2.1-or-later
"""deploy/grafana/clhistogram.json read as Grafana reads it: its panels
(those of collapsed rows too), their PromQL queries and its template
variables, and each query with the variables given values, as Grafana
sends it to Prometheus. For tests/test_dashboard.py (the dashboard's
structure) and tests/test_dashboard_prometheus.py (its queries against a
real Prometheus)."""
import json
import re

# The variables Grafana itself defines that the dashboard may use
# (Grafana's "Global variables" page).
GRAFANA_VARIABLES = {"__rate_interval", "__interval", "__range",
                     "__range_s", "__interval_ms"}

# $name, ${name} or ${name:format}, as Grafana's template syntax has them.
VARIABLE = re.compile(r"\$(?:\{(\w+)(?::\w+)?\}|(\w+))")


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def panels(dashboard):
    """Every panel but the rows, in order, a collapsed row's own panels
    included."""
    for panel in dashboard.get("panels", []):
        if panel.get("type") == "row":
            yield from panel.get("panels", [])
        else:
            yield panel


def variables(dashboard):
    """{name: variable} of the dashboard's templating."""
    return {v["name"]: v for v in dashboard.get("templating", {}).get("list", [])}


def variable_query(variable):
    """A query variable's query text (Grafana writes it as a string or as
    {"query": ...})."""
    query = variable.get("query")
    return query.get("query") if isinstance(query, dict) else query


def used_variables(text):
    return {a or b for a, b in VARIABLE.findall(text)}


def substitute(text, values):
    """text with each variable replaced by values[name]; KeyError names a
    variable without a value."""
    return VARIABLE.sub(lambda m: values[m.group(1) or m.group(2)], text)


def queries(dashboard):
    """(panel title, refId, expr, instant) of every target."""
    for panel in panels(dashboard):
        for target in panel.get("targets", []):
            yield (panel.get("title", ""), target.get("refId", ""),
                   target.get("expr", ""), bool(target.get("instant")))
