#!/usr/bin/env python3
"""Fills the ${NAME} placeholders of a sweep template (experiments/common/problems.sweep.yaml,
experiments/table2_heuristics/heuristics.sweep.yaml) and writes the sweep file that
tools/falcon_sweep.py runs. A template holds paths that depend on the scale (models, datasets,
output folder); the scale switch of experiments/common/lib.sh gives them.

  experiments/common/expand_sweep.py TEMPLATE OUT.yaml NAME=VALUE...

A placeholder without a value, or a value no placeholder uses, is one error line (exit 2):
a silently unfilled path would only fail later, inside a program.
"""
import os
import re
import string
import sys


def expand(text, values):
    used = {m.group(1) or m.group(2) for m in re.finditer(r"\$(?:\{(\w+)\}|(\w+))", text)}
    missing = sorted(used - set(values))
    if missing:
        raise ValueError(f"no value for ${{{missing[0]}}} (give {missing[0]}=...)")
    unused = sorted(set(values) - used)
    if unused:
        raise ValueError(f"{unused[0]} is given but the template has no ${{{unused[0]}}}")
    return string.Template(text).substitute(values)


def main(argv):
    if len(argv) < 2:
        print("usage: expand_sweep.py TEMPLATE OUT.yaml NAME=VALUE...", file=sys.stderr)
        return 2
    template, out, pairs = argv[0], argv[1], argv[2:]
    bad = next((p for p in pairs if "=" not in p), None)
    if bad:
        print(f"expand_sweep: '{bad}' is not NAME=VALUE", file=sys.stderr)
        return 2
    values = dict(p.split("=", 1) for p in pairs)
    try:
        with open(template, encoding="utf-8") as f:
            text = expand(f.read(), values)
    except (OSError, ValueError) as e:
        print(f"expand_sweep: {template}: {e}", file=sys.stderr)
        return 2
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    header = f"# Made from {template} by experiments/common/expand_sweep.py; edit the template, not this file.\n"
    tmp = out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(header + text)
    os.replace(tmp, out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
