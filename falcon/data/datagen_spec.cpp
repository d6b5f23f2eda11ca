#include "falcon/data/datagen_spec.h"

#include <cctype>

#include "falcon/core/error.h"
#include "falcon/core/rng.h"
#include "falcon/problems/registry.h"
#include "falcon/solvers/solver.h"

namespace falcon::data {
namespace {

std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

int size_value(const Config& config, const std::string& path) {
  const std::int64_t v = config.get_int(path);
  if (v < 1 || v > 1000000) throw Error(config.source() + ": '" + path + "' = " + std::to_string(v) + " is not a size in 1..1000000");
  return static_cast<int>(v);
}

BucketSpec read_range(const Config& config, const std::string& path, const std::string& name) {
  if (config.list_size(path) != 2) throw Error(config.source() + ": '" + path + "' must be a range [min, max]");
  BucketSpec b{name, size_value(config, path + "[0]"), size_value(config, path + "[1]")};
  if (b.min_n > b.max_n) throw Error(config.source() + ": '" + path + "' is an empty range (min > max)");
  return b;
}

// `path` is a map with exactly one of range: [lo, hi] | list: [n, ...] | buckets: {name: [lo, hi], ...}.
std::vector<BucketSpec> read_sizes(Config& config, const std::string& path) {
  if (!config.is_map(path)) {
    throw Error(config.source() + ": '" + path + "' must be a map with one of range: [min, max], list: [n, ...], buckets: {name: [min, max]}");
  }
  const bool range = config.has(path + ".range"), list = config.has(path + ".list"), buckets = config.has(path + ".buckets");
  if (range + list + buckets != 1) {
    std::string found;
    for (const auto& k : config.keys(path)) found += (found.empty() ? "" : ", ") + k;
    throw Error(config.source() + ": '" + path + "' needs exactly one of range, list, buckets (found: " +
                (found.empty() ? "nothing" : found) + ")");
  }
  std::vector<BucketSpec> out;
  if (range) {
    BucketSpec b = read_range(config, path + ".range", "");
    b.name = "n" + std::to_string(b.min_n) + "-" + std::to_string(b.max_n);
    out.push_back(b);
  } else if (list) {
    const int count = config.list_size(path + ".list");
    for (int i = 0; i < count; ++i) {
      const int n = size_value(config, path + ".list[" + std::to_string(i) + "]");
      out.push_back({"n" + std::to_string(n), n, n});
    }
  } else {
    for (const auto& name : config.keys(path + ".buckets")) out.push_back(read_range(config, path + ".buckets." + name, name));
  }
  if (out.empty()) throw Error(config.source() + ": '" + path + "' lists no size");
  return out;
}

// A list of names or {name, params} maps; `shared` params apply to all, an entry's own win.
std::vector<DistributionSpec> read_distributions(Config& config, const std::string& path, const std::map<std::string, std::string>& shared) {
  const int count = config.list_size(path);
  if (count == 0) throw Error(config.source() + ": '" + path + "' must list at least one distribution (e.g. [uniform])");
  std::vector<DistributionSpec> out;
  for (int i = 0; i < count; ++i) {
    const std::string item = path + "[" + std::to_string(i) + "]";
    DistributionSpec d;
    d.params = shared;
    if (config.is_map(item)) {
      d.name = config.get_string(item + ".name");
      for (const auto& [k, v] : config.get_string_map(item + ".params")) d.params[k] = v;
    } else {
      d.name = config.get_string(item);
    }
    out.push_back(std::move(d));
  }
  return out;
}

bool valid_split_name(const std::string& name) {
  if (name.empty()) return false;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') return false;
  }
  return true;
}

}  // namespace

const std::vector<std::string>& non_identity_keys() {
  static const std::vector<std::string> keys = {"output", "threads", "checkpoint_every", "splits.*.count"};
  return keys;
}

