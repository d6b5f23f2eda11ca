#include "falcon/train/data_source.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "falcon/core/config.h"
#include "falcon/core/error.h"
#include "falcon/data/datagen.h"
#include "falcon/data/datagen_spec.h"
#include "falcon/decoding/computed_notes.h"
#include "falcon/policy/prompt_text.h"
#include "falcon/train/examples.h"

namespace falcon::train {

namespace {

data::DatagenSpec read_spec(const std::string& path, const recipe::TrainingDataSpec& data) {
  auto config = Config::from_file(path);
  config.set_overrides(data.overrides);
  auto spec = data::read_datagen_spec(config);
  config.check_unused();
  return spec;
}

std::string ensure_dataset(const std::string& path, const recipe::TrainingDataSpec& data, bool progress, int threads) {
  auto spec = read_spec(path, data);
  if (spec.threads == 0) spec.threads = threads;  // not an identity key: the file is the same
  if (!data::dataset_current(spec)) {
    if (progress) std::fprintf(stderr, "data: making %s from %s\n", spec.output.c_str(), path.c_str());
    data::run_datagen(spec, {progress});
  }
  return spec.output;
}

}  // namespace

std::vector<std::string> ensure_datasets(const recipe::TrainingDataSpec& data, bool progress, int threads) {
  std::vector<std::string> paths;
  for (const auto& config : data.configs) paths.push_back(ensure_dataset(config, data, progress, threads));
  return paths;
}

std::vector<std::string> existing_datasets(const recipe::TrainingDataSpec& data) {
  std::vector<std::string> paths;
  for (const auto& config : data.configs) {
    const auto spec = read_spec(config, data);
    if (!data::dataset_current(spec))
      throw Error(spec.output + ": rank 0 made this dataset, but this rank cannot read it complete: every rank must "
                                "see the data files and output_dir on one filesystem (one machine, or a shared one)");
    paths.push_back(spec.output);
  }
  return paths;
}

namespace {

Sequence tokenized(const problems::Problem& problem, const problems::Instance& instance,
                   const problems::Solution& solution, const text::Tokenizer& tokenizer) {
  Sequence out;
  out.prompt = policy::prompt_tokens(problem, instance, tokenizer);
  out.solution = tokenizer.encode(problem.format(instance, solution));
  out.solution.push_back(tokenizer.eos_id());
  return out;
}

}  // namespace

std::vector<bool> note_token_flags(const problems::Problem& problem, std::shared_ptr<const problems::Instance> instance,
                                   const text::Tokenizer& tokenizer, const std::vector<int>& solution) {
  std::vector<std::string_view> bytes;
  bytes.reserve(solution.size());
  for (const int id : solution) bytes.emplace_back(tokenizer.token_bytes(id));
  return decoding::note_tokens(problem, std::move(instance), bytes);
}

Sequence sft_sequence(const TrainExample& example, const text::Tokenizer& tokenizer, bool augment, std::uint64_t stream,
                      bool loss_on_notes) {
  if (!augment && loss_on_notes) return {example.prompt, example.solution};
  Sequence out{example.prompt, example.solution};
  std::shared_ptr<const problems::Instance> instance = example.instance;
  if (augment) {
    Rng rng(stream);
    auto copy = example.problem->symmetric_copy(*example.instance, example.label, rng);
    out = tokenized(*example.problem, *copy.instance, copy.solution, tokenizer);
    instance = std::move(copy.instance);
  }
  if (!loss_on_notes) out.decoder_written = note_token_flags(*example.problem, std::move(instance), tokenizer, out.solution);
  return out;
}

void check_augmentable(const ExampleSet& set, const text::Tokenizer& tokenizer) {
  std::set<const problems::Problem*> checked;
  for (const auto& ex : set.examples)
    if (checked.insert(ex.problem).second) sft_sequence(ex, tokenizer, /*augment=*/true, /*stream=*/0);
}

void check_fits_context(const ExampleSet& set, std::int64_t max_position_embeddings, const std::string& split) {
  std::size_t over = 0, longest = 0;
  const TrainExample* first = nullptr;
  for (const auto& ex : set.examples) {
    const std::size_t length = ex.prompt.size() + ex.solution.size();
    if (static_cast<std::int64_t>(length) <= max_position_embeddings) continue;
    if (first == nullptr) first = &ex;
    ++over;
    longest = std::max(longest, length);
  }
  if (over == 0) return;
  throw Error("data: " + std::to_string(over) + " of " + std::to_string(set.examples.size()) + " '" + split +
              "' examples (the first: instance '" + first->instance->name + "'; the longest " +
              std::to_string(longest) + " tokens) have a prompt and solution longer than model.max_position_embeddings=" +
              std::to_string(max_position_embeddings) + "; raise model.max_position_embeddings (to at least " +
              std::to_string(longest) + ") or shorten the text (text.candidates, data.max_prompt_tokens)");
}

ExampleSet load_examples(const std::vector<data::DatasetReader>& readers, const std::string& split,
                         const text::Tokenizer& tokenizer, int max_prompt_tokens, std::int64_t limit,
                         const formats::TextStyle& style) {
  ExampleSet set;
  for (std::size_t r = 0; r < readers.size(); ++r) {
    std::string name = std::filesystem::path(readers[r].path()).stem().string();
    if (std::find(set.dataset_names.begin(), set.dataset_names.end(), name) != set.dataset_names.end())
      name += "_" + std::to_string(r);
    set.dataset_names.push_back(name);
  }
  std::int64_t longest = 0;
  for (const auto& reader : readers) {
    if (!reader.has_split(split))
      throw Error(reader.path() + ": no split '" + split +
                  "' (data.train_split / data.eval_split name one of the file's splits)");
    longest = std::max(longest, limit > 0 ? std::min(limit, reader.size(split)) : reader.size(split));
  }
  for (std::int64_t i = 0; i < longest; ++i) {
    for (std::size_t r = 0; r < readers.size(); ++r) {
      const auto& reader = readers[r];
      if (i >= reader.size(split) || (limit > 0 && i >= limit)) continue;
      auto labeled = reader.load(split, i);
      TrainExample ex;
      ex.dataset = static_cast<int>(r);
      ex.problem = &formats::with_text_style(reader.problem(), style);
      ex.instance = labeled.instance;
      ex.label_objective = labeled.record.label.objective;
      ex.key = static_cast<std::uint64_t>(labeled.record.index);
      ex.label = labeled.record.label.solution;
      auto tokens = tokenized(*ex.problem, *ex.instance, ex.label, tokenizer);
      if (static_cast<int>(tokens.prompt.size()) > max_prompt_tokens) {
        ++set.skipped_too_long;
        continue;
      }
      ex.prompt = std::move(tokens.prompt);
      ex.solution = std::move(tokens.solution);
      set.examples.push_back(std::move(ex));
    }
  }
  if (set.examples.empty())
    throw Error("split '" + split + "' has no usable example (" + std::to_string(set.skipped_too_long) +
                " prompts longer than data.max_prompt_tokens=" + std::to_string(max_prompt_tokens) + ")");
  return set;
}

}  // namespace falcon::train
