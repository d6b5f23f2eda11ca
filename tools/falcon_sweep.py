#!/usr/bin/env python3
"""Runs a grid of falcon_eval / falcon_train runs from one YAML file, resumably, and collects
their summary.json figures into one table (table.md, table.csv, table.tex).

  tools/falcon_sweep.py configs/sweeps/tsp_adaptive_tau.yaml            # run what is not done
  tools/falcon_sweep.py configs/sweeps/tsp_adaptive_tau.yaml --dry-run  # list points and commands
  tools/falcon_sweep.py configs/sweeps/tsp_adaptive_tau.yaml --collect-only

The sweep file (docs/sweeps.md):

  program: build/tools/falcon_eval         # run as PROGRAM CONFIG [args] overrides output_dir=...
  config: configs/eval/tsp.yaml
  output_dir: runs/sweeps/tsp_tau         # one folder per point below it, and the tables
  overrides: [data.limit=20]              # optional, the same for every point
  args: [--quiet]                         # optional program flags
  axes:                                   # the grid is the product of the axes ...
    rows[2].tau: [0.8, 0.9]
    variant:                              # ... a map instead of a list: labelled variants
      full: {}
      no grammar: {"rows[0].grammar": false, "rows[1].grammar": false}
  zip:                                    # ... and of zip groups, whose lists vary together
    - rows[2].n_min: [4, 8]
      rows[2].n_max: [16, 64]
  collect: {rows: [FALCON adaptive], fields: [feasible, gap_all, seconds]}

Errors in the sweep file are one line naming the key and the fix, exit code 2, before anything
runs. Exit code 1 when a point failed (the others still run), 130 when interrupted.
"""
import argparse
import csv
import fcntl
import fnmatch
import io
import itertools
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed

try:
    import yaml
except ImportError:  # one clear line instead of a traceback
    yaml = None

TOP_KEYS = ["program", "config", "output_dir", "overrides", "args", "axes", "zip", "collect"]
COLLECT_KEYS = ["fields", "rows", "stages"]
KEY_PATH = re.compile(r"[A-Za-z_]\w*(\[\d+\])*(\.[A-Za-z_]\w*(\[\d+\])*)*\Z")  # rows[2].tau, seed


class SweepError(Exception):
    """A bad sweep file or state: reported as one line, exit code 2."""


# ---------------------------------------------------------------- reading the sweep file


class _StrictLoader(yaml.SafeLoader if yaml else object):
    """PyYAML keeps the last of two equal keys; an axis silently dropped that way is an error here."""

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key '{key}' (the second would replace the first): merge them",
                    key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep)


def yaml_text(value):
    """A value as the programs' key=value overrides read it (YAML); also its text in tables."""
    if isinstance(value, str):
        try:
            plain = "\n" not in value and yaml.safe_load(value) == value
        except yaml.YAMLError:
            plain = False
        return value if plain else json.dumps(value)  # JSON strings are YAML strings: "yes", "a: b"
    return json.dumps(value)  # true / false / null / numbers / flow lists and maps


class Dim:
    """One dimension of the grid: table columns and its choices, each (cells, name part, overrides)."""

    def __init__(self, where, columns, choices):
        self.where, self.columns, self.choices = where, columns, choices


class Point:
    def __init__(self, name, cells, overrides, directory):
        self.name, self.cells, self.overrides, self.dir = name, cells, overrides, directory

    def path(self, file):
        return os.path.join(self.dir, file)


class Sweep:
    pass


def _expect(cond, where, message):
    if not cond:
        raise SweepError(f"{where}: {message}")


def _check_key(key, where):
    _expect(isinstance(key, str) and KEY_PATH.match(key), where,
            f"'{key}' is not a key path like rows[2].tau or stages[1].beta")
    _expect(key != "output_dir", where, "output_dir is set per point by the sweep (to output_dir/<point>); remove it")