DatagenSpec read_datagen_spec(Config& config) {
  DatagenSpec spec;
  const std::string& src = config.source();
  spec.problem = config.get_string("problem");
  const problems::Problem* problem = nullptr;
  try {
    problem = &problems::problem_by_name(spec.problem);
  } catch (const Error& e) {
    throw Error(src + ": problem: " + e.what());
  }
  spec.seed = config.get_uint("seed", 1);
  spec.output = config.get_string("output", "data/" + spec.problem + ".h5");
  const std::int64_t threads = config.get_int("threads", 0);
  if (threads < 0 || threads > 4096) throw Error(src + ": threads must be 0 (all cores) or a positive count");
  spec.threads = static_cast<int>(threads);
  spec.checkpoint_every = config.get_int("checkpoint_every", 1000);
  if (spec.checkpoint_every < 1) throw Error(src + ": checkpoint_every must be at least 1");
  spec.label.method = config.get_string("label.method", "reference");
  spec.label.time_limit_s = config.get_double("label.time_limit_s", 0.0);
  if (spec.label.time_limit_s < 0) throw Error(src + ": label.time_limit_s must be >= 0 (0 = the method's own budget)");

  // Top-level sizes / distributions / params are defaults that a split may replace; they are
  // read (and so checked) even when every split replaces them.
  const auto shared_params = config.get_string_map("params");
  if (config.has("sizes")) read_sizes(config, "sizes");
  if (config.has("distributions")) read_distributions(config, "distributions", shared_params);
  const auto split_names = config.keys("splits");
  if (split_names.empty()) throw Error(src + ": 'splits' must name at least one split, e.g. splits: {train: {count: 1000}}");
  for (const auto& name : split_names) {
    const std::string base = "splits." + name;
    if (!valid_split_name(name)) throw Error(src + ": split name '" + name + "' must use letters, digits, '_' or '-' only");
    SplitInfo split;
    split.name = name;
    split.count = config.get_int(base + ".count");
    if (split.count < 0) throw Error(src + ": " + base + ".count must be >= 0");
    const std::string sizes = config.has(base + ".sizes") ? base + ".sizes" : "sizes";
    const std::string dists = config.has(base + ".distributions") ? base + ".distributions" : "distributions";
    const std::string params = config.has(base + ".params") ? base + ".params" : "params";
    if (!config.has(sizes)) throw Error(src + ": split '" + name + "' has no sizes (give sizes at the top level or in the split)");
    if (!config.has(dists)) throw Error(src + ": split '" + name + "' has no distributions (give them at the top level or in the split)");
    split.buckets = read_sizes(config, sizes);
    split.distributions = read_distributions(config, dists, config.get_string_map(params));
    spec.splits.push_back(std::move(split));
  }
  config.check_unused();  // a misspelt key is the likelier mistake: name it before anything else
  try {
    solvers::solver_by_name(spec.problem, spec.label.method);
  } catch (const Error& e) {
    throw Error(src + ": label.method: " + e.what());
  }

  // Let the generator reject bad keys or sizes now, not from a worker thread an hour in.
  for (const SplitInfo& split : spec.splits) {
    for (std::size_t d = 0; d < split.distributions.size(); ++d) {
      for (std::size_t b = 0; b < split.buckets.size(); ++b) {
        ItemPlan plan;
        plan.n = split.buckets[b].min_n;
        plan.distribution = static_cast<int>(d);
        plan.bucket = static_cast<int>(b);
        try {
          generate_item(*problem, split, plan);
        } catch (const Error& e) {
          throw Error(src + ": split '" + split.name + "', distribution '" + split.distributions[d].name + "', n = " +
                      std::to_string(plan.n) + ": " + e.what());
        }
      }
    }
  }
  spec.config_yaml = config.to_yaml();
  spec.identity_yaml = config.to_yaml_without(non_identity_keys());
  return spec;
}

std::uint64_t split_seed(std::uint64_t dataset_seed, const std::string& split) {
  return Rng::for_item(dataset_seed, fnv1a(split)).next_u64();
}

ItemPlan plan_item(std::uint64_t dataset_seed, const SplitInfo& split, std::int64_t index) {
  // split_seed is two hashes, far cheaper than any generator: not worth caching.
  Rng rng = Rng::for_item(split_seed(dataset_seed, split.name), static_cast<std::uint64_t>(index));
  ItemPlan plan;
  plan.index = index;
  plan.seed = rng.next_u64();
  plan.solver_seed = rng.next_u64();
  const auto buckets = static_cast<std::int64_t>(split.buckets.size());
  const auto distributions = static_cast<std::int64_t>(split.distributions.size());
  plan.bucket = static_cast<int>(index % buckets);
  plan.distribution = static_cast<int>((index / buckets) % distributions);
  const BucketSpec& b = split.buckets[plan.bucket];
  plan.n = rng.uniform_int(b.min_n, b.max_n);
  return plan;
}

problems::GenerateOptions generate_options(const SplitInfo& split, const ItemPlan& plan) {
  problems::GenerateOptions g;
  g.n = plan.n;
  g.distribution = split.distributions.at(plan.distribution).name;
  g.params = split.distributions.at(plan.distribution).params;
  return g;
}

std::shared_ptr<problems::Instance> generate_item(const problems::Problem& problem, const SplitInfo& split, const ItemPlan& plan) {
  return problem.generate(generate_options(split, plan), plan.seed);
}

}  // namespace falcon::data
