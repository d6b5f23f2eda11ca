#!/usr/bin/env python3
"""Mean gap of every heuristic baseline to the known optima of ../shared/benchmarks, per family.

Runs build/tools/falcon_solve on each family's files and reads the optima from the family
READMEs (and jssp/bounds.csv). Writes a Markdown table next to this script.
Usage (from the repository root):
  experiments/heuristic_gaps/run_gaps.py                       # every heuristic -> results.md
  experiments/heuristic_gaps/run_gaps.py --method reference --family 'target' \
      --output results_reference.md                           # the reference solvers' target sets
Standard library only.
"""
import argparse, csv, glob, json, os, re, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BENCH = os.path.join(os.path.dirname(ROOT), "shared", "benchmarks")
SOLVE = os.path.join(ROOT, "build", "tools", "falcon_solve")

# family -> (problem, file globs, (table, column holding the optimum), filter on a result line)
FAMILIES = [
    ("TSPLIB n<=100", "tsp", ["tsp/instances/*.tsp"], ("tsp/README.md", "optimal length"), lambda r: r["n"] <= 100),
    ("TSPLIB 101-200", "tsp", ["tsp/instances/*.tsp"], ("tsp/README.md", "optimal length"), lambda r: r["n"] > 100),
    ("CVRPLIB A/B/E/P", "cvrp", ["cvrp/instances/[ABEP]-*.vrp"], ("cvrp/README.md", "BKS"), None),
    ("CVRPLIB X", "cvrp", ["cvrp/instances/X-*.vrp"], ("cvrp/README.md", "BKS"), None),
    ("OPLib", "op", ["op/oplib/instances/*.oplib"], ("op/README.md", "BKS score (EA4OP)"), None),
    ("Tsiligirides/Chao", "op", ["op/tsiligirides_chao/*/*.txt"], ("op/README.md", "optimum score"), None),
    ("BHOSLIB + DIMACS (MIS)", "mis", ["mis/bhoslib/*.mis", "mis/dimacs_clique/*.clq"], ("mis/README.md", "alpha (of the MIS instance)"), None),
    ("BHOSLIB + DIMACS (MVC)", "mvc", ["mis/bhoslib/*.mis", "mis/dimacs_clique/*.clq"], ("mis/README.md", "MVC"), None),
    ("Taillard ta001-030", "pfsp", ["pfsp/instances/ta0*.txt"], ("pfsp/README.md", "BKS makespan"), lambda r: int(r["instance"][2:]) <= 30),
    ("Taillard ta031-060", "pfsp", ["pfsp/instances/ta0*.txt"], ("pfsp/README.md", "BKS makespan"), lambda r: int(r["instance"][2:]) > 30),
    ("JSSP (ft, la, abz, orb, swv, yn, ta)", "jssp", ["jssp/instances/*.txt"], ("jssp/bounds.csv", "ub"), None),
    # The sets that the reference solvers' targets are stated on.
    ("target: TSPLIB n<=200", "tsp", ["tsp/instances/*.tsp"], ("tsp/README.md", "optimal length"), None),
    ("target: CVRPLIB A, B, P", "cvrp", ["cvrp/instances/[ABP]-*.vrp"], ("cvrp/README.md", "BKS"), None),
    ("target: OPLib", "op", ["op/oplib/instances/*.oplib"], ("op/README.md", "BKS score (EA4OP)"), None),
    ("target: Tsiligirides/Chao", "op", ["op/tsiligirides_chao/*/*.txt"], ("op/README.md", "optimum score"), None),
    ("target: MIS graphs", "mis", ["mis/bhoslib/*.mis", "mis/dimacs_clique/*.clq"], ("mis/README.md", "alpha (of the MIS instance)"), None),
    ("target: MVC graphs", "mvc", ["mis/bhoslib/*.mis", "mis/dimacs_clique/*.clq"], ("mis/README.md", "MVC"), None),
    ("target: Taillard ta001-030", "pfsp", ["pfsp/instances/ta0*.txt"], ("pfsp/README.md", "BKS makespan"), lambda r: int(r["instance"][2:]) <= 30),
    ("target: JSSP ft06, ft10, la01-la20", "jssp", ["jssp/instances/ft06.txt", "jssp/instances/ft10.txt"] + [f"jssp/instances/la{i:02d}.txt" for i in range(1, 21)], ("jssp/bounds.csv", "ub"), None),
]
MAXIMISE = {"op", "mis"}


def key_of(cell):
    """'dimacs_clique/C125.9.clq (use complement)' -> 'C125.9'."""
    name = os.path.basename(cell.split(" (")[0].strip())
    return re.sub(r"\.(clq|mis|txt|tsp|vrp|oplib)$", "", name)