def load_sweep(path, check_files=True):
    if yaml is None:
        raise SweepError("PyYAML is not installed: run tools/setup.sh (Debian package python3-yaml), "
                         "or run this script with /usr/bin/python3")
    if not os.path.isfile(path):
        raise SweepError(f"{path}: no such file (give a sweep YAML, e.g. configs/sweeps/tsp_adaptive_tau.yaml)")
    try:
        with open(path, encoding="utf-8") as f:
            doc = yaml.load(f, Loader=_StrictLoader)
    except yaml.YAMLError as e:
        hint = ("; inside { } quote key paths that hold [ ] ({\"rows[0].grammar\": false}) or write the map "
                "one key per line" if "flow" in str(e) else "")
        raise SweepError(f"{path}: not valid YAML: {' '.join(str(e).split())}{hint}")
    except UnicodeDecodeError as e:
        raise SweepError(f"{path}: byte {e.start} is not UTF-8 text; save the file as UTF-8")
    _expect(isinstance(doc, dict), path, "must be a YAML map with program, config, output_dir, axes, collect")
    for key in doc:
        _expect(key in TOP_KEYS, path, f"unknown key '{key}' (known keys: {', '.join(TOP_KEYS)})")

    s = Sweep()
    s.file = path
    for key in ("program", "config", "output_dir"):
        _expect(isinstance(doc.get(key), str) and doc[key], f"{path}: {key}",
                "missing; give a path (relative to the directory you run falcon_sweep in)")
    s.program, s.config, s.output_dir = doc["program"], doc["config"], doc["output_dir"]

    s.overrides = doc.get("overrides") or []
    _expect(isinstance(s.overrides, list), f"{path}: overrides", "must be a list of key.path=value strings")
    for o in s.overrides:
        _expect(isinstance(o, str) and "=" in o, f"{path}: overrides",
                f"'{o}' is not a key.path=value string (quote it if it holds ': ')")
        _check_key(o.split("=", 1)[0], f"{path}: overrides")
    s.args = doc.get("args") or []
    _expect(isinstance(s.args, list) and all(isinstance(a, str) and a.startswith("-") for a in s.args),
            f"{path}: args", "must be a list of program flags, e.g. [--quiet]")

    s.dims = _read_dims(doc, path)
    owner = {o.split("=", 1)[0]: "overrides" for o in s.overrides}
    for d in s.dims:  # a key set in two places would make the point's value depend on the order
        keys = {o.split("=", 1)[0] for _, _, overrides in d.choices for o in overrides}
        for k in sorted(keys):
            _expect(k not in owner, f"{path}: {d.where}", f"sets {k}, which {owner.get(k)} sets too; set it in one place")
            owner[k] = d.where

    s.fields, s.select_kind, s.selectors = _read_collect(doc.get("collect"), path)
    if check_files:  # not needed to rebuild a table, e.g. on another machine
        if not shutil.which(s.program):
            fix = ("is not executable (chmod +x it)" if os.path.exists(s.program) else
                   "does not exist: build it (tools/build.sh build) or fix the path "
                   "(relative to the directory you run falcon_sweep in)")
            raise SweepError(f"{path}: program: {s.program} {fix}")
        _expect(os.path.isfile(s.config), f"{path}: config",
                f"{s.config} does not exist; fix the path (relative to the directory you run falcon_sweep in)")
    return s


