#pragma once
// The recipe's dataset: made with the datagen library when missing or incomplete (resumable),
// then read and tokenized into training examples.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "falcon/core/rng.h"
#include "falcon/data/reader.h"
#include "falcon/text/tokenizer.h"
#include "falcon/train/examples.h"
#include "falcon/recipe/recipe.h"

namespace falcon::train {

// Runs falcon_datagen's work for each of data.configs (+ overrides) unless its file is complete
// and was made by that config with those split counts (a grown count extends the file; another
// config is refused, naming the key); returns the dataset paths in the same order. Labels on
// `threads` cores (the recipe's `threads`; 0 = all) unless the data config sets its own.
std::vector<std::string> ensure_datasets(const recipe::TrainingDataSpec& data, bool progress, int threads = 0);

// The same paths, for the ranks that wait while rank 0 runs ensure_datasets: throws
// falcon::Error when a file is missing or incomplete (output_dir not shared between ranks).
std::vector<std::string> existing_datasets(const recipe::TrainingDataSpec& data);

struct TrainExample {
  const problems::Problem* problem = nullptr;
  std::shared_ptr<const problems::Instance> instance;
  double label_objective = 0.0;
  std::vector<int> prompt;    // BOS + prompt tokens
  std::vector<int> solution;  // label tokens + EOS
  std::uint64_t key = 0;      // the record's index in its split
  int dataset = 0;            // which of data.config it came from
  problems::Solution label;   // the reference solution the tokens spell
};

struct ExampleSet {
  std::vector<TrainExample> examples;
  std::int64_t skipped_too_long = 0;  // prompts longer than data.max_prompt_tokens
  // dataset_names[d]: what logs call data.config d, its file's stem ("tsp20" for data/tsp20.h5;
  // a stem seen before gets "_<d>" appended, so every name is its own).
  std::vector<std::string> dataset_names;
};


// What SFT trains on for one row of the data order: the example's own tokens, or with `augment`
// its copy through a random symmetry of its problem (Problem::symmetric_copy: same objective,
// another text) drawn from the stream `stream` (the trainer keys it by stage and row, so a
// resumed or multi-rank run sees the same data). Without `loss_on_notes` the tokens of the echo
// text's notes are marked decoder_written: the model is then decoded with computed notes.
Sequence sft_sequence(const TrainExample& example, const text::Tokenizer& tokenizer, bool augment, std::uint64_t stream,
                      bool loss_on_notes = true);

// The flags of Sequence::decoder_written for a solution's tokens (a note text's, for this instance).
std::vector<bool> note_token_flags(const problems::Problem& problem, std::shared_ptr<const problems::Instance> instance,
                                   const text::Tokenizer& tokenizer, const std::vector<int>& solution);

// Throws falcon::Error naming the problem when `data.augment` is set and one of the set's problems
// has no symmetries: before training, not at its first step.
void check_augmentable(const ExampleSet& set, const text::Tokenizer& tokenizer);

// Throws falcon::Error when an example's prompt and solution are longer than the model's context:
// the model would train on positions beyond the context its evaluation allows.
void check_fits_context(const ExampleSet& set, std::int64_t max_position_embeddings, const std::string& split);

// Up to `limit` records (0 = all) of `split` of each reader; with several readers the examples
// are interleaved (record 0 of each, then record 1, ...), each example naming its reader.
// Prompts and labels are written in `style`; each example's problem is the styled one, so rollouts
// and evaluation parse, mask and score the same text.
ExampleSet load_examples(const std::vector<data::DatasetReader>& readers, const std::string& split,
                         const text::Tokenizer& tokenizer, int max_prompt_tokens, std::int64_t limit = 0,
                         const formats::TextStyle& style = {});

}  // namespace falcon::train
