#!/usr/bin/env python3
"""Tiny random Hugging Face models with reference logits: the fixtures of the parity test that
loads them with falcon/model (tests/model/hf_parity_test.cpp). Needs torch and transformers, so it
runs where they are (a lent GPU machine: tools/gpu_check.sh OUT hf); its output is committed.

  python3 tools/make_hf_fixtures.py OUT_DIR   # writes OUT_DIR/{tiny_llama,tiny_qwen2}/

Each folder: config.json, model.safetensors (float32) and reference_logits.json
({"input_ids": [[...]], "logits": [[[...]]], "transformers": version, "torch": version}).
Weights are drawn with std 0.2 instead of HF's 0.02 so that logits are of order 1 and a
difference is measured against something.
"""
import json
import os
import sys

import torch
import transformers
from transformers import LlamaConfig, LlamaForCausalLM, Qwen2Config, Qwen2ForCausalLM

# Two rows of fixed ids, the second with a repeated token and id 0, as a checkpoint might see.
INPUT_IDS = [[1, 5, 9, 2, 7, 3, 11, 4, 60, 33], [6, 6, 2, 9, 1, 0, 8, 12, 45, 17]]

COMMON = dict(vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
              num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64)


def save(out_dir, name, model):
    torch.manual_seed(1)
    with torch.no_grad():
        for key, p in model.named_parameters():
            if p.dim() == 2 or key.endswith(".bias"):  # Qwen2's q/k/v biases too: their path is exercised
                p.normal_(0.0, 0.2)
    model.eval()
    folder = os.path.join(out_dir, name)
    model.save_pretrained(folder, safe_serialization=True)
    with torch.no_grad():
        logits = model(torch.tensor(INPUT_IDS)).logits
    with open(os.path.join(folder, "reference_logits.json"), "w") as f:
        json.dump({"input_ids": INPUT_IDS, "logits": logits.tolist(),
                   "transformers": transformers.__version__, "torch": torch.__version__}, f)
    print(f"{name}: {sum(p.numel() for p in model.parameters())} parameters, "
          f"max |logit| {logits.abs().max().item():.3f}, files {sorted(os.listdir(folder))}")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_hf_fixtures.py OUT_DIR")
    torch.manual_seed(0)
    llama = LlamaForCausalLM(LlamaConfig(**COMMON, rope_theta=10000.0, tie_word_embeddings=False))
    save(sys.argv[1], "tiny_llama", llama.float())
    qwen = Qwen2ForCausalLM(Qwen2Config(**COMMON, rope_theta=1000000.0, tie_word_embeddings=True))
    save(sys.argv[1], "tiny_qwen2", qwen.float())


if __name__ == "__main__":
    main()
