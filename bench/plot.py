#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Plots a device-bench.sh run: latency per kernel variant and per transfer
path, against the CUB anchor of the same call, and the padding study.

    bench/plot.py OUT_DIR docs/performance.png

OUT_DIR holds bench.json and cub.txt from bench/device-bench.sh. Needs
matplotlib (Debian: python3-matplotlib); not part of the tests."""
import json
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def cub_figures(path):
    """{(format, content): (resident_us, e2e_us)} from cub_hist's output."""
    out = {}
    pattern = re.compile(r"CUB (\w+) (\w+) 600x480: device-resident ([\d.]+) "
                         r"us/frame .* end-to-end median ([\d.]+) us")
    with open(path) as f:
        for line in f:
            m = pattern.search(line)
            if m:
                out[(m[1], m[2])] = (float(m[3]), float(m[4]))
    return out


def short(case):
    """'GRAY8 luma 600x480 uniform 256 bins' -> 'GRAY8 600x480\\nuniform'."""
    f = case.split()
    return f"{f[0]} {f[2]}\n{f[3]}"


def plot_variants(ax, bench, cub):
    cases = sorted({v["case"] for v in bench["variants"]},
                   key=lambda c: [v["case"] for v in bench["variants"]].index(c))
    variants = ["local-atomics", "replicated", "per-work-item"]
    width = 0.8 / (len(variants) + 1)
    for i, name in enumerate(variants):
        ys = [next(v["kernel_us"] for v in bench["variants"]
                   if v["case"] == c and v["launch"]["variant"] == name)
              for c in cases]
        ax.bar([x + i * width for x in range(len(cases))], ys, width,
               label=name)
    ys = [cub.get((c.split()[0], "degenerate" if "one-value" in c
                   else "uniform"), (0, 0))[0] for c in cases]
    ax.bar([x + len(variants) * width for x in range(len(cases))], ys, width,
           label="CUB (same call)", color="black")
    ax.set_xticks([x + 0.4 - width / 2 for x in range(len(cases))])
    ax.set_xticklabels([short(c) for c in cases], fontsize=7)
    ax.set_ylabel("kernel, frame on the device (us)")
    ax.set_title("Kernel time per variant")
    ax.legend(fontsize=7)


def plot_paths(ax, bench, cub):
    rows = [r for r in bench["e2e"]
            if r["width"] == 600 and r["content"] == "uniform"]
    formats = [f for f in ("GRAY8", "RGBA", "NV12")
               if any(r["format"] == f for r in rows)]
    paths = [p for p in dict.fromkeys(r["path"] for r in rows)]
    width = 0.8 / (len(paths) + 1)
    for i, path in enumerate(paths):
        ys = [next(r["e2e_us"]["p50"] for r in rows
                   if r["format"] == f and r["path"] == path)
              for f in formats]
        ax.bar([x + i * width for x in range(len(formats))], ys, width,
               label=path)
    ys = [cub.get((f, "uniform"), (0, 0))[1] for f in formats]
    ax.bar([x + len(paths) * width for x in range(len(formats))], ys, width,
           label="CUB e2e (pinned)", color="black")
    ax.set_xticks([x + 0.4 - width / 2 for x in range(len(formats))])
    ax.set_xticklabels([f"{f} 600x480" for f in formats], fontsize=8)
    ax.set_ylabel("host frame to host bins, median (us)")
    ax.set_title("End to end per transfer path")
    ax.legend(fontsize=7)


def plot_padding(ax, bench):
    rows = bench.get("padding", [])
    for variant in ("per-work-item", "replicated"):
        for content in ("uniform", "one-value", "real"):
            pts = {}
            for r in rows:
                if r["variant"] == variant and r["content"] == content:
                    pts.setdefault(r["bins"], {})[r["padding"]] = r["kernel_us"]
            if not pts:
                continue
            bins = sorted(pts)
            gain = [100 * (pts[b][0] / pts[b][1] - 1) for b in bins]
            ax.plot(range(len(bins)), gain, marker="o",
                    label=f"{variant}, {content}")
            ax.set_xticks(range(len(bins)))
            ax.set_xticklabels(bins)
    ax.axhline(0, color="grey", linewidth=0.5)
    ax.axhspan(42, 88, color="orange", alpha=0.2, label="paper's 42-88%")
    ax.set_xlabel("bins (GRAY8 600x480)")
    ax.set_ylabel("padding speed-up of the kernel (%)")
    ax.set_title("The paper's padding, today")
    ax.legend(fontsize=7)


def main():
    out, png = sys.argv[1], sys.argv[2]
    with open(f"{out}/bench.json") as f:
        bench = json.load(f)
    cub = cub_figures(f"{out}/cub.txt")
    fig, axes = plt.subplots(1, 3, figsize=(18, 5))
    plot_variants(axes[0], bench, cub)
    plot_paths(axes[1], bench, cub)
    plot_padding(axes[2], bench)
    fig.suptitle(f"clhistogram on {bench['device']} (driver "
                 f"{bench['driver']}), one device call with CUB")
    fig.tight_layout()
    fig.savefig(png, dpi=100)


if __name__ == "__main__":
    main()
