#!/usr/bin/env python3
"""Two seeds of one recipe from curves.py's tables: seeds.md (side by side at equal steps) and
seeds.png (raw validity and greedy gap against the step).

usage: seeds.py [--out DIR] [--what TEXT] NAME=TABLES.md:SECTION[,SECTION...] NAME=...
  (TEXT: the recipe and its held-out decoding, for the heading; default the TSP-20 curves')

Each argument names a seed and the tables.md sections (runs) that make its curve, in order, e.g.
  seeds.py "seed 1=tables.md:compact_k4,compact_k4_cooldown" "seed 2=tables_seed2.md:compact_k4_seed2,compact_k4_seed2_cooldown"
A run that continues another (its cooldown) already counts its steps from the start of the first.
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from curves import out_dir_and_args  # noqa: E402


def read_sections(path):
    """section name -> {step: (minutes, loss, valid, raw gap, repaired gap)} from a tables.md."""
    out, name = {}, None
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("## "):
                name = line[3:]
                out[name] = {}
            elif name and line.startswith("| ") and line[2].isdigit():
                cells = [c.strip() for c in line.strip("|").split("|")]
                step = int(cells[0])
                out[name][step] = tuple(float(c) for c in (cells[2], cells[3], cells[4], cells[5], cells[6]))
    return out


def curve(spec, base_dir):
    """(name, {step: row}) from NAME=TABLES.md:SECTION,SECTION."""
    name, _, rest = spec.partition("=")
    path, _, sections = rest.partition(":")
    if not name or not path or not sections:
        sys.exit(f"seeds.py: '{spec}' is not NAME=TABLES.md:SECTION[,SECTION...]")
    tables = read_sections(path if os.path.isabs(path) else os.path.join(base_dir, path))
    rows = {}
    for section in sections.split(","):
        if section not in tables:
            sys.exit(f"seeds.py: {path} has no section '{section}' (has: {', '.join(tables)})")
        rows.update(tables[section])
    return name, rows


def main():
    out, args = out_dir_and_args(sys.argv[1:], __doc__)
    what = "TSP-20 (greedy, grammar on, repair off; 200 held-out instances)"
    if args[:1] == ["--what"]:
        if len(args) < 4:
            sys.exit(__doc__)
        what, args = args[1], args[2:]
    curves = [curve(a, os.path.dirname(os.path.abspath(__file__))) for a in args]
    steps = sorted(set().union(*(rows.keys() for _, rows in curves)))
    header = "| step | " + " | ".join(f"{n}: minutes | {n}: valid % | {n}: gap % (valid)" for n, _ in curves) + " |"
    lines = ["# Seeds of one recipe, " + what, "",
             "Made by `seeds.py " + " ".join(f'"{a}"' for a in args) + "`.", "", header,
             "|---:|" + "---:|" * (3 * len(curves))]
    for step in steps:
        cells = []
        for _, rows in curves:
            r = rows.get(step)
            cells += [f"{r[0]:.1f}", f"{r[2]:.1f}", f"{r[3]:.1f}"] if r else ["-", "-", "-"]
        lines.append(f"| {step} | " + " | ".join(cells) + " |")
    with open(os.path.join(out, "seeds.md"), "w") as f:
        f.write("\n".join(lines) + "\n")

    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for name, rows in curves:
        s = sorted(rows)
        axes[0].plot(s, [rows[k][2] for k in s], marker="o", ms=3, label=name)
        axes[1].plot(s, [rows[k][3] for k in s], marker="o", ms=3, label=name)
    axes[0].set(title="valid solutions (greedy, no repair)", xlabel="SFT step (32 sequences each)", ylabel="%", ylim=(0, 101))
    axes[1].set(title="gap of the valid solutions", xlabel="SFT step (32 sequences each)", ylabel="%", yscale="log")
    for ax in axes:
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "seeds.png"), dpi=110)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
