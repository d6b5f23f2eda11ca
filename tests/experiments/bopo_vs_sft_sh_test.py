#!/usr/bin/env python3
"""experiments/learning_curves/bopo_vs_sft.sh: the archive of finished runs beside the report and the
resume of interrupted runs, with stand-in falcon_train and falcon_eval programs (no C++ build needed).

  python3 tests/experiments/bopo_vs_sft_sh_test.py
Needs matplotlib for the report (skipped without it).
"""
import os
import shutil
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(ROOT, "experiments", "learning_curves", "bopo_vs_sft.sh")

try:
    import matplotlib  # noqa: F401
except ImportError:
    matplotlib = None

# Each stand-in notes its call in $CALLS, then writes what the script reads of the real program's output.
FAKE_TRAIN = r'''#!/usr/bin/env bash
# As falcon_train: a TERM stops the run after the step in progress, with a checkpoint there
# (handled from the first line, so a TERM that comes early on a loaded machine finds it);
# DIES_OF_TERM: a trainer that does not handle it.
stop=0
[ -n "${DIES_OF_TERM:-}" ] || trap 'stop=1' TERM
out=; steps=4; first=1
for a in "$@"; do case $a in output_dir=*) out=${a#*=} ;; 'stages[1].steps='*) steps=${a#*=} ;; esac; done
echo "train $out $*" >> "$CALLS"
mkdir -p "$out/checkpoints"
kind=bopo; case $out in *sft_seed*) kind=sft ;; *grpo_seed*) kind=grpo ;; esac
case " $* " in *" --resume "*) latest=$(cat "$out/checkpoints/latest"); first=$((${latest#step_} + 1)) ;; esac
# SFT_STEP_SECONDS: how long each sft step takes (default: no time), for as many steps as asked;
# BOPO_SECONDS: how long a bopo run takes (default: no time), the sft arm's budget.
[ $kind = sft ] && [ -n "${SFT_STEP_SECONDS:-}" ] && for a in "$@"; do case $a in 'stages[0].steps='*) steps=${a#*=} ;; esac; done
[ $kind = bopo ] && [ -n "${BOPO_SECONDS:-}" ] && sleep "$BOPO_SECONDS"
for s in $(seq "$first" "$steps"); do
  if [ $kind = sft ] && [ -n "${SFT_STEP_SECONDS:-}" ]; then sleep "$SFT_STEP_SECONDS" & wait $! || true; fi
  echo "{\"type\": \"$kind\", \"step\": $s, \"time\": $((100 + s)), \"groups\": 8, \"skipped_groups\": 0, \"pairs\": 4, \"loss\": 0.5}" >> "$out/metrics.jsonl"
  if [ $stop = 1 ]; then
    # timeout sends its TERM to the trainer and then to its process group: the second may come
    # while the checkpoint is written, and must not kill the mkdir (falcon_train is one process).
    trap '' TERM
    mkdir -p "$out/checkpoints/step_$s" && echo "step_$s" > "$out/checkpoints/latest"
    exit 143
  fi
  # STOP_ONCE (a file naming a run folder): that run checkpoints step 2, logs step 3, and is killed
  # before its next checkpoint, the checkpoint dated CHECKPOINT_AFTER seconds into the segment
  if [ "$s" = 2 ] && [ -f "${STOP_ONCE:-/none}" ] && [ "$(cat "$STOP_ONCE")" = "$out" ]; then
    rm "$STOP_ONCE"
    mkdir -p "$out/checkpoints/step_2" && echo step_2 > "$out/checkpoints/latest"
    touch -d "@$(($(cat "$out/segment.start") + CHECKPOINT_AFTER))" "$out/checkpoints/latest"
    echo "{\"type\": \"$kind\", \"step\": 3, \"time\": 103, \"groups\": 8, \"skipped_groups\": 8, \"pairs\": 0, \"loss\": 0.5}" >> "$out/metrics.jsonl"
    exit 137
  fi
done
mkdir -p "$out/checkpoints/step_$steps" && echo "step_$steps" > "$out/checkpoints/latest"
'''
FAKE_EVAL = r'''#!/usr/bin/env bash
out=
for a in "$@"; do case $a in output_dir=*) out=${a#*=} ;; esac; done
resumed=; case " $* " in *" --resume "*) resumed=" --resume" ;; esac
echo "eval $out$resumed" >> "$CALLS"
mkdir -p "$out"
for a in "$@"; do case $a in model.*) echo "$a" >> "$out/model_args" ;; esac; done
echo '{"instances": 10, "rows": [{"row": "greedy_raw", "feasible_raw": 0.9, "gap_all": 0.1},
  {"row": "best_of_8", "sample_feasible_raw": 0.8, "gap_all": 0.02}]}' > "$out/summary.json"
'''