def _read_dims(doc, path):
    axes, zips = doc.get("axes") or {}, doc.get("zip") or []
    _expect(isinstance(axes, dict), f"{path}: axes", "must be a map: key.path -> [values], or name -> {label: {key.path: value}}")
    _expect(isinstance(zips, list), f"{path}: zip", "must be a list of groups, each a map key.path -> [values] that vary together")
    _expect(axes or zips, f"{path}: axes", "empty; list at least one axis under it, one per line, e.g. 'rows[2].tau: [0.8, 0.9]'")
    dims = []
    for key, values in axes.items():
        where = f"axes.{key}"
        if isinstance(values, dict):  # labelled variants: each label sets several keys
            _expect(values, f"{path}: {where}", "no variants; give label: {key.path: value, ...}")
            choices = []
            for label, sets in values.items():
                sets = sets or {}
                _expect(isinstance(sets, dict), f"{path}: {where}.{label}",
                        "must be a map of key.path: value ({} for the base config)")
                for k in sets:
                    _check_key(k, f"{path}: {where}.{label}")
                choices.append(([str(label)], str(label), [f"{k}={yaml_text(v)}" for k, v in sets.items()]))
            dims.append(Dim(where, [str(key)], choices))
        else:
            _check_key(key, f"{path}: axes")
            _expect(isinstance(values, list) and values, f"{path}: {where}",
                    "needs a non-empty list of values, e.g. [0.8, 0.9]")
            dims.append(Dim(where, [key], [([yaml_text(v)], None, [f"{key}={yaml_text(v)}"]) for v in values]))
    for i, group in enumerate(zips):
        where = f"zip[{i}]"
        _expect(isinstance(group, dict) and group, f"{path}: {where}", "must be a map key.path -> [values]")
        for key, values in group.items():
            _check_key(key, f"{path}: {where}")
            _expect(isinstance(values, list) and values, f"{path}: {where}.{key}", "needs a non-empty list of values")
        lengths = {k: len(v) for k, v in group.items()}
        _expect(len(set(lengths.values())) == 1, f"{path}: {where}",
                f"lists differ in length ({', '.join(f'{k}: {n}' for k, n in lengths.items())}); "
                "zipped keys vary together, so give them equal lengths")
        rows = zip(*group.values())
        dims.append(Dim(where, list(group), [([yaml_text(v) for v in row], None,
                                              [f"{k}={yaml_text(v)}" for k, v in zip(group, row)]) for row in rows]))
    columns = [c for d in dims for c in d.columns]
    dup = next((c for c in columns if columns.count(c) > 1), None)
    _expect(dup is None, f"{path}: axes", f"'{dup}' is listed twice; list it once")
    return dims


def _read_collect(collect, path):
    _expect(isinstance(collect, dict), f"{path}: collect",
            "missing; say what to tabulate, e.g. collect: {rows: [FALCON adaptive], fields: [feasible, gap_all]}")
    for key in collect:
        _expect(key in COLLECT_KEYS, f"{path}: collect", f"unknown key '{key}' (known keys: {', '.join(COLLECT_KEYS)})")
    fields = collect.get("fields")
    _expect(isinstance(fields, list) and fields and all(isinstance(f, str) and f for f in fields),
            f"{path}: collect.fields", "needs a list of summary.json fields, e.g. [feasible, gap_all] or [eval.mean_gap]")
    _expect(not ("rows" in collect and "stages" in collect), f"{path}: collect",
            "give rows (falcon_eval) or stages (falcon_train), not both")
    kind = "rows" if "rows" in collect else "stages" if "stages" in collect else None
    selectors = collect.get(kind) if kind else None
    if kind:
        _expect(isinstance(selectors, list) and selectors and
                all(isinstance(x, (str, int)) and not isinstance(x, bool) for x in selectors),
                f"{path}: collect.{kind}", "needs a list of names or 0-based positions")
    return fields, kind, selectors


def expand(sweep):
    """Every grid point, in order: the first axis varies slowest."""
    keys = [c for d in sweep.dims if d.choices[0][1] is None for c in d.columns]
    short = {}
    for k in keys:  # the last key segment names the point, the whole key where that is ambiguous
        last = re.sub(r"\[\d+\]", "", k.rsplit(".", 1)[-1])
        short[k] = last if sum(re.sub(r"\[\d+\]", "", x.rsplit(".", 1)[-1]) == last for x in keys) == 1 \
            else re.sub(r"[\[\]]", "", k)
    points, seen = [], {}
    for combo in itertools.product(*[d.choices for d in sweep.dims]):
        cells, parts, overrides = {}, [], list(sweep.overrides)
        for d, (values, label, sets) in zip(sweep.dims, combo):
            cells.update(zip(d.columns, values))
            parts += [label] if label is not None else [f"{short[c]}={v}" for c, v in zip(d.columns, values)]
            overrides += sets
        name = ",".join(re.sub(r"[^A-Za-z0-9._=+-]", "_", p) for p in parts)  # a safe folder name
        if name in seen:
            raise SweepError(f"{sweep.file}: points {seen[name]} and {cells} both get the folder name '{name}'; "
                             "make the labels differ in letters or digits")
        seen[name] = cells
        points.append(Point(name, cells, overrides, os.path.join(sweep.output_dir, name)))
    return points


# ---------------------------------------------------------------- point state on disk


def write_atomic(path, text):
    tmp = f"{path}.tmp{os.getpid()}.{threading.get_ident()}"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)  # readers see the old file or the whole new one, never a half


