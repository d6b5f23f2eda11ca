#include "falcon/model/state_dict.h"

#include <gtest/gtest.h>

#include "model_test_util.h"

namespace falcon::model {
namespace {

using testing::expect_error;
using testing::ToyModel;

TEST(StateDict, HoldsParametersAndBuffersByFullName) {
  ToyModel model;
  const TensorMap sd = state_dict(*model);
  std::vector<std::string> names;
  for (const auto& [name, _] : sd) names.push_back(name);
  const std::vector<std::string> expected = {"block.fc.bias", "block.fc.weight", "block.scale", "head.weight"};
  EXPECT_EQ(names, expected);
  EXPECT_FALSE(sd.at("head.weight").requires_grad());
  // Views of the module's storage, not copies.
  EXPECT_EQ(sd.at("head.weight").data_ptr(), model->head->weight.data_ptr());
}

TEST(StateDict, LoadCopiesEverythingAndKeepsRequiresGrad) {
  torch::manual_seed(1);
  ToyModel source, target;
  target->head->weight.requires_grad_(false);  // a frozen parameter stays frozen
  TensorMap sd;
  for (const auto& [name, t] : state_dict(*source)) sd.emplace(name, t.clone());
  const LoadReport report = load_state_dict(*target, sd);
  EXPECT_TRUE(report.ignored.empty());
  EXPECT_TRUE(report.missing.empty());
  for (const auto& [name, t] : state_dict(*target)) EXPECT_TRUE(torch::equal(t, sd.at(name))) << name;
  EXPECT_TRUE(target->block->fc->weight.requires_grad());
  EXPECT_FALSE(target->head->weight.requires_grad());
  const auto x = torch::randn({5, 4});
  EXPECT_TRUE(torch::equal(source->forward(x), target->forward(x)));
}

TEST(StateDict, ConvertsBfloat16FilesToTheModelDtype) {
  ToyModel model;
  TensorMap sd;
  for (const auto& [name, t] : state_dict(*model)) sd.emplace(name, (t + 1).to(torch::kBFloat16));
  load_state_dict(*model, sd);
  EXPECT_EQ(model->head->weight.scalar_type(), torch::kFloat32);
  EXPECT_TRUE(torch::equal(model->head->weight, sd.at("head.weight").to(torch::kFloat32)));
}

TEST(StateDict, OneErrorListsMissingUnexpectedAndMismatchedNames) {
  ToyModel model;
  const torch::Tensor before = model->head->weight.clone();
  TensorMap sd;
  for (const auto& [name, t] : state_dict(*model)) sd.emplace(name, t.clone() + 1);
  sd.erase("block.fc.bias");
  sd.emplace("block.extra", torch::zeros({2, 2}));
  sd["block.fc.weight"] = torch::zeros({5, 4});
  LoadOptions options;
  options.source = "ckpt/model.safetensors";
  expect_error([&] { load_state_dict(*model, sd, options); },
               {"ckpt/model.safetensors", "missing from the file (1): block.fc.bias [6]",
                "not in the model (1): block.extra [2, 2]", "block.fc.weight: expected [6, 4], got [5, 4]",
                "LoadOptions"});
  // Nothing was copied: the checks run first.
  EXPECT_TRUE(torch::equal(model->head->weight, before));
}

TEST(StateDict, ListsOnlyTheFirstFewOffenders) {
  ToyModel model;
  TensorMap sd = state_dict(*model);
  for (int i = 0; i < 12; ++i) sd.emplace("extra." + std::to_string(i), torch::zeros({1}));
  const std::string msg = expect_error([&] { load_state_dict(*model, sd); }, {"not in the model (12)", "and 7 more"});
  EXPECT_EQ(msg.find("extra.7"), std::string::npos) << msg;
}

TEST(StateDict, IntegerDataCannotBecomeFloatWeights) {
  ToyModel model;
  TensorMap sd = state_dict(*model);
  sd["head.weight"] = torch::zeros({3, 6}, torch::kInt64);
  expect_error([&] { load_state_dict(*model, sd); }, {"head.weight", "Long", "Float"});
}

TEST(StateDict, IgnoresOldRotaryTablesAndAllowsListedMissingNames) {
  ToyModel model;
  TensorMap sd = state_dict(*model);
  sd.emplace("model.layers.0.self_attn.rotary_emb.inv_freq", torch::ones({4}));
  sd.erase("head.weight");
  LoadOptions options;
  options.allow_missing = {"head.*"};
  const LoadReport report = load_state_dict(*model, sd, options);
  EXPECT_EQ(report.ignored, std::vector<std::string>{"model.layers.0.self_attn.rotary_emb.inv_freq"});
  EXPECT_EQ(report.missing, std::vector<std::string>{"head.weight"});
  options.ignore_unexpected.clear();
  expect_error([&] { load_state_dict(*model, sd, options); }, {"rotary_emb.inv_freq"});
}

TEST(StateDict, GlobMatch) {
  EXPECT_TRUE(glob_match("*.rotary_emb.inv_freq", "model.layers.3.self_attn.rotary_emb.inv_freq"));
  EXPECT_FALSE(glob_match("*.rotary_emb.inv_freq", "rotary_emb.inv_freq"));
  EXPECT_TRUE(glob_match("*lora_*", "a.lora_A.weight"));
  EXPECT_TRUE(glob_match("a*b*c", "a__b__b__c"));
  EXPECT_FALSE(glob_match("a*b*c", "a__b__b__cd"));
  EXPECT_TRUE(glob_match("exact", "exact"));
  EXPECT_FALSE(glob_match("exact", "exactly"));
  EXPECT_TRUE(glob_match("*", ""));
}

}  // namespace
}  // namespace falcon::model
