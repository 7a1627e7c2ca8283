#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Plots clh-streams-bench's JSON: aggregate frames/s and CPU time per frame
against the number of concurrent streams, one line per pool x frames in
flight (post-messages off), per format, against the target (80 % of
the best single stream); and the start-up times, program cache cold, warm
and off, with the driver's own cache as it is and off.

    /usr/bin/python3 bench/plot-streams.py OUT_DIR/streams.json \\
        [docs/performance-streams.png]

Needs matplotlib (Debian: python3-matplotlib); not part of the tests."""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def measured(rows, fmt):
    """The format's clhistogram rows with messages off that ran."""
    return [r for r in rows if r["format"] == fmt and r["histogram"]
            and not r["post_messages"] and not r["skipped"]]


def series(rows):
    """{(pool, in_flight): [(streams, row), ...]}, streams ascending."""
    out = {}
    for r in rows:
        out.setdefault((r["pool"], r["in_flight"]), []).append(
            (r["streams"], r))
    return {k: sorted(v, key=lambda p: p[0]) for k, v in sorted(out.items())}


def label(pool, in_flight):
    flight = "auto" if in_flight == 0 else in_flight
    return f"pool {'on' if pool else 'off'}, {flight} in flight"


def style(pool):
    return "-" if pool else "--"


def colour(in_flight, flights):
    """One colour per frames in flight, pool on and off alike."""
    return f"C{sorted(flights).index(in_flight)}"


def single_best(rows, fmt):
    """The best single-stream aggregate of the format, messages or not."""
    ones = [r["aggregate_fps"] for r in rows if r["format"] == fmt
            and r["histogram"] and r["streams"] == 1 and not r["skipped"]]
    return max(ones) if ones else None


def streams_axis(ax, rows):
    ticks = sorted({r["streams"] for r in rows})
    ax.set_xscale("log", base=2)
    ax.set_xticks(ticks)
    ax.set_xticklabels([str(t) for t in ticks])
    ax.set_xlabel("concurrent streams (one pipeline each)")


def plot_throughput(ax, data, fmt):
    rows = measured(data["rows"], fmt)
    flights = {r["in_flight"] for r in rows}
    for (pool, flight), pts in series(rows).items():
        ax.plot([s for s, _ in pts], [r["aggregate_fps"] for _, r in pts],
                style(pool), color=colour(flight, flights), marker="o",
                label=label(pool, flight))
    best = single_best(data["rows"], fmt)
    if best:
        target = data.get("target_ratio", 0.8)
        ax.axhline(target * best, color="black", linewidth=0.8, linestyle=":",
                   label=f"{target:.0%} of the best single stream")
    streams_axis(ax, rows)
    ax.set_ylim(bottom=0)
    ax.set_ylabel("frames/s, all streams together (median run)")
    ax.set_title(f"{fmt} {data['width']}x{data['height']}, "
                 f"{rows[0]['mode'] if rows else ''} {data['bins']} bins")
    ax.legend(fontsize=7)


def plot_cpu(ax, data, fmt):
    rows = measured(data["rows"], fmt)
    flights = {r["in_flight"] for r in rows}
    for (pool, flight), pts in series(rows).items():
        ax.plot([s for s, _ in pts], [r["cpu_us_per_frame"] for _, r in pts],
                style(pool), color=colour(flight, flights), marker="o",
                label=label(pool, flight))
    streams_axis(ax, rows)
    ax.set_ylim(bottom=0)
    ax.set_ylabel("process CPU time per frame (us, user+sys)")
    ax.set_title(f"{fmt}: host CPU per frame")
    ax.legend(fontsize=7)


def plot_startup(ax, data):
    rows = data.get("startup") or []
    caches = [c for c in ("cold", "warm", "off")
              if any(r["cache"] == c for r in rows)]
    drivers = [d for d in ("default", "off")
               if any(r["driver_cache"] == d for r in rows)]
    width = 0.8 / max(len(drivers), 1)
    for i, drv in enumerate(drivers):
        ys = [next((r["median_ms"] for r in rows if r["cache"] == c
                    and r["driver_cache"] == drv), 0) for c in caches]
        bars = ax.bar([x + i * width for x in range(len(caches))], ys, width,
                      label=f"driver's kernel cache {drv}")
        ax.bar_label(bars, fmt="%.0f", fontsize=7)
    if "Portable Computing Language" in (data.get("platform") or ""):
        ax.axhline(data.get("target_warm_ms", 50), color="red",
                   linewidth=0.8, linestyle=":", label="target, warm on PoCL")
    ax.set_xticks([x + 0.4 - width / 2 for x in range(len(caches))])
    ax.set_xticklabels([f"program cache {c}" for c in caches], fontsize=8)
    ax.set_yscale("log")
    ax.set_ylabel("PLAYING to first buffer, median (ms)")
    ax.set_title("Start-up in a fresh process")
    ax.legend(fontsize=7)


def main():
    path = sys.argv[1]
    png = sys.argv[2] if len(sys.argv) > 2 else "docs/performance-streams.png"
    with open(path) as f:
        data = json.load(f)
    formats = list(dict.fromkeys(r["format"] for r in data["rows"]))
    has_startup = bool(data.get("startup"))
    cols = len(formats) + has_startup
    if cols == 0:
        sys.exit(f"{path} holds no rows and no start-up times")
    fig, axes = plt.subplots(2, cols, figsize=(6 * cols, 9), squeeze=False)
    for i, fmt in enumerate(formats):
        plot_throughput(axes[0][i], data, fmt)
        plot_cpu(axes[1][i], data, fmt)
    if has_startup:
        plot_startup(axes[0][-1], data)
        axes[1][-1].axis("off")
    fig.suptitle(f"clhistogram, concurrent streams in one process, on "
                 f"{data['device']} ({data['platform']}, driver "
                 f"{data['driver']})")
    fig.tight_layout()
    fig.savefig(png, dpi=100)


if __name__ == "__main__":
    main()