def read_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def point_record(sweep, p):
    return {"name": p.name, "program": sweep.program, "config": sweep.config, "overrides": p.overrides,
            "values": p.cells}


def changes(sweep, p):
    """What differs from the settings the point's results were made with ('' when nothing)."""
    old = read_json(p.path("point.json"))
    if old is None:
        return "" if not os.path.exists(p.path("point.json")) else "its point.json is unreadable"
    new = point_record(sweep, p)
    # The program may move (another build folder) without changing results; the config may not.
    out = [f"config: {old.get('config')} -> {new['config']}"] if old.get("config") != new["config"] else []
    before = dict(o.split("=", 1) for o in old.get("overrides", []))
    after = dict(o.split("=", 1) for o in new["overrides"])
    for k in list(before) + [k for k in after if k not in before]:
        if before.get(k) != after.get(k):
            out.append(f"{k}: {before.get(k, '(unset)')} -> {after.get(k, '(unset)')}")
    return "; ".join(out)


def holds_training_run(p):
    """What falcon_train refuses to start over without --overwrite: an earlier run's outputs."""
    return any(os.path.exists(p.path(name)) for name in ("checkpoints", "final", "metrics.jsonl"))


def status(sweep, p):
    """done, failed (exit N), interrupted (started, never finished), not run, or changed."""
    if not os.path.exists(p.path("point.json")):
        return "not run"
    if changes(sweep, p):
        return "changed"
    if os.path.exists(p.path("done")):
        return "done"
    failed = read_json(p.path("failed"))
    return f"failed (exit {failed.get('exit')})" if isinstance(failed, dict) else "interrupted"


# ---------------------------------------------------------------- the table


def _lookup(entry, field):
    for part in field.split("."):
        if not isinstance(entry, dict) or part not in entry:
            return KeyError
        entry = entry[part]
    return entry


def _summary_entries(sweep, p):
    """(label column, [(label, entry)]) of a finished point, as collect selects them."""
    data = read_json(p.path("summary.json"))
    if isinstance(data, dict) and isinstance(data.get("rows"), list):
        kind, label_key, entries = "rows", "row", data["rows"]  # falcon_eval
    elif isinstance(data, list):
        kind, label_key, entries = "stages", "stage", data  # falcon_train
    else:
        raise SweepError(f"{p.path('summary.json')}: missing or not a falcon_eval / falcon_train summary; "
                         f"rerun the point (delete {p.path('done')})")
    if sweep.select_kind and sweep.select_kind != kind:
        raise SweepError(f"{sweep.file}: collect.{sweep.select_kind}: point {p.name}'s summary.json lists {kind} "
                         f"({'falcon_eval' if kind == 'rows' else 'falcon_train'}): use collect.{kind}")
    names = [str(e.get(label_key, i)) if isinstance(e, dict) else str(i) for i, e in enumerate(entries)]
    if not sweep.selectors:
        return label_key, list(zip(names, entries))
    out = []
    for sel in sweep.selectors:
        i = sel if isinstance(sel, int) else names.index(sel) if sel in names else None
        if i is None or not 0 <= i < len(entries):
            raise SweepError(f"{sweep.file}: collect.{kind}: point {p.name} has no {label_key} {sel!r} "
                             f"(it has: {', '.join(names)})")
        out.append((names[i], entries[i]))
    return label_key, out


