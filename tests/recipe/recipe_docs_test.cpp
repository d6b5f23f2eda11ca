// docs/training.md's stage tables against the reader's defaults (stage_defaults and each
// algorithm's keys): a default changed in one place and not the other fails here.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>

#include "falcon/recipe/algorithms.h"

namespace falcon::recipe {
namespace {

// The default column of every "| `key` | default | ..." row of docs/training.md, backticks and a
// trailing "(paper)" dropped.
std::map<std::string, std::string> documented_defaults() {
  std::ifstream in(std::string(FALCON_SOURCE_DIR) + "/docs/training.md");
  std::map<std::string, std::string> out;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("| `", 0) != 0) continue;
    std::vector<std::string> cells;
    std::istringstream row(line.substr(1));
    for (std::string cell; std::getline(row, cell, '|');) cells.push_back(cell);
    if (cells.size() < 2) continue;
    auto clean = [](std::string s) {
      std::string kept;
      for (char ch : s)
        if (ch != '`') kept += ch;
      if (const auto p = kept.find("(paper)"); p != std::string::npos) kept.erase(p);
      const auto b = kept.find_first_not_of(' '), e = kept.find_last_not_of(' ');
      return b == std::string::npos ? std::string() : kept.substr(b, e - b + 1);
    };
    out.emplace(clean(cells[0]), clean(cells[1]));
  }
  return out;
}

std::string text_of(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

// A documented value against the reader's: numbers compare as numbers (1e-3 = 0.001, 1.0 = 1).
bool same(const std::string& documented, const std::string& read) {
  if (documented == read) return true;
  try {
    std::size_t used = 0;
    const double d = std::stod(documented, &used);
    return used == documented.size() && d == std::stod(read);
  } catch (const std::exception&) {
    return false;
  }
}

TEST(RecipeDocs, StageTablesGiveTheReadersDefaults) {
  const auto docs = documented_defaults();
  const StageSpec sft = stage_defaults(StageKind::kSft), bopo = stage_defaults(StageKind::kBopo);
  const auto flag = [](bool b) { return std::string(b ? "true" : "false"); };
  // key -> its default in a stage of the given defaults
  const std::map<std::string, std::function<std::string(const StageSpec&)>> keys = {
      {"batch_size", [](const StageSpec& s) { return text_of(s.batch_size); }},
      {"grad_accum", [](const StageSpec& s) { return text_of(s.grad_accum); }},
      {"lr", [](const StageSpec& s) { return text_of(s.lr.peak); }},
      {"warmup_steps", [](const StageSpec& s) { return text_of(static_cast<double>(s.lr.warmup_steps)); }},
      {"schedule", [](const StageSpec& s) { return to_string(s.lr.kind); }},
      {"decay_steps", [](const StageSpec& s) { return text_of(static_cast<double>(s.lr.decay_steps)); }},
      {"min_lr_ratio", [](const StageSpec& s) { return text_of(s.lr.min_ratio); }},
      {"weight_decay", [](const StageSpec& s) { return text_of(s.weight_decay); }},
      {"grad_clip", [](const StageSpec& s) { return text_of(s.grad_clip); }},
      {"lora.rank", [](const StageSpec& s) { return text_of(s.lora.rank); }},
      {"lora.dropout", [](const StageSpec& s) { return text_of(s.lora.dropout); }},
      {"loss_on_notes", [&](const StageSpec& s) { return flag(s.loss_on_notes); }},
      {"rollout.samples_per_instance", [](const StageSpec& s) { return text_of(s.rollout.samples_per_instance); }},
      {"rollout.temperature", [](const StageSpec& s) { return text_of(s.rollout.temperature); }},
      {"rollout.grammar", [&](const StageSpec& s) { return flag(s.rollout.grammar); }},
      {"rollout.semantic_mask", [&](const StageSpec& s) { return flag(s.rollout.semantic_mask); }},
      {"rollout.computed_notes", [&](const StageSpec& s) { return flag(s.rollout.computed_notes); }},
      {"rollout.repair", [&](const StageSpec& s) { return flag(s.rollout.repair); }},
      {"rollout.max_new_tokens", [](const StageSpec& s) { return text_of(s.rollout.max_new_tokens); }},
  };
  for (const auto& [key, of] : keys) {
    const auto it = docs.find(key);
    ASSERT_NE(it, docs.end()) << "docs/training.md has no row for `" << key << "`";
    const std::string& documented = it->second;
    // "16 SFT, 8 others": one value per kind; else one value for both.
    const auto split = documented.find(" SFT, ");
    if (split != std::string::npos) {
      const auto others = documented.substr(split + 6);
      EXPECT_TRUE(same(documented.substr(0, split), of(sft))) << key << ": docs say " << documented << ", SFT reads " << of(sft);
      EXPECT_TRUE(same(others.substr(0, others.find(' ')), of(bopo)))
          << key << ": docs say " << documented << ", a sampling stage reads " << of(bopo);
    } else {
      EXPECT_TRUE(same(documented, of(sft))) << key << ": docs say " << documented << ", SFT reads " << of(sft);
      EXPECT_TRUE(same(documented, of(bopo))) << key << ": docs say " << documented << ", a sampling stage reads " << of(bopo);
    }
  }
}

TEST(RecipeDocs, AlgorithmTablesGiveTheirKeysDefaults) {
  const auto docs = documented_defaults();
  const auto flag = [](bool b) { return std::string(b ? "true" : "false"); };
  const BopoKeys bopo;
  const GrpoKeys grpo;
  const DpoKeys dpo;
  const std::map<std::string, std::string> keys = {
      {"epochs", text_of(SftKeys{}.epochs)},
      {"beta", text_of(bopo.beta)},
      {"reference", bopo.reference},
      {"length_normalise", flag(bopo.length_normalise)},
      {"sft_weight", text_of(bopo.sft_weight)},
      {"anchor_on_label", flag(bopo.anchor_on_label)},
      {"infeasible_losers", flag(bopo.infeasible_losers)},
      {"kl_coef", text_of(grpo.kl_coef)},
      {"loss_type", grpo.loss_type},
  };
  for (const auto& [key, read] : keys) {
    const auto it = docs.find(key);
    ASSERT_NE(it, docs.end()) << "docs/training.md has no row for `" << key << "`";
    const std::string documented = it->second.substr(0, it->second.find(" ("));  // "1 (SFT, when steps = 0)"
    EXPECT_TRUE(same(documented, read)) << key << ": docs say " << it->second << ", the reader's default is " << read;
  }
  EXPECT_EQ(dpo.beta, bopo.beta) << "docs/training.md gives DPO's beta as BOPO's";
  // Every algorithm's registered defaults are its keys' initializers.
  for (const auto& a : algorithms()) EXPECT_EQ(stage_defaults(a.kind).keys.index(), a.defaults.index()) << a.name;
}

}  // namespace
}  // namespace falcon::recipe