@unittest.skipIf(matplotlib is None, "matplotlib is not installed")
class BopoVsSftScript(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.bin = os.path.join(self.dir, "bin")
        os.makedirs(os.path.join(self.bin, "tools"))
        for name, text in (("falcon_train", FAKE_TRAIN), ("falcon_eval", FAKE_EVAL)):
            path = os.path.join(self.bin, "tools", name)
            with open(path, "w") as f:
                f.write(text)
            os.chmod(path, 0o755)
        self.base = os.path.join(self.dir, "sft_mis", "checkpoints", "step_10")
        os.makedirs(self.base)
        with open(os.path.join(self.base, "model.safetensors"), "wb") as f:
            f.write(b"weights one")
        with open(os.path.join(self.base, "sections.txt"), "w") as f:
            f.write("model={}\ntext={}\ndata={}\ndataset=data/mis50.h5\nproblem=mis\n")
        with open(os.path.join(self.dir, "sft_mis", "tokenizer.model"), "w") as f:
            f.write("tokenizer")
        self.report = os.path.join(self.dir, "report")
        self.calls = os.path.join(self.dir, "calls")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def run_study(self, out, seeds="1", **extra):
        env = dict(os.environ, PROBLEM="mis", BIN=self.bin, OUT=out, BASE=self.base, SEEDS=seeds, STEPS="4",
                   ARMS="bopo sft", REPORT=self.report, CALLS=self.calls)
        env.update(extra)
        return subprocess.run(["bash", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)

    def calls_made(self):
        if not os.path.exists(self.calls):
            return []
        with open(self.calls) as f:
            lines = f.read().splitlines()
        os.remove(self.calls)
        return lines

    def test_a_release_as_base_brings_its_own_tokenizer_and_is_decoded_as_a_model_directory(self):
        release = os.path.join(self.dir, "models", "mis")
        os.makedirs(release)
        for name, text in (("model.safetensors", "weights"), ("tokenizer.model", "tokenizer"),
                           ("release.json", '{"problem": "mis", "data": "configs/data/mis50.yaml"}'),
                           ("sections.txt", "model={}\ntext={}\ndata={}\ndataset=data/mis50.h5\nproblem=mis\n")):
            with open(os.path.join(release, name), "w") as f:
                f.write(text)
        out = os.path.join(self.dir, "runs_release")
        result = self.run_study(out, BASE=release)
        self.assertEqual(result.returncode, 0, result.stderr)
        trains = [c for c in self.calls_made() if c.startswith("train")]
        self.assertEqual(len(trains), 2)
        for call in trains:
            self.assertIn(f"init.checkpoint={release} ", call)
            self.assertIn(f"tokenizer.path={os.path.join(release, 'tokenizer.model')}", call)
        with open(os.path.join(out, "base", "eval", "model_args")) as f:
            self.assertEqual(f.read().split(), [f"model.path={release}", f"model.tokenizer={release}/tokenizer.model"])
        with open(os.path.join(out, "bopo_seed1", "eval", "step_4", "model_args")) as f:
            self.assertIn(f"model.checkpoint={out}/bopo_seed1/checkpoints/step_4", f.read().split())

    def test_finished_runs_are_archived_and_not_run_again_when_the_runs_folder_is_lost(self):
        out = os.path.join(self.dir, "runs1")
        result = self.run_study(out)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(sum(c.startswith("train") for c in self.calls_made()), 2)  # bopo, then sft
        archive = os.path.join(self.report, "runs")
        for rel in ("study.txt", "problem", "base/eval/summary.json", "bopo_seed1/train.seconds",
                    "bopo_seed1/metrics.jsonl", "bopo_seed1/eval/step_4/summary.json", "sft_seed1/train.seconds"):
            self.assertTrue(os.path.isfile(os.path.join(archive, rel)), rel)
        self.assertFalse(os.path.exists(os.path.join(archive, "bopo_seed1", "checkpoints")))

        # The runs folder is gone (a fresh machine): seed 1 is neither trained nor evaluated again,
        # seed 2 runs, and the report has both.
        shutil.rmtree(out)
        result = self.run_study(os.path.join(self.dir, "runs2"), seeds="1 2")
        self.assertEqual(result.returncode, 0, result.stderr)
        calls = self.calls_made()
        self.assertFalse([c for c in calls if "seed1" in c or "base" in c], calls)
        self.assertEqual(sum(c.startswith("train") for c in calls), 2)
        with open(os.path.join(self.report, "bopo_vs_sft.md")) as f:
            text = f.read()
        self.assertIn("| bopo | 1 | 4 |", text)
        self.assertIn("| bopo | 2 | 4 |", text)
        self.assertIn("| sft | 2 |", text)

    def stop_once(self, run_dir, checkpoint_after):
        with open(os.path.join(self.dir, "stop_once"), "w") as f:
            f.write(run_dir)
        return {"STOP_ONCE": os.path.join(self.dir, "stop_once"), "CHECKPOINT_AFTER": str(checkpoint_after)}

    def test_an_interrupted_preference_run_resumes_counting_its_time_up_to_its_checkpoint(self):
        out = os.path.join(self.dir, "runs1")
        bopo = os.path.join(out, "bopo_seed1")
        result = self.run_study(out, **self.stop_once(bopo, checkpoint_after=30))
        self.assertEqual(result.returncode, 1)
        self.assertIn("bopo seed 1 failed or was stopped", result.stderr)
        self.assertIn("run the study again to resume it", result.stderr)
        self.calls_made()

        result = self.run_study(out)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("bopo seed 1 resumes from its checkpoint (30s trained)", result.stdout)
        trains = [c for c in self.calls_made() if c.startswith("train")]
        self.assertEqual(len(trains), 2)  # bopo resumed, then sft
        self.assertIn("--resume", trains[0])
        self.assertNotIn("--resume", trains[1])
        with open(os.path.join(bopo, "train.seconds")) as f:
            seconds = int(f.read())
        self.assertGreaterEqual(seconds, 30)  # the first segment up to its checkpoint, not the lost step
        self.assertLess(seconds, 60)
        # The step the interrupted run logged past its checkpoint is counted once: 4 steps of 8 groups,
        # none skipped (the lost line had 8 skipped).
        with open(os.path.join(self.report, "bopo_vs_sft.md")) as f:
            self.assertIn("| bopo | 1 | 4 | 0.1 | 90.0 | 10.00 | 80.0 | 2.00 | 0.0% (16 pairs) |", f.read())

    def test_an_interrupted_evaluation_resumes_and_only_it(self):
        out = os.path.join(self.dir, "runs1")
        stopped = os.path.join(out, "base", "eval")  # falcon_eval writes its config.yaml before any instance
        os.makedirs(stopped)
        open(os.path.join(stopped, "config.yaml"), "w").close()
        result = self.run_study(out)
        self.assertEqual(result.returncode, 0, result.stderr)
        evals = [c for c in self.calls_made() if c.startswith("eval")]
        self.assertIn(f"eval {stopped} --resume", evals)
        self.assertEqual([c for c in evals if c.endswith("--resume")], [f"eval {stopped} --resume"])

    def test_an_interrupted_sft_run_past_its_budget_is_not_trained_again(self):
        out = os.path.join(self.dir, "runs1")
        sft = os.path.join(out, "sft_seed1")
        result = self.run_study(out, **self.stop_once(sft, checkpoint_after=1000))
        self.assertEqual(result.returncode, 1)
        self.assertIn("sft seed 1 failed or was stopped", result.stderr)
        self.calls_made()
        result = self.run_study(out)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("sft seed 1 resumes from its checkpoint (1000s of its", result.stdout)
        calls = self.calls_made()
        self.assertFalse([c for c in calls if c.startswith("train")], calls)  # its budget was spent
        self.assertIn(f"eval {sft}/eval/step_2", calls)
        with open(os.path.join(sft, "train.seconds")) as f:
            self.assertEqual(f.read().strip(), "1000")

    def test_the_sft_arm_stops_at_its_budget_with_a_checkpoint_there(self):
        # The bopo arm takes 2 s or a little more, the sft arm's budget (whole seconds), a few of its 0.4 s
        # steps: the step in progress when timeout's TERM comes is checkpointed, and is its comparison
        # point. (With a 1 s budget a loaded machine could send the TERM before the run had begun.)
        out = os.path.join(self.dir, "runs1")
        sft = os.path.join(out, "sft_seed1")
        result = self.run_study(out, SFT_STEP_SECONDS="0.4", BOPO_SECONDS="2")
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(os.path.join(sft, "checkpoints", "latest")) as f:
            latest = f.read().strip()
        with open(os.path.join(out, "bopo_seed1", "train.seconds")) as f:
            budget = int(f.read())
        # At most the budget's whole 0.4 s steps, plus the one in progress.
        self.assertIn(latest, [f"step_{s}" for s in range(1, int(budget / 0.4) + 2)])
        evals = [c for c in self.calls_made() if c.startswith(f"eval {sft}/")]
        self.assertEqual(evals, [f"eval {sft}/eval/{latest}"])
        with open(os.path.join(self.report, "runs", "study.txt")) as f:
            self.assertIn("sft_stop=term", f.read().splitlines())

    def test_an_sft_run_that_ends_at_its_budget_with_no_checkpoint_is_an_error_and_starts_over(self):
        out = os.path.join(self.dir, "runs1")
        sft = os.path.join(out, "sft_seed1")
        result = self.run_study(out, SFT_STEP_SECONDS="0.4", BOPO_SECONDS="2", DIES_OF_TERM="1")
        self.assertEqual(result.returncode, 1)
        self.assertIn("sft seed 1 reached its", result.stderr)
        self.assertIn("budget with no checkpoint", result.stderr)
        self.assertIn("run the study again to train it from the start", result.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.report, "runs", "sft_seed1")))  # not archived as done
        self.calls_made()
        result = self.run_study(out, SFT_STEP_SECONDS="0.4")  # its budget is the bopo arm's, kept
        self.assertEqual(result.returncode, 0, result.stderr)
        trains = [c for c in self.calls_made() if c.startswith("train")]
        self.assertEqual(len(trains), 1)
        self.assertNotIn("--resume", trains[0])
        self.assertTrue(os.path.isfile(os.path.join(self.report, "runs", "sft_seed1", "train.seconds")))

    def test_sft_stop_kill_keeps_the_last_50_step_checkpoint_and_the_studies_made_before_it(self):
        # SIGKILL at the budget: no checkpoint at the budget (its few steps reach no 50th).
        out = os.path.join(self.dir, "runs1")
        result = self.run_study(out, SFT_STEP_SECONDS="0.4", SFT_STOP="kill")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertFalse([c for c in self.calls_made() if "sft_seed1/eval" in c])
        with open(os.path.join(self.report, "runs", "study.txt")) as f:
            self.assertFalse([line for line in f.read().splitlines() if line.startswith("sft_stop")])
        result = self.run_study(out, SFT_STOP="sometimes")
        self.assertEqual(result.returncode, 2)
        self.assertIn("SFT_STOP=sometimes", result.stderr)

    def test_another_starting_checkpoint_is_refused_naming_what_differs(self):
        self.assertEqual(self.run_study(os.path.join(self.dir, "runs1")).returncode, 0)
        self.calls_made()
        with open(os.path.join(self.base, "model.safetensors"), "wb") as f:
            f.write(b"weights two")  # the SFT model retrained differently
        result = self.run_study(os.path.join(self.dir, "runs2"))
        self.assertEqual(result.returncode, 2)
        self.assertIn("holds the runs of another study", result.stderr)
        self.assertIn("base_sha256=", result.stderr)
        self.assertEqual(self.calls_made(), [])
        with open(os.path.join(self.base, "model.safetensors"), "wb") as f:
            f.write(b"weights one")
        result = self.run_study(os.path.join(self.dir, "runs3"), STEPS="8")  # longer preference runs
        self.assertEqual(result.returncode, 2)
        self.assertIn("'steps=4', this run 'steps=8'", result.stderr)


if __name__ == "__main__":
    unittest.main()