def build_table(sweep, points, strict):
    """Header and rows of the table: axes, row/stage, fields, status. strict: a field in no finished
    point is an error (a typo); not while a sweep runs, when only some variants may have it yet."""
    lines, label_key, found, example = [], None, set(), None
    for p in points:
        st = status(sweep, p)
        if st == "done":
            label_key, entries = _summary_entries(sweep, p)
            for label, entry in entries:
                values = [_lookup(entry, f) for f in sweep.fields]
                found.update(f for f, v in zip(sweep.fields, values) if v is not KeyError)
                example = example or (p.name, label, entry)
                lines.append((p, label, [None if v is KeyError else v for v in values], st))
        else:  # a missing point keeps its lines, so the grid stays visible
            for sel in sweep.selectors or ["-"]:
                lines.append((p, str(sel), [None] * len(sweep.fields), st))
    missing = [f for f in sweep.fields if f not in found]
    if strict and example and missing:
        name, label, entry = example
        have = ", ".join(k for k, v in entry.items() if not isinstance(v, (dict, list))) if isinstance(entry, dict) else ""
        raise SweepError(f"{sweep.file}: collect.fields: '{missing[0]}' is in no summary entry (point {name}, "
                         f"{label}: {have}; nested ones as eval.mean_gap); fix it and run with --collect-only")
    label_key = label_key or {"rows": "row", "stages": "stage"}.get(sweep.select_kind, "entry")
    header = [c for d in sweep.dims for c in d.columns] + [label_key] + sweep.fields + ["status"]
    return header, [[p.cells[c] for d in sweep.dims for c in d.columns] + [label] + values + [st]
                    for p, label, values, st in lines]


def _cell(v, exact):
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and not exact:
        return f"{v:.0f}" if abs(v) >= 1000 else f"{v:.4g}"
    return json.dumps(v) if isinstance(v, (dict, list)) else str(v)


def _tex(s):
    return re.sub(r"[\\&%$#_{}~^]", lambda m: {"\\": r"\textbackslash{}", "~": r"\textasciitilde{}",
                                                "^": r"\textasciicircum{}"}.get(m[0], "\\" + m[0]), s)


def write_tables(sweep, points, strict=True):
    header, rows = build_table(sweep, points, strict)
    fields = slice(len(header) - len(sweep.fields) - 1, len(header) - 1)

    def shown(row, exact):  # field values formatted; axis values and labels as they are
        return row[:fields.start] + [_cell(v, exact) for v in row[fields]] + row[fields.stop:]

    done = sum(status(sweep, p) == "done" for p in points)
    md = "| " + " | ".join(header) + " |\n" + "|---" * len(header) + "|\n"
    md += "".join("| " + " | ".join(c.replace("|", "\\|") or "-" for c in shown(r, False)) + " |\n" for r in rows)
    md += f"\n{done} of {len(points)} points done. Sweep: `{sweep.file}`; rebuild: `tools/falcon_sweep.py {sweep.file} --collect-only`.\n"
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows([header] + [shown(r, True) for r in rows])
    tex = (f"% tools/falcon_sweep.py {sweep.file}: {done} of {len(points)} points done; needs \\usepackage{{booktabs}}\n"
           f"\\begin{{tabular}}{{{'l' * fields.start}{'r' * len(sweep.fields)}l}}\n\\toprule\n"
           + " & ".join(_tex(h) for h in header) + " \\\\\n\\midrule\n"
           + "".join(" & ".join(_tex(c) or "--" for c in shown(r, False)) + " \\\\\n" for r in rows)
           + "\\bottomrule\n\\end{tabular}\n")
    os.makedirs(sweep.output_dir, exist_ok=True)
    for name, text in (("table.md", md), ("table.csv", buf.getvalue()), ("table.tex", tex)):
        write_atomic(os.path.join(sweep.output_dir, name), text)
    return os.path.join(sweep.output_dir, "table.md")


# ---------------------------------------------------------------- running


def _duration(s):
    s = int(round(s))
    return f"{s}s" if s < 60 else f"{s // 60}m{s % 60:02d}s" if s < 3600 else f"{s // 3600}h{s % 3600 // 60:02d}m"


