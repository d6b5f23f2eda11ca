#!/usr/bin/env python3
"""Where a ranked-text model's choices fall in the notes it was given (MIS or MVC, compact_ranked,
decoded with computed notes, so every note is true).

usage: ranked_choices.py [--row NAME] EVAL_DIR...
  (EVAL_DIR: a falcon_eval output folder, e.g. run.sh's <run>/eval/step_N; NAME: the row whose
  answers are read, default greedy_raw; "model alone, computed notes" in eval_full_state.yaml)

A ranked text writes after each chosen vertex the vertices still worth choosing, greedy's pick
first (MIS: the free vertices, fewest free neighbours first; MVC: the vertices with uncovered
edges, most first). Every choice after the first is placed by its rank in the note before it:
first, second, third or lower, or outside the note. Per answer, its first choice outside the note
is a repeat of an earlier choice or another vertex (for MIS a conflict; for MVC a vertex that
covers nothing new); and an answer may close while its last note still lists vertices (a MIS set
that is not maximal, an MVC cover with edges left). A looping answer repeats until its token
budget runs out, so the per-answer columns say more than the per-choice ones. Prints one table
row per EVAL_DIR.
"""
import collections
import json
import os
import re
import sys

ITEM = re.compile(r"#(\d+) \(([^()\[\]]*)\)")


def choice_ranks(text, counts):
    """Adds one answer's choices to `counts` (a Counter); returns its first choice outside the
    note ("a repeat", "another vertex" or "") and whether it closed with the note not empty."""
    items = [(int(v), [int(w) for w in re.findall(r"#(\d+)", note)]) for v, note in ITEM.findall(text)]
    chosen, previous_note, first_outside = set(), None, ""
    for v, note in items:
        if previous_note is not None:
            if v in previous_note:
                counts[("first", "second", "third or lower")[min(previous_note.index(v), 2)]] += 1
            else:
                counts["outside"] += 1
                first_outside = first_outside or ("a repeat" if v in chosen else "another vertex")
        chosen.add(v)
        previous_note = note
    return first_outside, bool(items) and bool(previous_note)


def main():
    args = sys.argv[1:]
    row = "greedy_raw"
    if args[:1] == ["--row"]:
        if len(args) < 2:
            sys.exit("ranked_choices.py: --row takes a row name")
        row, args = args[1], args[2:]
    if not args:
        sys.exit(__doc__)
    kinds = ("first", "second", "third or lower", "outside")
    print("| eval | answers | raw valid | choices: " + " | ".join(kinds) + " the note | answers first outside it: "
          "a repeat | another vertex | closed with the note not empty |")
    print("|---|---:|---:|" + "---:|" * (len(kinds) + 3))
    for eval_dir in args:
        path = os.path.join(eval_dir, "instances.jsonl")
        if not os.path.isfile(path):
            sys.exit(f"ranked_choices.py: {eval_dir} has no instances.jsonl: pass falcon_eval output folders")
        rows = [json.loads(line) for line in open(path)]
        rows = [r for r in rows if r["row"] == row]
        if not rows:
            sys.exit(f"ranked_choices.py: {path} has no row '{row}' (pass its name with --row)")
        if "text" not in rows[0]:
            sys.exit(f"ranked_choices.py: {path} has no 'text' (what the model wrote): evaluate it again")
        counts, answers = collections.Counter(), collections.Counter()
        for r in rows:
            first_outside, early = choice_ranks(r["text"] or "", counts)
            answers[first_outside] += 1
            answers["early"] += early
        total = sum(counts.values())
        shares = " | ".join(f"{counts[k] / total:.1%}" if total else "-" for k in kinds)
        valid = sum(r["feasible_raw"] for r in rows)
        print(f"| {eval_dir} | {len(rows)} | {valid} | {shares} | {answers['a repeat']} | {answers['another vertex']} "
              f"| {answers['early']} |")


if __name__ == "__main__":
    main()
