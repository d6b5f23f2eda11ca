#!/usr/bin/env python3
"""experiments/common/base_sections.py: what a later run takes from the SFT checkpoint it starts
from, read from a checkpoint's config.yaml.

  python3 tests/experiments/base_sections_test.py       # what ctest runs (no C++ build needed)
"""
import os
import subprocess
import sys
import tempfile
import unittest

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(ROOT, "experiments", "common", "base_sections.py")


def run(*args, cwd):
    return subprocess.run([sys.executable, SCRIPT, *args], cwd=cwd, capture_output=True, text=True)


class BaseSections(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        os.makedirs(os.path.join(self.dir, "configs", "data"))
        with open(os.path.join(self.dir, "configs", "data", "mis50.yaml"), "w") as f:
            yaml.safe_dump({"problem": "mis", "output": "data/mis50.h5"}, f)
        self.checkpoint = os.path.join(self.dir, "run", "checkpoints", "step_1000")
        os.makedirs(self.checkpoint)
        self.recipe = {
            "seed": 1,
            "model": {"hidden_size": 128, "max_position_embeddings": 1024, "rms_norm_eps": 1e-05},
            "text": {"style": "compact_ranked", "candidates": 0},
            "data": {"config": "configs/data/mis50.yaml", "eval_split": "test", "augment": False},
            "stages": [{"name": "sft", "type": "sft", "steps": 1000}],
        }
        self.write_recipe(self.recipe)

    def tearDown(self):
        self.tmp.cleanup()

    def write_recipe(self, recipe):
        with open(os.path.join(self.checkpoint, "config.yaml"), "w") as f:
            yaml.safe_dump(recipe, f)

    def test_overrides_give_back_each_section_as_it_was(self):
        result = run(self.checkpoint, cwd=self.dir)
        self.assertEqual(result.returncode, 0, result.stderr)
        lines = result.stdout.splitlines()
        self.assertEqual([line.split("=", 1)[0] for line in lines], ["model", "text", "data"])
        for line in lines:
            key, value = line.split("=", 1)
            self.assertEqual(yaml.safe_load(value), self.recipe[key], key)

    def test_dataset_and_problem_come_from_the_data_config(self):
        everything = run("--all", self.checkpoint, cwd=self.dir).stdout.splitlines()
        self.assertEqual([line.split("=", 1)[0] for line in everything], ["model", "text", "data", "dataset", "problem"])
        self.assertEqual(everything[3:], ["dataset=data/mis50.h5", "problem=mis"])

    def test_a_run_from_before_the_text_section_wrote_the_paper_text(self):
        del self.recipe["text"]
        self.write_recipe(self.recipe)
        text = [line for line in run(self.checkpoint, cwd=self.dir).stdout.splitlines() if line.startswith("text=")]
        self.assertEqual(yaml.safe_load(text[0].split("=", 1)[1]), {"style": "paper"})

    def test_faults_name_the_file_and_what_to_do(self):
        missing = run(os.path.join(self.dir, "run", "final"), cwd=self.dir)
        self.assertEqual(missing.returncode, 2)
        self.assertIn("final/config.yaml is missing", missing.stderr)
        self.assertIn("checkpoints/step_N", missing.stderr)

        self.recipe["data"]["config"] = ["configs/data/mis50.yaml", "configs/data/mvc50.yaml"]
        self.write_recipe(self.recipe)
        mixture = run("--all", self.checkpoint, cwd=self.dir)
        self.assertEqual(mixture.returncode, 2)
        self.assertIn("one dataset", mixture.stderr)

        with open(os.path.join(self.checkpoint, "config.yaml"), "w") as f:
            f.write("model: [unclosed\n")
        damaged = run(self.checkpoint, cwd=self.dir)
        self.assertEqual(damaged.returncode, 2)
        self.assertIn("take an earlier one", damaged.stderr)


if __name__ == "__main__":
    unittest.main()
