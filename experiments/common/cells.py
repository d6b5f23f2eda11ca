"""A table cell of ours: a formatted number, or why there is none. Never a made-up value: every
number comes from a finished falcon_eval point, every other cell says what is missing."""
from dataclasses import dataclass

# Why a cell has no number, in the words the results files use.
NOT_RUN = "not run"              # the point was never started
FAILED = "failed"                # falcon_sweep wrote 'failed' (its log.txt says why)
INTERRUPTED = "interrupted"      # started, never finished
NO_INSTANCES = "no instances"    # the point ran, but no instance falls in this bucket
NOT_AVAILABLE = "not available"  # a method this project does not have (OR-Tools), or a point run.sh skips (runs.py)
OVER_CONTEXT = "over context"    # every instance of the bucket was too long for the model (data.over_context)
NONE_FEASIBLE = "none feasible"  # instances ran, none has a feasible solution, so there is no gap to average
NOT_APPLICABLE = "--"            # the paper prints "--" here too (NEH on JSSP)
QUOTED = "quoted"                # hosted LLM rows: the paper's number only
MISSING = (NOT_RUN, FAILED, INTERRUPTED)


@dataclass(frozen=True)
class Cell:
    text: str
    value: float = None          # the exact number behind text (CSV), None when there is none
    status: str = "ok"           # ok, partial (a mean over fewer entries than the paper's), or a word above


def why(status):
    """The cell of a point that has no results: its falcon_sweep status."""
    return Cell(status, None, status)


def number(value, fmt):
    return Cell(fmt(value), value) if value is not None else Cell(NO_INSTANCES, None, NO_INSTANCES)


def mean_of(cells, fmt, total):
    """The mean of the cells that hold numbers (Table 1's time, Table 4's Avg.). When only some
    do, the cell says over how many of `total` ("1.23 (2 of 7)") so it never reads as the full mean."""
    values = [c.value for c in cells if c.value is not None]
    if not values:
        statuses = [c.status for c in cells]
        return why(next((s for s in MISSING if s in statuses), NOT_RUN))
    m = sum(values) / len(values)
    if len(values) < total:
        return Cell(f"{fmt(m)} ({len(values)} of {total})", m, "partial")
    return Cell(fmt(m), m)


# Formats, matched to the paper's printing where it has one.
def pct(v):
    """Feasibility in %: the paper prints integers (of 100 instances); a fraction of fewer shows one decimal."""
    return f"{v:.0f}" if abs(v - round(v)) < 0.05 else f"{v:.1f}"


def gap(v):
    return f"{v:.2f}"


def seconds(v):
    return f"{v:.3g}"


def seconds_s(v):
    return f"{v:.3g}s"


def samples(v):
    return f"{v:.1f}"


def share(v):
    return f"{v:.0f}%"
