#pragma once
// Shared by the model tests: a per-test temporary directory, error-message checks and a small
// module with nested names, a buffer and frozen-able parameters.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "falcon/core/error.h"
#include "falcon/core/torch/shim.h"
#include "falcon/model/config/model_config.h"
#include "falcon/model/transformer.h"

namespace falcon::model::testing {

namespace fs = std::filesystem;

// A fresh directory per test, removed afterwards.
class TempDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("falcon_" + std::string(info->test_suite_name()) + "_" + info->name() + "_" +
                                        std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Runs `f`, expects one falcon::Error whose message contains every needle; returns the message.
// SHOW_ERRORS=1 in the environment prints every message, to review their wording.
inline std::string expect_error(const std::function<void()>& f, const std::vector<std::string>& needles) {
  try {
    f();
  } catch (const falcon::Error& e) {
    const std::string msg = e.what();
    if (std::getenv("SHOW_ERRORS")) std::printf("ERR: %s\n", msg.c_str());
    for (const auto& n : needles) EXPECT_NE(msg.find(n), std::string::npos) << "missing '" << n << "' in: " << msg;
    return msg;
  }
  ADD_FAILURE() << "no falcon::Error thrown (expected one mentioning '" << (needles.empty() ? "" : needles[0]) << "')";
  return "";
}

// A Llama-family decoder small enough for many round trips: GQA (4 heads, 2 KV heads), 2 layers.
inline ModelConfig small_model_config() {
  ModelConfig c;
  c.vocab_size = 40;
  c.hidden_size = 16;
  c.intermediate_size = 24;
  c.num_hidden_layers = 2;
  c.num_attention_heads = 4;
  c.num_key_value_heads = 2;
  return c;
}

// A CPU model of `config` with weights large enough for logits of order 1 (HF's std 0.02 gives
// ~1e-2, which would make an absolute tolerance meaningless), and an exact copy on `device`.
inline std::pair<CausalLm, CausalLm> model_and_copy_on(const ModelConfig& config, torch::Device device,
                                                       std::uint64_t seed) {
  torch::manual_seed(seed);
  CausalLm original(config);
  torch::NoGradGuard no_grad;
  for (auto& p : original->parameters())
    if (p.dim() == 2) p.normal_(0.0, 0.15);
  CausalLm copy(config, torch::TensorOptions().device(device));
  auto source = original->named_parameters();
  for (auto& named : copy->named_parameters()) named.value().copy_(source[named.key()]);
  return {original, copy};
}

// "block.fc.weight" (4 -> 6), "block.fc.bias", "block.scale" (buffer), "head.weight" (6 -> 3).
struct ToyBlockImpl : torch::nn::Module {
  explicit ToyBlockImpl(std::int64_t width) {
    fc = register_module("fc", torch::nn::Linear(4, width));
    scale = register_buffer("scale", torch::linspace(0.5, 1.5, width));
  }
  torch::nn::Linear fc{nullptr};
  torch::Tensor scale;
};
TORCH_MODULE(ToyBlock);

struct ToyModelImpl : torch::nn::Module {
  explicit ToyModelImpl(std::int64_t width = 6) {
    block = register_module("block", ToyBlock(width));
    head = register_module("head", torch::nn::Linear(torch::nn::LinearOptions(width, 3).bias(false)));
  }
  torch::Tensor forward(const torch::Tensor& x) {  // (B, 4) -> (B, 3)
    return head(torch::tanh(block->fc(x)) * block->scale);
  }
  ToyBlock block{nullptr};
  torch::nn::Linear head{nullptr};
};
TORCH_MODULE(ToyModel);

}  // namespace falcon::model::testing
