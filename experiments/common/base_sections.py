#!/usr/bin/env python3
"""What a run that starts from an SFT checkpoint must take from it: the model it was built as, the
text it learned and the data it trained on, whatever the recipe the new run reads says (GRPO and
FOARL use the TSP recipes on every problem; a preference stage is one recipe for many models).

  base_sections.py CHECKPOINT             # falcon_train overrides, one a line: model=..., text=..., data=...
  base_sections.py --all CHECKPOINT       # the three, then dataset=... (the file of its data
                                          # section: its held-out split) and problem=...

CHECKPOINT is a checkpoint folder (`runs/sft_tsp/checkpoints/step_1200`): its config.yaml is the
whole recipe its run resolved. Or a released model (`models/pfsp`), which keeps no recipe: its
release.json names the problem and the data config, text_style.json the text, config.json the
model's shape, and the rest of the model and data sections is the problem's SFT recipe
(configs/sft_<problem>.yaml), the recipe every release is continued with. Errors name the file and
exit 2.
"""
import json
import os
import sys

import yaml

SECTIONS = ("model", "text", "data")


def fail(message):
    print(f"base_sections.py: {message}", file=sys.stderr)
    sys.exit(2)


# config.json's names for the model section's shape keys
SHAPE = ("hidden_size", "intermediate_size", "num_hidden_layers", "num_attention_heads",
         "num_key_value_heads", "max_position_embeddings")


def read_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        fail(f"{path}: {e}: the release is damaged; take it again from git")


def release_recipe(model_dir):
    """The sections of a released model (models/<problem>): see the module's docstring."""
    release_path = os.path.join(model_dir, "release.json")
    release = read_json(release_path)
    problem, data_config_path = release.get("problem"), release.get("data")
    if not isinstance(problem, str) or not isinstance(data_config_path, str):
        fail(f"{release_path} names no problem and data config")
    recipe_path = os.path.join("configs", f"sft_{problem}.yaml")
    if not os.path.isfile(recipe_path):
        fail(f"{recipe_path} is missing: a release of '{problem}' is continued with it (run from the repository root)")
    with open(recipe_path, encoding="utf-8") as f:
        recipe = yaml.safe_load(f) or {}
    shape = read_json(os.path.join(model_dir, "config.json"))
    model = dict(recipe.get("model") or {})
    for key in SHAPE:
        if key not in shape:
            fail(f"{os.path.join(model_dir, 'config.json')} has no '{key}': the release is damaged")
        model[key] = shape[key]
    text = read_json(os.path.join(model_dir, "text_style.json"))
    data = dict(recipe.get("data") or {}, config=data_config_path)
    return {"model": model, "text": text, "data": data}, release_path


def checkpoint_recipe(checkpoint):
    if os.path.isfile(os.path.join(checkpoint, "release.json")):
        return release_recipe(checkpoint)
    path = os.path.join(checkpoint, "config.yaml")
    if not os.path.isfile(path):
        fail(f"{path} is missing: name a checkpoint folder of a falcon_train run (<run>/checkpoints/step_N) "
             "or a released model (models/<problem>)")
    try:
        with open(path, encoding="utf-8") as f:
            recipe = yaml.safe_load(f)
    except yaml.YAMLError as e:
        fail(f"{path} is not YAML ({e}): the checkpoint is damaged; take an earlier one")
    if not isinstance(recipe, dict) or not all(k in recipe for k in ("model", "data")):
        fail(f"{path} has no model and data sections: the checkpoint is damaged; take an earlier one")
    recipe.setdefault("text", {"style": "paper"})  # runs from before the text section
    return recipe, path


def overrides(recipe):
    """One `key={flow YAML}` line per section, as falcon_train's command line takes them."""
    return [key + "=" + yaml.safe_dump(recipe[key], default_flow_style=True, width=10**6).strip()
            for key in SECTIONS]


def data_config(recipe, path):
    """The dataset config the run trained on (one: a mixture of datasets has no one held-out set)."""
    config = recipe["data"].get("config")
    if not isinstance(config, str) or not config:
        fail(f"{path}: data.config is {config!r}: a run over one dataset is needed here")
    if not os.path.isfile(config):
        fail(f"{path}: data.config names {config}, which is not there (run from the repository root)")
    with open(config, encoding="utf-8") as f:
        return yaml.safe_load(f) or {}, config


def dataset_field(recipe, path, key):
    """data.config's `output` (the dataset file) or `problem`."""
    config, config_path = data_config(recipe, path)
    if not config.get(key):
        fail(f"{config_path} has no '{key}'")
    return config[key]


def main(argv):
    everything = bool(argv) and argv[0] == "--all"
    if everything:
        argv = argv[1:]
    if len(argv) != 1:
        fail("usage: base_sections.py [--all] CHECKPOINT")
    recipe, path = checkpoint_recipe(argv[0])
    lines = overrides(recipe)
    if everything:
        lines += ["dataset=" + dataset_field(recipe, path, "output"), "problem=" + dataset_field(recipe, path, "problem")]
    print("\n".join(lines))


if __name__ == "__main__":
    main(sys.argv[1:])
