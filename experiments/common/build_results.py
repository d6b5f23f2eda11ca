#!/usr/bin/env python3
"""Writes one experiment's results.md / results.tex / results.csv (and a figure's PNG): the
paper's numbers (paper_tables.py) beside ours, read from the falcon_eval points that
tools/falcon_sweep.py left under RUNS. Runs nothing; reads only what is on disk, so it can be
rerun at any time (each experiments/*/run.sh calls it last).

  experiments/common/build_results.py table1 --runs runs/experiments/small \\
      --out experiments/table1_main/results --scale small --command 'experiments/table1_main/run.sh'

Keys: table1..table5, fig_repair, fig_bopo_vs_grpo. Cells without a finished run say why
("not run", "failed", ...); no number is ever filled in from elsewhere.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import figures  # noqa: E402
import render  # noqa: E402
from paper_tables import FIGURES, TABLES  # noqa: E402
from runs import RunsError  # noqa: E402
from specs import TABLE_SPECS  # noqa: E402

SCALES = {
    "small": "small: the CPU recipes' models (configs/<recipe>_<p>.yaml: 4 x 128 layers, 1.4M parameters, "
             "the compact texts that learn (ranked notes for OP / CVRP / MIS / MVC, insertions for PFSP), "
             "SFT then 60 steps of BOPO / GRPO / FOARL each from the same SFT checkpoint "
             "(experiments/common/train_models.sh); each BOPO is its configs/bopo_<p>.yaml, which on CVRP "
             "adds two options beyond the paper: infeasible samples as losers and the loss on the model's "
             "picks only) evaluated on the test split of the dataset each SFT recipe "
             "trains on (TSP / OP / CVRP n = 20, MIS / MVC Erdos-Renyi n = 50, PFSP 20 x 5, JSSP 6 x 6): all of it, "
             "or the first LIMIT when the command sets it; the models, data and instance count of each point "
             "are listed under Runs. The rows 'released model' and 'Heuristic sampler' are the released "
             "models (models/<p>) and the model-free sampler, from experiments/release_table/run.sh (no "
             "training; MVC on its first 50 instances). The SFT only, GRPO and LLMCoSolver rows were run before a row with the grammar off "
             "got the notes its text needs: their 0% on OP, CVRP, MIS and MVC says the notes were missing, "
             "not what the model writes; their models were lost with their machine "
             "(experiments/common/train_models.sh trains them again).",
    "paper": "paper: models trained at the paper's scale into runs/paper/<recipe>_<p>/final (Table 7's "
             "settings, configs/data/<p>_paper.yaml: 500K training instances) evaluated on the 100 test "
             "instances of configs/data/<p>_paper.yaml; the models and data each point used are listed under Runs.",
}


def build(key, runs, out, scale, command):
    """Writes out + .md/.tex/.csv for one table or figure; returns the Markdown path."""
    scale_text = SCALES.get(scale, scale)
    if key in TABLES:
        paper = TABLES[key]
        ours = TABLE_SPECS[key](runs)
        points = list(ours.points.values())
        render.write(out, render.markdown(paper, ours, scale_text, command, points),
                     render.latex(paper, ours, scale_text, command, points), render.csv_text(paper, ours))
        return out + ".md"
    fig = FIGURES[key]
    collect, claims_of, plot, png_name = figures.FIGURE_SPECS[key]
    points, data, columns = collect(runs)
    claims = claims_of(data)
    png = None
    if data:  # a picture only of what was run; none at all before anything is
        png_path = os.path.join(os.path.dirname(out) or ".", png_name)
        os.makedirs(os.path.dirname(png_path), exist_ok=True)
        plot(data, png_path)
        png = png_name
    status = render._status_line(points)
    render.write(out, figures.markdown(fig, status, scale_text, command, points, data, columns, claims, png),
                 figures.latex(fig, status, scale_text, command, data, columns, claims),
                 figures.csv_text(fig, data, columns, claims))
    return out + ".md"


def main(argv=None):
    keys = list(TABLES) + list(FIGURES)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("key", choices=keys)
    ap.add_argument("--runs", required=True, action="append",
                    help="the sweeps' root, e.g. runs/experiments/small; again for another root read after it "
                         "(the points archive_points.py kept)")
    ap.add_argument("--out", required=True, help="path without extension, e.g. experiments/table1_main/results")
    ap.add_argument("--scale", required=True, help="small, paper, or a sentence describing the scale")
    ap.add_argument("--command", required=True, help="the command that runs this experiment (written into the files)")
    args = ap.parse_args(argv)
    try:
        print(build(args.key, args.runs, args.out, args.scale, args.command))
    except RunsError as e:
        print(f"build_results: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
