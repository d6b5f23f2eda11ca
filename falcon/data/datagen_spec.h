#pragma once
// What falcon_datagen makes, read from its YAML config (configs/data/*.yaml; keys documented in
// docs/dataset_format.md), and the deterministic plan of every instance.
//
// Instance k of split s depends only on (seed, s, k): its generator seed, solver seed, size and
// distribution come from Rng::for_item(split_seed(seed, s), k). So instance k is the same whatever
// the count, the thread count or the order of labelling, and splits never share a stream.
// Sizes: a `range` draws n uniformly; a `list` of sizes or named `buckets` of ranges are taken
// in turn (instance k gets entry k mod B, n uniform within a bucket). Distributions are taken in
// turn too, after the buckets (entry (k div B) mod D), so every bucket meets every distribution.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "falcon/core/config.h"
#include "falcon/data/schema.h"
#include "falcon/problems/problem.h"

namespace falcon::data {

struct LabelSpec {
  std::string method = "reference";
  double time_limit_s = 0;  // 0 = the method's own (deterministic) budget
};

struct DatagenSpec {
  std::string problem;
  std::uint64_t seed = 1;
  std::string output;
  std::vector<SplitInfo> splits;
  LabelSpec label;
  int threads = 0;                   // 0 = all cores
  std::int64_t checkpoint_every = 0;  // consolidate the journal into the file after this many labels
  std::string config_yaml;           // the resolved config, stored in the file
  std::string identity_yaml;         // the config without the keys that change no record
};

// Keys left out of the identity: they change how fast or where, or how many, never what an
// instance k is. A finished dataset can therefore be extended by raising a count.
const std::vector<std::string>& non_identity_keys();

// Reads and validates the config (unknown keys are errors): the problem and method must exist and
// the generator must accept every (split, distribution) at every bucket's smallest size.
DatagenSpec read_datagen_spec(Config& config);

struct ItemPlan {
  std::int64_t index = 0;
  std::uint64_t seed = 0;         // generator seed
  std::uint64_t solver_seed = 0;  // SolveOptions::seed of the label
  int n = 0;
  int bucket = 0;
  int distribution = 0;
};

std::uint64_t split_seed(std::uint64_t dataset_seed, const std::string& split);
ItemPlan plan_item(std::uint64_t dataset_seed, const SplitInfo& split, std::int64_t index);
problems::GenerateOptions generate_options(const SplitInfo& split, const ItemPlan& plan);

// The instance of a plan (named by its generator: "<problem>-n<n>-s<seed>").
std::shared_ptr<problems::Instance> generate_item(const problems::Problem& problem, const SplitInfo& split,
                                                  const ItemPlan& plan);

}  // namespace falcon::data
