#include "falcon/recipe/recipe.h"

#include <algorithm>
#include <filesystem>

#include "falcon/core/cpu_features.h"
#include "falcon/core/error.h"
#include "falcon/model/config/model_config.h"
#include "falcon/model/config/model_presets.h"
#include "falcon/recipe/key_checks.h"
#include "falcon/text/chat_template.h"
#include "falcon/text/tokenizer.h"

namespace falcon::recipe {
namespace {

// Every key reads its default from the struct's initializer, so a default is written once.

// seed, output_dir, threads, init.*, device, mixed_precision.
void read_run(Config& c, Recipe& r) {
  r.source = c.source();
  r.seed = c.get_uint("seed", r.seed);
  r.output_dir = c.get_string("output_dir");
  r.threads = static_cast<int>(c.get_int("threads", r.threads));
  r.init_from = c.get_string("init.checkpoint", r.init_from);
  r.start_stage = static_cast<int>(c.get_int("init.start_stage", r.start_stage));
  r.init_other_text_style = c.get_bool("init.other_text_style", r.init_other_text_style);
  r.number_embedding = c.get_string("init.number_embedding", r.number_embedding);
  require(r.number_embedding == "random" || r.number_embedding == "fourier", c, "init.number_embedding",
          "must be random or fourier");
  r.device = c.get_string("device", r.device);
  r.mixed_precision = c.get_string("mixed_precision", r.mixed_precision);
  require(r.mixed_precision == "none" || r.mixed_precision == "bf16" || r.mixed_precision == "auto", c,
          "mixed_precision", "must be none, bf16 (bfloat16 autocast of the training forward passes) or auto");
  // auto: bf16 where it is fast (CUDA, or a CPU with native bf16 dot products), else none.
  if (r.mixed_precision == "auto")
    r.mixed_precision = r.device.rfind("cuda", 0) == 0 || cpu_has_native_bf16() ? "bf16" : "none";
}

void read_tokenizer(Config& c, Recipe& r) {
  auto& t = r.tokenizer;
  t.path = c.get_string("tokenizer.path", t.path);
  // A model directory (a release in models/, a run's final/) carries the tokenizer its ids are from.
  if (t.path.empty() && is_model_directory(r.init_from)) t.path = text::tokenizer_file(r.init_from);
  t.vocab_size = static_cast<int>(c.get_int("tokenizer.vocab_size", t.vocab_size));
  require(t.vocab_size >= 300, c, "tokenizer.vocab_size", "must be at least 300 (256 byte pieces + specials)");
  t.numbers = c.get_string("tokenizer.numbers", t.numbers);
  require(t.numbers == "plain" || t.numbers == "split_digits" || t.numbers == "whole" || t.numbers == "whole_ids", c,
          "tokenizer.numbers", "must be plain, split_digits, whole or whole_ids");
  require(t.numbers != "whole" || t.vocab_size >= 1300, c, "tokenizer.vocab_size",
          "must be at least 1300 with numbers: whole (1,000 number pieces + bytes + specials)");
  require(t.numbers != "whole_ids" || t.vocab_size >= 2300, c, "tokenizer.vocab_size",
          "must be at least 2300 with numbers: whole_ids (1,000 number pieces, 1,000 ID pieces, bytes, specials)");
}

// text.style, text.candidates, text.problems.<p>, text.chat (after the tokenizer: the checks read it).
void read_text(Config& c, Recipe& r) {
  r.text_style = formats::make_text_style(c.get_string("text.style", "paper"),
                                          static_cast<int>(c.get_int("text.candidates", 0)), key_at(c, "text"));
  // A model of several problems may write each its own way: text.problems.<p>.{style, candidates},
  // each defaulting to text.style / text.candidates.
  for (const auto& problem : c.keys("text.problems")) {
    const std::string base = "text.problems." + problem;
    require(c.is_map(base), c, base, "must be a map such as {style: compact_ranked, candidates: 0}");
    formats::set_problem_text_style(r.text_style, problem, c.get_string(base + ".style", r.text_style.name),
                                    static_cast<int>(c.get_int(base + ".candidates", r.text_style.candidates)),
                                    key_at(c, base));
  }
  // An instruct format for models tuned on one (Qwen's chatml, Llama-3's): text/chat_template.h.
  r.text_style.chat = text::chat_template(c.get_string("text.chat", "none"), key_at(c, "text.chat")).name;
  require(r.text_style.chat == "none" || !r.tokenizer.path.empty(), c, "text.chat",
          "needs tokenizer.path (a tokenizer.json with the template's special tokens), or init.checkpoint naming a "
          "model directory that has one: a tokenizer trained here has none");
  std::string compact = r.text_style.name;  // a compact text anywhere needs whole-number pieces
  for (const auto& p : r.text_style.per_problem)
    if (compact == "paper") compact = p.name;
  require(compact == "paper" || !r.tokenizer.path.empty() || r.tokenizer.numbers == "whole_ids", c,
          "tokenizer.numbers", "must be whole_ids with text.style: " + compact +
                                   " (its IDs #k and numbers must be whole pieces)");
}

// data.weights or a stage's own: each dataset's share of the batches, one whole number per data.config.
std::vector<std::int64_t> read_dataset_weights(Config& c, const std::string& path, const TrainingDataSpec& data) {
  require(data.batches == "by_dataset", c, path,
          "needs data.batches: by_dataset (the weights are each dataset's share of the batches)");
  require(c.is_list(path), c, path, "must be a list of whole numbers, one per data.config");
  auto weights = c.get_int_list(path);
  require(weights.size() == data.configs.size(), c, path,
          "must have one entry per data.config (" + std::to_string(data.configs.size()) + ")");
  bool any = false;
  for (auto w : weights) {
    require(w >= 0, c, path, "must not be negative");
    any = any || w > 0;
  }
  require(any, c, path, "must give at least one dataset a positive weight");
  return weights;
}

TrainingDataSpec read_data(Config& c) {
  TrainingDataSpec d;
  if (c.is_list("data.config")) {
    d.configs = c.get_string_list("data.config");
    require(!d.configs.empty(), c, "data.config", "must name at least one falcon_datagen config");
  } else {
    d.configs = {c.get_string("data.config")};
  }
  if (c.has("data.overrides")) d.overrides = c.get_string_list("data.overrides");
  d.train_split = c.get_string("data.train_split", d.train_split);
  d.eval_split = c.get_string("data.eval_split", d.eval_split);
  d.max_prompt_tokens = static_cast<int>(c.get_int("data.max_prompt_tokens", d.max_prompt_tokens));
  d.augment = c.get_bool("data.augment", d.augment);
  d.batches = c.get_string("data.batches", d.batches);
  require(d.batches == "mixed" || d.batches == "by_dataset", c, "data.batches",
          "must be mixed (every batch draws from all datasets) or by_dataset (each batch from one)");
  if (c.has("data.weights")) d.weights = read_dataset_weights(c, "data.weights", d);
  d.length_buckets = static_cast<int>(c.get_int("data.length_buckets", d.length_buckets));
  require(d.length_buckets >= 0, c, "data.length_buckets", "must be >= 0 (batches per window sorted by length; 0 = off)");
  return d;
}

void read_stages(Config& c, Recipe& r) {
  const int n_stages = c.list_size("stages");
  if (n_stages == 0) throw Error(key_at(c, "stages") + " must list at least one stage, e.g. stages: [{type: sft, epochs: 1}]");
  for (int i = 0; i < n_stages; ++i) {
    r.stages.push_back(read_stage(c, i, r.text_style));
    const std::string weights = "stages[" + std::to_string(i) + "].weights";
    if (c.has(weights)) r.stages.back().weights = read_dataset_weights(c, weights, r.data);
  }
  require(r.start_stage >= 0 && r.start_stage < n_stages, c, "init.start_stage", "must name one of the stages (0-based)");
  require(r.init_from.empty() || !r.tokenizer.path.empty(), c, "tokenizer.path",
          "must name the tokenizer.model of the run init.checkpoint comes from (its token ids are in the weights); "
          "a model directory with its tokenizer.model needs none");
  require(r.start_stage == 0 || !r.init_from.empty(), c, "init.start_stage",
          "needs init.checkpoint: the weights the skipped stages would have trained");
}

// optimizer, checkpoint, logging, eval (after the stages: its computed notes follow theirs), distributed.
void read_bookkeeping(Config& c, Recipe& r) {
  r.adam_beta1 = c.get_double("optimizer.beta1", r.adam_beta1);
  r.adam_beta2 = c.get_double("optimizer.beta2", r.adam_beta2);
  r.adam_eps = c.get_double("optimizer.eps", r.adam_eps);
  r.checkpoint_every = c.get_int("checkpoint.every", r.checkpoint_every);
  require(r.checkpoint_every >= 0, c, "checkpoint.every", "must be >= 0 (0 = end of each stage only)");
  r.keep_last = static_cast<int>(c.get_int("checkpoint.keep_last", r.keep_last));
  require(r.keep_last >= 1, c, "checkpoint.keep_last", "must be at least 1");
  r.log_every = static_cast<int>(c.get_int("logging.every", r.log_every));
  require(r.log_every >= 1, c, "logging.every", "must be at least 1");
  auto& e = r.eval;
  e.instances = static_cast<int>(c.get_int("eval.instances", e.instances));
  e.samples = static_cast<int>(c.get_int("eval.samples", e.samples));
  e.temperature = c.get_double("eval.temperature", e.temperature);
  require(e.samples >= 1, c, "eval.samples", "must be at least 1");
  bool notes_untrained = false;
  for (const auto& stage : r.stages) {
    notes_untrained = notes_untrained || !stage.loss_on_notes;
    for (const auto& [problem, on] : stage.loss_on_notes_by_problem) notes_untrained = notes_untrained || !on;
  }
  e.computed_notes = c.get_bool_or_auto("eval.computed_notes", notes_untrained)  // auto: where the text writes notes
                         .value_or(formats::writes_notes(r.text_style));
  require(!e.computed_notes || formats::writes_notes(r.text_style), c, "eval.computed_notes",
          "needs a text that writes notes (text.style: compact_echo, compact_state, compact_ranked or compact_insert)");
  auto& d = r.distributed;
  d.backend = c.get_string("distributed.backend", d.backend);
  require(d.backend == "auto" || d.backend == "gloo" || d.backend == "nccl", c, "distributed.backend",
          "must be auto, gloo (CPU) or nccl (CUDA)");
  d.timeout_s = c.get_double("distributed.timeout_s", d.timeout_s);
  require(d.timeout_s > 0, c, "distributed.timeout_s", "must be positive (seconds)");
  d.bucket_mb = c.get_double("distributed.bucket_mb", d.bucket_mb);
  require(d.bucket_mb > 0, c, "distributed.bucket_mb", "must be positive (megabytes)");
}

}  // namespace

bool is_model_directory(const std::string& dir) {
  return !dir.empty() && std::filesystem::exists(dir + "/config.json") && std::filesystem::exists(text::tokenizer_file(dir)) &&
         !std::filesystem::exists(dir + "/checkpoint.json");
}

std::int64_t model_vocab_size(const Recipe& recipe, std::int64_t tokenizer_vocab_size) {
  if (!is_model_directory(recipe.init_from)) return tokenizer_vocab_size;
  return std::max(tokenizer_vocab_size, model::model_config_from_hf_json(recipe.init_from + "/config.json").vocab_size);
}

Recipe read_recipe(Config& c) {
  Recipe r;
  read_run(c, r);
  read_tokenizer(c, r);
  read_text(c, r);
  r.data = read_data(c);
  read_stages(c, r);
  read_bookkeeping(c, r);
  return r;
}

TrainingConfig read_training_config(Config& config) {
  TrainingConfig read;
  read.recipe = read_recipe(config);
  read.model = model::resolve_model_section(config, "model");
  config.check_unused();
  return read;
}

}  // namespace falcon::recipe
