#!/usr/bin/env python3
"""results.md of the release table: one line per released model from runs/release_table/<p>/eval/summary.json,
or, for a problem not run there, from its point archived by an earlier run (--archive).

Each configs/eval/release_<p>.yaml names its rows alike ("model alone", "FALCON N=8", ...), so the
columns are those names; a problem whose config lacks a row shows "-" there. Each problem's eval is
also kept as a point of the sweep `table1_released` under --archive (experiments/common's layout),
where Table 1 (small) reads its rows of the released models.
"""
import argparse
import datetime
import json
import pathlib
import sys

import yaml

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "common"))
from archive_points import archive_point  # noqa: E402

ORDER = ["tsp", "op", "cvrp", "mis", "mvc", "pfsp", "jssp", "all"]
GAP_ROWS = ["simple heuristic", "repair alone", "heuristic sampler N=8", "FALCON N=8",
            "heuristic sampler adaptive", "FALCON adaptive"]
PAIRS = [("FALCON adaptive", "repair alone"), ("FALCON adaptive", "heuristic sampler adaptive"),
         ("FALCON N=8", "heuristic sampler N=8"), ("model alone", "simple heuristic")]


def percent(x):
    return "-" if x is None else f"{100 * x:.2f}%"


def line(problem, summary):
    rows = {r["row"]: r for r in summary["rows"]}
    paired = {(p["row"], p["against"]): p for p in summary.get("paired", [])}
    alone = rows.get("model alone", {})
    cells = [problem, str(summary["instances"]),
             "-" if not alone else f"{100 * alone['feasible_raw']:.1f}%",
             percent(alone.get("gap_all")), percent(alone.get("gap_feasible"))]
    cells += [percent(rows[name]["gap_all"]) if name in rows else "-" for name in GAP_ROWS]
    for row, against in PAIRS:
        p = paired.get((row, against))
        cells.append("-" if p is None else f"{p['wins']} / {p['ties']} / {p['losses']}")
    return "| " + " | ".join(cells) + " |"


def keep_as_point(problem_dir, archive):
    """The eval of one problem as the point archive/table1_released/<problem>: point.json says what
    it ran (from the eval's resolved config.yaml), done its seconds (run.sh's count, when there is one)."""
    eval_dir = problem_dir / "eval"
    config = yaml.safe_load((eval_dir / "config.yaml").read_text())
    point = {"name": problem_dir.name, "program": "build/tools/falcon_eval",
             "config": f"configs/eval/release_{problem_dir.name}.yaml",
             "overrides": [f"threads={config['threads']}", f"data.limit={config['data']['limit']}",
                           f"model.path={config['model']['path']}", f"data.dataset={config['data']['dataset']}"],
             "values": {"problem": problem_dir.name}}
    (eval_dir / "point.json").write_text(json.dumps(point, indent=2) + "\n")
    seconds = problem_dir / "seconds"
    done = {"seconds": float(seconds.read_text())} if seconds.exists() else {}
    (eval_dir / "done").write_text(json.dumps(done) + "\n")
    target = pathlib.Path(archive) / "table1_released" / problem_dir.name
    target.parent.mkdir(parents=True, exist_ok=True)
    archive_point(str(eval_dir), str(target))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--command", required=True)
    parser.add_argument("--archive", help="keep each problem's eval as a Table 1 point here (experiments/points/small)")
    args = parser.parse_args()
    found = {}
    for summary in sorted(pathlib.Path(args.runs).glob("*/eval/summary.json")):
        found[summary.parent.parent.name] = json.loads(summary.read_text())
    if not found:
        raise SystemExit(f"release_table: no {args.runs}/<problem>/eval/summary.json: run experiments/release_table/run.sh")
    if args.archive:
        for problem in found:
            keep_as_point(pathlib.Path(args.runs) / problem, args.archive)
        # The problems not run this time keep their last archived line: runs on several machines add up.
        for summary in sorted(pathlib.Path(args.archive, "table1_released").glob("*/summary.json")):
            found.setdefault(summary.parent.name, json.loads(summary.read_text()))
    problems = sorted(found, key=lambda p: (ORDER.index(p) if p in ORDER else len(ORDER), p))
    header = ["problem", "instances", "model alone: valid", "model alone: gap", "model alone: gap of the valid"]
    header += GAP_ROWS + [f"{row} vs {against} (W / T / L)" for row, against in PAIRS]
    out = [
        "# The released models against their yardsticks",
        "",
        "Each released model (`models/<problem>/`) on the first instances of its held-out test split,",
        "made again from the card's data config, with `configs/eval/release_<problem>.yaml`. No label",
        "reaches inference (the output budget comes from the simple heuristic's text). Columns:",
        "",
        "- **model alone**: greedy, grammar and the text's computed notes on, repair off: the share of",
        "  valid answers, the gap over all answers (an invalid one counts 100%) and the gap of the valid.",
        "- **simple heuristic** (nearest neighbour, greedy, NEH, ...), **repair alone** (repair of an",
        "  empty answer), the **heuristic sampler** (the same text, notes, repair and sampling rule with",
        "  no model: rank r of the heuristic's order with probability proportional to q^r, q chosen on",
        "  the validation split; docs/evaluation.md), and FALCON (grammar, notes, repair; N=8, or",
        "  adaptive 8..64 at tau 0.85; the samples as the release config draws them: T 0.7, or a T or",
        "  symmetric copies chosen on the validation split, as its card says): gap over all instances,",
        "  repair on.",
        "- **W / T / L**: instances where the first row's gap is lower / equal / higher.",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "---|" * 2 + "---:|" * (len(header) - 2),
    ]
    out += [line(p, found[p]) for p in problems]
    out += [
        "",
        f"Made {datetime.date.today().isoformat()} by:",
        "",
        "```sh",
        f"{args.command}",
        "```",
        "",
    ]
    pathlib.Path(args.out).write_text("\n".join(out))
    print(f"release_table: wrote {args.out} ({len(problems)} problems)")


if __name__ == "__main__":
    main()
