#!/usr/bin/env python3
"""experiments/common/base_sections.py: what a later run takes from the SFT checkpoint it starts
from, read from a checkpoint's config.yaml or a released model's files.

  python3 tests/experiments/base_sections_test.py       # what ctest runs (no C++ build needed)
"""
import json
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

    def write_release(self):
        release = os.path.join(self.dir, "models", "mis")
        os.makedirs(release)
        os.makedirs(os.path.join(self.dir, "configs"), exist_ok=True)
        with open(os.path.join(self.dir, "configs", "sft_mis.yaml"), "w") as f:
            yaml.safe_dump({"model": {"preset": "cpu_small", "hidden_size": 64, "rope_theta": 10000.0},
                            "data": {"config": "configs/data/other.yaml", "augment": True}}, f)
        shape = {"hidden_size": 128, "intermediate_size": 352, "num_hidden_layers": 4, "num_attention_heads": 4,
                 "num_key_value_heads": 4, "max_position_embeddings": 1024, "vocab_size": 2330}
        for name, content in (("release.json", {"problem": "mis", "data": "configs/data/mis50.yaml"}),
                              ("config.json", shape),
                              ("text_style.json", {"style": "compact_ranked", "candidates": 0})):
            with open(os.path.join(release, name), "w") as f:
                json.dump(content, f)
        return release

    def test_a_release_takes_its_shape_text_and_data_and_the_rest_from_its_sft_recipe(self):
        result = run("--all", self.write_release(), cwd=self.dir)
        self.assertEqual(result.returncode, 0, result.stderr)
        got = dict(line.split("=", 1) for line in result.stdout.splitlines())
        model = yaml.safe_load(got["model"])
        self.assertEqual(model["hidden_size"], 128)  # config.json's, not the recipe's 64
        self.assertEqual(model["num_hidden_layers"], 4)
        self.assertEqual((model["preset"], model["rope_theta"]), ("cpu_small", 10000.0))
        self.assertNotIn("vocab_size", model)  # the tokenizer's, not a recipe key
        self.assertEqual(yaml.safe_load(got["text"]), {"style": "compact_ranked", "candidates": 0})
        self.assertEqual(yaml.safe_load(got["data"]), {"config": "configs/data/mis50.yaml", "augment": True})
        self.assertEqual((got["dataset"], got["problem"]), ("data/mis50.h5", "mis"))

    def test_a_damaged_release_is_named(self):
        release = self.write_release()
        with open(os.path.join(release, "config.json"), "w") as f:
            f.write("{not json")
        result = run(release, cwd=self.dir)
        self.assertEqual(result.returncode, 2)
        self.assertIn("config.json", result.stderr)
        self.assertIn("take it again from git", result.stderr)

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
