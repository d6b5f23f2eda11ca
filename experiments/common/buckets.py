"""Grouping falcon_eval's per-instance lines (instances.jsonl, docs/evaluation.md): by size for
Table 2, by consistency for Table 5, and the means the tables print."""

# Table 2's caption: Small 10-30 nodes/jobs, Medium 40-60, Large 70-100. The same ranges are the
# test split's buckets in configs/data/<p>_paper.yaml, whose n (CVRP: with the depot) is the
# instance line's n, so a line's bucket follows from its n alone.
SIZE_BUCKETS = (("Small", 10, 30), ("Med.", 40, 60), ("Large", 70, 100))

# Table 5: Easy consistency > 0.7, Medium 0.3-0.7, Hard < 0.3. The paper leaves the two
# boundaries themselves open; they go to Medium here (its range is printed closed, "0.3--0.7").
CONSISTENCY_BUCKETS = ("Easy", "Medium", "Hard")


def size_bucket(n):
    """The Table 2 bucket of an instance of size n, or None when n lies between or outside them."""
    for name, lo, hi in SIZE_BUCKETS:
        if lo <= n <= hi:
            return name
    return None


def consistency_bucket(c):
    """Easy / Medium / Hard for a consistency value; None when it is undefined (null: greedy,
    solver rows)."""
    if c is None:
        return None
    if c > 0.7:
        return "Easy"
    if c < 0.3:
        return "Hard"
    return "Medium"


def group(lines, key):
    """{bucket: [lines]} for the lines whose key(line) is not None, in first-seen order."""
    out = {}
    for line in lines:
        k = key(line)
        if k is not None:
            out.setdefault(k, []).append(line)
    return out


def mean(values):
    values = [v for v in values if v is not None]
    return sum(values) / len(values) if values else None


def mean_gap(lines):
    """Mean gap (a fraction) over the lines with a feasible solution and a reference, as
    falcon_eval's gap_feasible; None when there is none."""
    return mean([line.get("gap") for line in lines])
