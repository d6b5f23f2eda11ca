#!/usr/bin/env python3
"""experiments/common/train_models.sh's assumption about configs/: the tables' BOPO model of problem
p is configs/sft_<p>.yaml's model trained on by the BOPO stage of configs/bopo_<p>.yaml, so the two
recipes must agree on everything before that stage, or the tables' model is not the recipe's.

  python3 tests/experiments/train_models_recipes_test.py       # what ctest runs (no C++ build needed)
Needs python3-yaml (skipped without it).
"""
import os
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PROBLEMS = ("tsp", "op", "cvrp", "mis", "mvc", "pfsp", "jssp")
SHARED_KEYS = ("seed", "model", "tokenizer", "text", "data", "init")

try:
    import yaml
except ImportError:
    yaml = None


def recipe(name):
    with open(os.path.join(ROOT, "configs", name)) as f:
        return yaml.safe_load(f)


@unittest.skipIf(yaml is None, "python3-yaml is not installed")
class SftRecipeIsTheStartOfBopo(unittest.TestCase):
    def test_every_problem_has_both_recipes_with_one_stage_before_bopo(self):
        for p in PROBLEMS:
            with self.subTest(problem=p):
                self.assertEqual([s["type"] for s in recipe(f"sft_{p}.yaml")["stages"]], ["sft"])
                self.assertEqual([s["type"] for s in recipe(f"bopo_{p}.yaml")["stages"]], ["sft", "bopo"])

    def test_the_sft_recipe_equals_the_bopo_recipe_up_to_its_bopo_stage(self):
        for p in PROBLEMS:
            sft, bopo = recipe(f"sft_{p}.yaml"), recipe(f"bopo_{p}.yaml")
            for key in SHARED_KEYS:
                with self.subTest(problem=p, key=key):
                    self.assertEqual(sft.get(key), bopo.get(key), f"configs/sft_{p}.yaml and bopo_{p}.yaml differ in '{key}'")
            with self.subTest(problem=p, key="stages[0]"):
                self.assertEqual(sft["stages"][0], bopo["stages"][0],
                                 f"configs/sft_{p}.yaml's stage differs from the SFT stage of bopo_{p}.yaml")


if __name__ == "__main__":
    unittest.main()