def read_optima(path, column):
    full = os.path.join(BENCH, path)
    optima = {}
    if path.endswith(".csv"):
        with open(full) as f:
            for row in csv.DictReader(f):
                if row[column]:
                    optima[row["name"]] = float(row[column])
        return optima
    header = None
    with open(full) as f:
        for line in f:
            if not line.startswith("|"):
                header = None if not line.strip() else header
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if header is None:
                header = cells
                continue
            if set(cells[0]) <= set("-: ") or column not in header:
                continue
            # The leading number: "6141 (file: 6139)" is 6141; an empty cell is an open instance.
            value = re.match(r"\s*(-?\d+(?:\.\d+)?)", cells[header.index(column)])
            if value:
                optima.setdefault(key_of(cells[0]), float(value.group(1)))
    return optima


def heuristics_of(problem):
    """Every registered method of the problem except the reference solver (Table 2's rows)."""
    listing = subprocess.run([SOLVE, "--list"], capture_output=True, text=True, check=True).stdout
    for line in listing.splitlines():
        name, _, methods = line.partition(": ")
        if name == problem:
            return [m for m in methods.split() if m != "reference"]
    return []


def files_of(globs):
    out = []
    for g in globs:
        out += sorted(glob.glob(os.path.join(BENCH, g)))
    return sorted(set(out))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--time-limit", type=float, default=0, help="seconds per instance (0 = each method's own budget)")
    ap.add_argument("--method", default="all", help="one method, or all (heuristics: every method but reference)")
    ap.add_argument("--family", default="", help="regular expression on the family label")
    ap.add_argument("--output", default="results.md")
    args = ap.parse_args()
    rows = []
    families = [f for f in FAMILIES if re.search(args.family, f[0])] if args.family else [f for f in FAMILIES if not f[0].startswith("target")]
    for label, problem, globs, (table, column), size_filter in families:
        optima = read_optima(table, column)
        files = [f for f in files_of(globs) if key_of(f) in optima]
        methods = [args.method] if args.method != "all" else heuristics_of(problem)
        cmd = [SOLVE, "--problem", problem, "--time-limit", str(args.time_limit)] + files
        t0 = time.time()
        out = ""
        for method in methods:
            proc = subprocess.run(cmd[:3] + ["--method", method] + cmd[3:], capture_output=True, text=True)
            if proc.returncode != 0:
                print(f"{label}: falcon_solve failed: {proc.stderr.strip().splitlines()[-1]}", file=sys.stderr)
                continue
            out += proc.stdout
        per_method = {}
        for line in out.splitlines():
            r = json.loads(line)
            if size_filter and not size_filter(r):
                continue
            f_star = optima[r["instance"]]
            f = r["objective"]
            gap = (f_star - f) / abs(f_star) if problem in MAXIMISE else (f - f_star) / abs(f_star)
            m = per_method.setdefault(r["method"], {"gaps": [], "seconds": [], "feasible": 0})
            m["gaps"].append(gap)
            m["seconds"].append(r["seconds"])
            m["feasible"] += r["feasible"]
        for method, m in sorted(per_method.items()):
            k = len(m["gaps"])
            rows.append((label, method, k, m["feasible"], 100 * sum(m["gaps"]) / k, 100 * max(m["gaps"]), sum(m["seconds"]) / k, max(m["seconds"])))
        print(f"{label}: {len(files)} files in {time.time() - t0:.1f}s", file=sys.stderr)
    lines = ["| family | method | instances | feasible | mean gap % | worst gap % | mean seconds | max seconds |", "|---|---|---|---|---|---|---|---|"]
    lines += [f"| {a} | {b} | {c} | {d}/{c} | {e:.2f} | {f:.2f} | {g:.4f} | {h:.4f} |" for a, b, c, d, e, f, g, h in rows]
    text = "\n".join(lines)
    print(text)
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), args.output), "w") as f:
        f.write("# Methods vs known optima (../shared/benchmarks)\n\n")
        f.write("Made by `experiments/heuristic_gaps/run_gaps.py " + " ".join(sys.argv[1:]) + "` on a 2-core Debian 12 machine.\n")
        f.write("Gap = (f - f*)/|f*| when minimising, (f* - f)/|f*| when maximising; f* = the README's optimum or best known value\n")
        f.write("(negative: better than it; for CVRPLIB A/B/E/P that happens only with more routes than the k the value assumes).\n")
        f.write("Seconds are wall-clock per instance, one process, one thread.\n\n")
        f.write(text + "\n")


if __name__ == "__main__":
    main()
