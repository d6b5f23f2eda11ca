"""Reading the falcon_eval points that tools/falcon_sweep.py leaves under a runs folder:
RUNS/<sweep name>/<point>/ with point.json, done / failed, summary.json, instances.jsonl
(docs/sweeps.md, docs/evaluation.md), or that archive_points.py kept in the repository. Read-only;
nothing here runs a program."""
import json
import os

import cells as C


# Written by a run script in place of a point it does not run for this model (one line: why). The
# table shows "not available" there and the Runs list the reason; a run of the point replaces it.
NOT_AVAILABLE_FILE = "not_available"


class RunsError(Exception):
    """A finished point whose files do not say what the table expects: a config and its table
    spec disagree. Reported as one line."""


def _read_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def _point_dir(roots, sweep, name):
    """The folder of a point among several roots (the runs folder, then the archive): the first
    where it is done, else the first where it was started, else the first where a run script said
    it does not apply, else the first root's."""
    dirs = [os.path.join(root, sweep, name) for root in roots]
    for marker in ("done", "point.json", NOT_AVAILABLE_FILE):
        for d in dirs:
            if os.path.exists(os.path.join(d, marker)):
                return d
    return dirs[0]


class Point:
    """One falcon_eval run of a sweep, e.g. RUNS/table1_falcon/tsp. runs: one root or a list of
    them, searched in order (a fresh run in runs/ over the archived one)."""

    def __init__(self, runs, sweep, name):
        self.sweep, self.name = sweep, name
        self.dir = _point_dir([runs] if isinstance(runs, str) else list(runs), sweep, name)
        self._summary = self._instances = None

    @property
    def status(self):
        """done, failed, interrupted (started, never finished) or not run: falcon_sweep's words; or
        not available: the run script does not run it for this model (not_available_reason says why)."""
        if os.path.exists(os.path.join(self.dir, "done")):
            return "done"
        if os.path.exists(os.path.join(self.dir, "failed")):
            return "failed"
        if os.path.exists(os.path.join(self.dir, "point.json")):
            return "interrupted"
        if os.path.exists(os.path.join(self.dir, NOT_AVAILABLE_FILE)):
            return C.NOT_AVAILABLE
        return C.NOT_RUN

    def not_available_reason(self):
        try:
            with open(os.path.join(self.dir, NOT_AVAILABLE_FILE), encoding="utf-8") as f:
                return f.read().strip()
        except OSError:
            return ""

    @property
    def done(self):
        return self.status == "done"

    def summary(self):
        if self._summary is None:
            data = _read_json(os.path.join(self.dir, "summary.json"))
            if not isinstance(data, dict) or not isinstance(data.get("rows"), list):
                raise RunsError(f"{self.dir}/summary.json: missing or not a falcon_eval summary although the "
                                f"point is done; delete {self.dir}/done and rerun the sweep")
            self._summary = data
        return self._summary

    def row(self, name):
        """The summary entry of one falcon_eval row, by its name."""
        rows = self.summary()["rows"]
        for r in rows:
            if r.get("row") == name:
                return r
        raise RunsError(f"{self.dir}/summary.json has no row '{name}' (it has: "
                        f"{', '.join(str(r.get('row')) for r in rows)}); the eval config and the table spec disagree")

    def instances(self, row):
        """The per-instance lines of one row (instances.jsonl)."""
        if self._instances is None:
            path = os.path.join(self.dir, "instances.jsonl")
            try:
                with open(path, encoding="utf-8") as f:
                    self._instances = [json.loads(line) for line in f if line.strip()]
            except (OSError, ValueError) as e:
                raise RunsError(f"{path}: unreadable ({e}); delete {self.dir}/done and rerun the sweep")
        lines = [i for i in self._instances if i.get("row") == row]
        if not lines:
            self.row(row)  # names the rows there are when the name is wrong
        return lines

    def meta(self):
        """What the point ran on: dataset, instance count, model (for the results' scale line)."""
        record = _read_json(os.path.join(self.dir, "point.json")) or {}
        overrides = dict(o.split("=", 1) for o in record.get("overrides", []) if "=" in o)
        status = self.status
        if status == C.NOT_AVAILABLE:
            status += f": {self.not_available_reason() or 'no reason given'}"
        out = {"point": f"{self.sweep}/{self.name}", "status": status,
               "model": overrides.get("model.path", "").strip('"'),
               "dataset": overrides.get("data.dataset", "").strip('"')}
        if self.done:
            s = self.summary()
            out["data"], out["instances"] = s.get("data", ""), s.get("instances")
        return out