def _last_line(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = [l.strip() for l in f.read()[-4000:].replace("\r", "\n").split("\n") if l.strip()]
        return lines[-1] if lines else ""
    except OSError:
        return ""


class Runner:
    """Starts the points' processes and stops them all on Ctrl-C / SIGTERM."""

    def __init__(self, sweep):
        self.sweep, self.lock, self.procs, self.stopping = sweep, threading.Lock(), set(), False

    def stop(self):
        with self.lock:
            self.stopping = True
            for proc in self.procs:
                proc.terminate()

    def _take(self, p):
        """Holds p's lock file (open; closing it lets go), or None when stopped while waiting.

        Each point has its own lock rather than the sweep one, so sweeps on one folder with
        different --only (experiments/*/run.sh for two problems at once) run side by side; one that
        reaches a point another is running waits for it."""
        os.makedirs(p.dir, exist_ok=True)
        lock = open(p.path(".lock"), "w")
        said = False
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return lock
            except BlockingIOError:
                pass
            if self.stopping:  # polled, not a blocking flock: Ctrl-C must not wait on the other sweep
                lock.close()
                return None
            if not said:
                print(f"sweep: {p.name}: another falcon_sweep is running it; waiting", file=sys.stderr, flush=True)
                said = True
            time.sleep(0.5)

    def run(self, p, state):
        """Runs one point; returns (outcome, seconds), outcome 'done', 'done by another falcon_sweep',
        'failed (...)' or 'interrupted'."""
        if self.stopping:
            return "interrupted", 0.0
        lock = self._take(p)
        if lock is None:
            return "interrupted", 0.0
        try:
            if status(self.sweep, p) == "done":  # another sweep finished it since this one started
                return "done by another falcon_sweep", 0.0
            return self._run(p, state)
        finally:
            lock.close()

    def _run(self, p, state):  # p.dir exists: _take made it
        why = {"not run": "", "changed": " again, settings changed (--force)"}.get(state, f" again, last run {state}")
        print(f"sweep: {p.name}: running{why}; log {p.path('log.txt')}", file=sys.stderr, flush=True)
        for marker in ("done", "failed"):  # a rerun's outcome is only what this run writes
            if os.path.exists(p.path(marker)):
                os.remove(p.path(marker))
        write_atomic(p.path("point.json"), json.dumps(point_record(self.sweep, p), indent=2) + "\n")
        # An interrupted point continues where it stopped: falcon_eval keeps the instances it finished,
        # falcon_train starts from its last checkpoint. Its log goes on below the earlier run's.
        # A failed or changed point starts again: over a training run there, falcon_train needs
        # --overwrite (it refuses to replace an earlier run's checkpoints unasked).
        resume = state == "interrupted"
        again = not resume and holds_training_run(p) and "--overwrite" not in self.sweep.args
        flags = [*self.sweep.args, *(["--resume"] if resume and "--resume" not in self.sweep.args else []),
                 *(["--overwrite"] if again else [])]
        cmd = [self.sweep.program, self.sweep.config, *flags, *p.overrides, f"output_dir={yaml_text(p.dir)}"]
        start = time.monotonic()
        with open(p.path("log.txt"), "a" if resume else "w", encoding="utf-8") as log:
            log.write("$ " + shlex.join(cmd) + "\n")
            log.flush()
            with self.lock:  # checked under the lock so stop() cannot miss a process started now
                if self.stopping:
                    return "interrupted", 0.0
                try:
                    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
                except OSError as e:  # e.g. a script without a #! line
                    log.write(f"cannot start {self.sweep.program}: {e.strerror}\n")
                    proc = None
                else:
                    self.procs.add(proc)
            rc = proc.wait() if proc else "none: the program did not start"
            with self.lock:
                self.procs.discard(proc)
        seconds = time.monotonic() - start
        # Ctrl-C reaches the whole process group: a child may end before stop() is called.
        if rc != 0 and (self.stopping or rc in (-signal.SIGINT, -signal.SIGTERM, 130)):
            return "interrupted", seconds
        if rc == 0 and not os.path.isfile(p.path("summary.json")):
            rc = "0 but no summary.json"
        if rc != 0:
            write_atomic(p.path("failed"), json.dumps({"exit": rc, "seconds": seconds}) + "\n")
            return f"failed (exit {rc})", seconds
        write_atomic(p.path("done"), json.dumps({"seconds": seconds, "finished": time.time()}) + "\n")
        return "done", seconds


def _interrupt(signum, frame):
    raise KeyboardInterrupt  # SIGTERM stops the sweep like Ctrl-C: children stopped, table written


def run_sweep(sweep, points, selected, jobs):
    os.makedirs(sweep.output_dir, exist_ok=True)
    states = {p.name: status(sweep, p) for p in selected}
    todo = [p for p in selected if states[p.name] != "done"]
    total, finished, durations, failures = len(selected), 0, [], 0
    t0 = time.monotonic()

    def line(p, what):
        nonlocal finished
        finished += 1
        left = total - finished
        eta = (_duration(sum(durations) / len(durations) * left / min(jobs, left)) if durations and left
               else "0s" if not left else "?")
        print(f"sweep [{finished}/{total}] {p.name}: {what} | elapsed {_duration(time.monotonic() - t0)}, ETA {eta}",
              file=sys.stderr, flush=True)

    for p in selected:
        if states[p.name] == "done":
            earlier = read_json(p.path("done"))
            if isinstance(earlier, dict) and isinstance(earlier.get("seconds"), (int, float)):
                durations.append(earlier["seconds"])  # an ETA from the first line of a resumed sweep
            line(p, "done earlier, skipped")
    runner = Runner(sweep)
    previous = signal.signal(signal.SIGTERM, _interrupt)
    pool = ThreadPoolExecutor(max_workers=jobs)
    try:
        futures = {pool.submit(runner.run, p, states[p.name]): p for p in todo}
        for future in as_completed(futures):
            p = futures[future]
            outcome, seconds = future.result()
            if outcome == "done":
                durations.append(seconds)
                line(p, f"done in {_duration(seconds)}")
            elif outcome.startswith("done"):
                line(p, outcome)
            else:
                failures += 1
                line(p, f"{outcome} after {_duration(seconds)}: {_last_line(p.path('log.txt'))} "
                        f"(log {p.path('log.txt')})")
            write_tables(sweep, points, strict=False)  # a partial table after every point
    except KeyboardInterrupt:
        runner.stop()
        pool.shutdown(wait=True, cancel_futures=True)
        table = write_tables(sweep, points, strict=False)
        print(f"sweep: interrupted; rerun the same command to continue (finished points are kept). Table: {table}",
              file=sys.stderr)
        return 130
    except SweepError:
        pool.shutdown(wait=True, cancel_futures=True)  # running points finish and keep their results
        raise
    finally:
        signal.signal(signal.SIGTERM, previous)
        pool.shutdown(wait=True)
    table = write_tables(sweep, points)
    print(table)
    if failures:
        print(f"sweep: {failures} of {total} points did not finish; fix and rerun the same command (done points are skipped)",
              file=sys.stderr)
    return 1 if failures else 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     epilog="Sweep file keys and outputs: docs/sweeps.md")
    parser.add_argument("sweep", help="the sweep YAML (configs/sweeps/*.yaml)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--dry-run", action="store_true", help="list the points, their state and commands; run nothing")
    mode.add_argument("--collect-only", action="store_true", help="rebuild the tables from what is there; run nothing")
    parser.add_argument("--jobs", type=int, default=1, help="points run at once (default 1)")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="run only these points (names or shell patterns)")
    parser.add_argument("--force", action="store_true", help="rerun points whose settings changed instead of refusing")
    args = parser.parse_args(argv)
    try:
        if args.jobs < 1:
            raise SweepError(f"--jobs {args.jobs}: give 1 or more")
        sweep = load_sweep(args.sweep, check_files=not args.collect_only)
        points = expand(sweep)
        selected = points
        if args.only:
            for pattern in args.only:
                if not any(fnmatch.fnmatchcase(p.name, pattern) for p in points):
                    raise SweepError(f"--only {pattern}: no such point (points: {', '.join(p.name for p in points)})")
            selected = [p for p in points if any(fnmatch.fnmatchcase(p.name, x) for x in args.only)]
        if args.collect_only:
            print(write_tables(sweep, points))
            return 0
        changed = [p for p in selected if status(sweep, p) == "changed"]
        if changed and not args.force:
            more = f" (and {len(changed) - 1} more)" if len(changed) > 1 else ""
            raise SweepError(f"{sweep.file}: point {changed[0].name} was run with other settings ({changes(sweep, changed[0])})"
                             f"{more}; restore the sweep file, give it a new output_dir, or rerun with --force")
        if args.dry_run:
            for i, p in enumerate(selected, 1):
                cmd = [sweep.program, sweep.config, *sweep.args, *p.overrides, f"output_dir={yaml_text(p.dir)}"]
                print(f"[{i}/{len(selected)}] {p.name} ({status(sweep, p)}): {shlex.join(cmd)}")
            return 0
        return run_sweep(sweep, points, selected, args.jobs)
    except SweepError as e:
        print(f"falcon_sweep: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
