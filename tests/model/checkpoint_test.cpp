#include "falcon/model/checkpoint.h"

#include <gtest/gtest.h>

#include "falcon/model/adamw_state.h"
#include "falcon/model/safetensors.h"
#include "falcon/model/state_dict.h"
#include "falcon/model/transformer.h"
#include "model_test_util.h"

namespace falcon::model {
namespace {

namespace fs = std::filesystem;
using testing::expect_error;
using testing::read_text;
using testing::small_model_config;
using testing::ToyModel;
using testing::write_text;
using torch::optim::AdamW;
using torch::optim::AdamWOptions;

// Two param groups with different settings, so restoring the groups is tested too.
std::unique_ptr<AdamW> make_optimizer(ToyModel& m, bool amsgrad, double lr = 1e-2) {
  std::vector<torch::optim::OptimizerParamGroup> groups;
  groups.emplace_back(m->block->parameters(),
                      std::make_unique<AdamWOptions>(AdamWOptions(lr).weight_decay(0.1).amsgrad(amsgrad)));
  groups.emplace_back(m->head->parameters(),
                      std::make_unique<AdamWOptions>(AdamWOptions(lr / 2).betas({0.8, 0.99}).amsgrad(amsgrad)));
  return std::make_unique<AdamW>(std::move(groups), AdamWOptions(lr));
}

// Steps [first, first + count) on data that depends only on the step number.
void train(ToyModel& m, AdamW& opt, int first, int count) {
  for (int step = first; step < first + count; ++step) {
    const auto x = torch::sin(torch::arange(20, torch::kFloat32).reshape({5, 4}) * (step + 1));  // (5, 4)
    const auto loss = (m->forward(x) - 0.3).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

TensorMap snapshot(const torch::nn::Module& m) {
  TensorMap out;
  for (const auto& [name, t] : state_dict(m)) out.emplace(name, t.clone());
  return out;
}

void expect_bitwise_equal(const TensorMap& a, const TensorMap& b) {
  ASSERT_EQ(a.size(), b.size());
  for (const auto& [name, t] : a) EXPECT_TRUE(torch::equal(t, b.at(name))) << name;
}

CheckpointData data_at(std::int64_t step) {
  CheckpointData d;
  d.step = step;
  d.trainer_state = {{"epoch", 2}, {"cursor", 17}, {"rng", "seed=5;draws=99"}};
  d.config_yaml = "model:\n  preset: tiny\nseed: 1\noptimizer:\n  lr: 0.01\n";
  return d;
}

class CheckpointTest : public testing::TempDirTest {
 protected:
  // A model trained 3 steps, saved as step 3 under root(); returns its state for comparisons.
  void save_trained(bool amsgrad = false) {
    torch::manual_seed(3);
    model_ = ToyModel();
    optimizer_ = make_optimizer(model_, amsgrad);
    train(model_, *optimizer_, 0, 3);
    save_checkpoint(root(), data_at(3), *model_, optimizer_.get());
  }
  std::string root() const { return path("run"); }
  std::string step_dir(int step) const { return root() + "/step_" + std::to_string(step); }

  ToyModel model_{nullptr};
  std::unique_ptr<AdamW> optimizer_;
};

class AdamWContinuation : public CheckpointTest, public ::testing::WithParamInterface<bool> {};

TEST_P(AdamWContinuation, OneStepAfterLoadEqualsTheStepWithoutBitwise) {
  const bool amsgrad = GetParam();
  save_trained(amsgrad);
  train(model_, *optimizer_, 3, 2);  // the uninterrupted run
  const TensorMap expected = snapshot(*model_);

  torch::manual_seed(99);  // different initial weights and settings: all must come from the file
  ToyModel resumed;
  auto optimizer = make_optimizer(resumed, amsgrad, /*lr=*/0.5);
  const LoadedCheckpoint loaded = load_checkpoint(root(), *resumed, optimizer.get());
  EXPECT_EQ(loaded.dir, step_dir(3));
  EXPECT_EQ(loaded.data.step, 3);
  EXPECT_EQ(loaded.data.trainer_state, data_at(3).trainer_state);
  EXPECT_EQ(loaded.data.config_yaml, data_at(3).config_yaml);
  EXPECT_EQ(static_cast<AdamWOptions&>(optimizer->param_groups()[1].options()).lr(), 1e-2 / 2);
  train(resumed, *optimizer, 3, 2);
  expect_bitwise_equal(snapshot(*resumed), expected);
}

INSTANTIATE_TEST_SUITE_P(Amsgrad, AdamWContinuation, ::testing::Bool());

TEST_F(CheckpointTest, OptimizerStateIsKeyedByParameterName) {
  save_trained(/*amsgrad=*/true);
  const TensorMap state = read_safetensors(step_dir(3) + "/optimizer.safetensors");
  for (const char* name : {"block.fc.weight", "block.fc.bias", "head.weight"}) {
    for (const char* part : {".exp_avg", ".exp_avg_sq", ".max_exp_avg_sq", ".step"})
      EXPECT_TRUE(state.count(std::string(name) + part)) << name << part;
  }
  EXPECT_EQ(state.at("head.weight.step").item<std::int64_t>(), 3);
  EXPECT_EQ(state.size(), 12u);
  for (const char* file : {"model.safetensors", "trainer_state.json", "config.yaml", "checkpoint.json"})
    EXPECT_TRUE(fs::exists(step_dir(3) + "/" + file)) << file;
  EXPECT_EQ(read_text(root() + "/latest"), "step_3\n");
}

TEST_F(CheckpointTest, LatestKeepLastAndLeftoverTemporaries) {
  torch::manual_seed(3);
  ToyModel m;
  CheckpointSaveOptions options;
  options.keep_last = 2;
  for (int step = 1; step <= 4; ++step) save_checkpoint(root(), data_at(step), *m, nullptr, options);
  EXPECT_EQ(list_checkpoints(root()), (std::vector<std::string>{step_dir(3), step_dir(4)}));
  EXPECT_EQ(read_text(root() + "/latest"), "step_4\n");

  // A save that died mid-way (its process gone) and one in progress: loading ignores both.
  fs::create_directories(root() + "/step_9.tmp-999999999");
  write_text(root() + "/step_9.tmp-999999999/model.safetensors", "half a file");
  fs::create_directories(root() + "/step_8.tmp-" + std::to_string(::getpid()));
  EXPECT_EQ(load_checkpoint(root(), *m, nullptr).data.step, 4);
  fs::remove(root() + "/latest");  // crashed between the directory rename and `latest`
  fs::create_directories(root() + "/step_7");  // no checkpoint.json: not complete
  EXPECT_EQ(find_checkpoint(root()), step_dir(4));
  EXPECT_EQ(load_checkpoint(root(), *m, nullptr).data.step, 4);

  // The next save removes the dead process's directory, not a live one.
  save_checkpoint(root(), data_at(5), *m, nullptr, options);
  EXPECT_FALSE(fs::exists(root() + "/step_9.tmp-999999999"));
  EXPECT_TRUE(fs::exists(root() + "/step_8.tmp-" + std::to_string(::getpid())));
  EXPECT_EQ(find_checkpoint(path("fresh_run")), "");
  expect_error([&] { load_checkpoint(path("fresh_run"), *m, nullptr); }, {"fresh_run", "no checkpoint"});
}

TEST_F(CheckpointTest, SavingTheSameStepAgainReplacesIt) {
  torch::manual_seed(3);
  ToyModel m;
  save_checkpoint(root(), data_at(5), *m, nullptr);
  {
    torch::NoGradGuard no_grad;
    m->head->weight.fill_(0.25);
  }
  save_checkpoint(root(), data_at(5), *m, nullptr);
  ToyModel other;
  load_checkpoint(step_dir(5), *other, nullptr);
  EXPECT_TRUE(torch::equal(other->head->weight, m->head->weight));
  std::vector<std::string> entries;
  for (const auto& e : fs::directory_iterator(root())) entries.push_back(e.path().filename().string());
  std::sort(entries.begin(), entries.end());
  EXPECT_EQ(entries, (std::vector<std::string>{"latest", "step_5"}));
}

TEST_F(CheckpointTest, TrainableOnlyCheckpointLeavesTheFrozenBaseAlone) {
  torch::manual_seed(3);
  ToyModel m;
  m->block->fc->weight.requires_grad_(false);
  m->block->fc->bias.requires_grad_(false);
  CheckpointSaveOptions options;
  options.weights = CheckpointWeights::kTrainable;
  options.base_model = "runs/sft/step_100";
  save_checkpoint(root(), data_at(1), *m, nullptr, options);
  const TensorMap file = read_safetensors(step_dir(1) + "/model.safetensors");
  EXPECT_EQ(file.size(), 1u);
  EXPECT_TRUE(file.count("head.weight"));

  torch::manual_seed(4);
  ToyModel other;
  other->block->fc->weight.requires_grad_(false);
  other->block->fc->bias.requires_grad_(false);
  const torch::Tensor base = other->block->fc->weight.clone();
  const LoadedCheckpoint loaded = load_checkpoint(root(), *other, nullptr);
  EXPECT_EQ(loaded.weights, CheckpointWeights::kTrainable);
  EXPECT_EQ(loaded.base_model, "runs/sft/step_100");
  EXPECT_TRUE(torch::equal(other->head->weight, m->head->weight));
  EXPECT_TRUE(torch::equal(other->block->fc->weight, base));

  ToyModel all_trainable;  // now block.fc is trainable too, but the file lacks it
  expect_error([&] { load_checkpoint(root(), *all_trainable, nullptr); }, {"model.safetensors", "block.fc.weight"});
}

TEST_F(CheckpointTest, CorruptOrMismatchedCheckpointsNameTheFileAndTensor) {
  save_trained();
  const std::string dir = step_dir(3);
  ToyModel target;
  auto optimizer = make_optimizer(target, false);

  // Different model: shape mismatch names the tensor with both shapes.
  ToyModel wider(7);
  auto wider_optimizer = make_optimizer(wider, false);
  expect_error([&] { load_checkpoint(root(), *wider, wider_optimizer.get()); },
               {dir + "/model.safetensors", "block.fc.weight: expected [7, 4], got [6, 4]"});

  // A different run config names the first differing key; ignored paths may differ.
  CheckpointLoadOptions options;
  options.expected_config_yaml = "model:\n  preset: tiny\nseed: 1\noptimizer:\n  lr: 0.02\n";
  expect_error([&] { load_checkpoint(root(), *target, optimizer.get(), options); }, {dir + "/config.yaml", "optimizer.lr"});
  options.ignored_config_paths = {"optimizer.lr"};
  EXPECT_NO_THROW(load_checkpoint(root(), *target, optimizer.get(), options));

  // Optimizer state missing one tensor (the settings metadata kept).
  const std::string opt_path = dir + "/optimizer.safetensors";
  const std::string opt_bytes = read_text(opt_path);
  TensorMap opt = read_safetensors(opt_path);
  opt.erase("head.weight.exp_avg_sq");
  write_safetensors(opt_path, opt, read_safetensors_metadata(opt_path));
  ToyModel fresh;
  auto fresh_optimizer = make_optimizer(fresh, false);
  const TensorMap fresh_before = snapshot(*fresh);
  expect_error([&] { load_checkpoint(root(), *fresh, fresh_optimizer.get()); }, {opt_path, "head.weight.exp_avg_sq", "missing"});
  expect_bitwise_equal(snapshot(*fresh), fresh_before);  // nothing was changed
  EXPECT_TRUE(fresh_optimizer->state().empty());
  opt = read_safetensors(opt_path);
  opt.emplace("head.weight.exp_avg_sq", torch::zeros({3, 5}));
  write_safetensors(opt_path, opt, read_safetensors_metadata(opt_path));
  expect_error([&] { load_checkpoint(root(), *fresh, fresh_optimizer.get()); }, {opt_path, "head.weight.exp_avg_sq", "[3, 5]"});

  // An optimizer whose groups hold other parameters.
  write_text(opt_path, opt_bytes);
  AdamW one_group(fresh->parameters(), AdamWOptions(1e-3));
  expect_error([&] { load_checkpoint(root(), *fresh, &one_group); }, {opt_path, "param groups"});

  // Truncated and missing files.
  write_text(opt_path, opt_bytes.substr(0, opt_bytes.size() - 10));
  expect_error([&] { load_checkpoint(root(), *fresh, fresh_optimizer.get()); }, {opt_path});
  fs::remove(opt_path);
  expect_error([&] { load_checkpoint(root(), *fresh, fresh_optimizer.get()); }, {opt_path, "missing"});
  EXPECT_NO_THROW(load_checkpoint(root(), *fresh, nullptr));  // weights only

  const std::string model_path = dir + "/model.safetensors";
  const std::string model_bytes = read_text(model_path);
  const TensorMap before = snapshot(*target);
  write_text(model_path, model_bytes.substr(0, model_bytes.size() / 2));
  expect_error([&] { load_checkpoint(root(), *target, nullptr); }, {model_path});
  expect_bitwise_equal(snapshot(*target), before);

  write_text(model_path, model_bytes);
  write_text(dir + "/trainer_state.json", "{\"epoch\": ");
  expect_error([&] { load_checkpoint(root(), *target, nullptr); }, {dir + "/trainer_state.json", "JSON"});
  fs::remove(dir + "/trainer_state.json");
  expect_error([&] { load_checkpoint(root(), *target, nullptr); }, {dir + "/trainer_state.json", "missing"});
  fs::remove(dir + "/checkpoint.json");
  expect_error([&] { load_checkpoint(dir, *target, nullptr); }, {"checkpoint.json"});
  write_text(root() + "/latest", "../../etc\n");
  expect_error([&] { load_checkpoint(root(), *target, nullptr); }, {root() + "/latest", "step_<N>"});
}

TEST_F(CheckpointTest, LoadingTheOptimizerOfACheckpointSavedWithoutOneIsAnError) {
  torch::manual_seed(3);
  ToyModel m;
  save_checkpoint(root(), data_at(1), *m, nullptr);
  auto optimizer = make_optimizer(m, false);
  expect_error([&] { load_checkpoint(root(), *m, optimizer.get()); }, {"checkpoint.json", "no optimizer state"});
}

TEST_F(CheckpointTest, LoraAdaptersOfAFrozenCausalLmResumeExactly) {
  const ModelConfig c = small_model_config();
  LoraConfig lora;
  lora.rank = 2;
  const auto ids = torch::tensor({{1, 5, 9, 2, 7, 3}}, torch::kInt64);  // (1, T)
  auto make = [&](const TensorMap& base) {
    CausalLm m(c);
    if (!base.empty()) load_state_dict(*m, base);
    m->add_lora(lora);
    m->freeze_base();
    return m;
  };
  auto step = [&](CausalLm& m, AdamW& opt) {
    const auto logits = m->forward(ids);  // (1, T, V)
    const auto loss = torch::nn::functional::cross_entropy(logits.narrow(1, 0, 5).reshape({5, c.vocab_size}),
                                                           ids.narrow(1, 1, 5).reshape({5}));
    opt.zero_grad();
    loss.backward();
    opt.step();
  };
  auto trainable = [](CausalLm& m) {
    std::vector<torch::Tensor> out;
    for (auto& [name, t] : m->named_lora_parameters()) out.push_back(t);
    return out;
  };

  torch::manual_seed(11);
  CausalLm a = make({});
  TensorMap base;
  for (const auto& [name, t] : state_dict(*a))
    if (name.find(".lora_") == std::string::npos) base.emplace(name, t.clone());
  AdamW opt_a(trainable(a), AdamWOptions(1e-2));
  for (int i = 0; i < 2; ++i) step(a, opt_a);
  CheckpointSaveOptions options;
  options.weights = CheckpointWeights::kTrainable;
  save_checkpoint(root(), data_at(2), *a, &opt_a, options);
  EXPECT_EQ(read_safetensors(step_dir(2) + "/model.safetensors").size(), a->named_lora_parameters().size());
  step(a, opt_a);

  torch::manual_seed(12);
  CausalLm b = make(base);  // the same frozen base, fresh adapters
  AdamW opt_b(trainable(b), AdamWOptions(1e-2));
  load_checkpoint(root(), *b, &opt_b);
  step(b, opt_b);
  expect_bitwise_equal(snapshot(*b), snapshot(*a));
}

}  // namespace
}  // namespace falcon::model
