#include "falcon/train/recipe.h"

#include <algorithm>
#include <filesystem>

#include "falcon/core/cpu_features.h"
#include "falcon/core/error.h"
#include "falcon/model/model_config.h"
#include "falcon/model/model_presets.h"
#include "falcon/problems/registry.h"
#include "falcon/text/chat_template.h"
#include "falcon/text/tokenizer.h"

namespace falcon::train {
namespace {

std::string at(const Config& config, const std::string& path) { return config.source() + ": " + path; }

void require(bool ok, const Config& config, const std::string& path, const std::string& what) {
  if (!ok) throw Error(at(config, path) + " " + what);
}

RolloutSpec read_rollout(Config& c, const std::string& base, const formats::TextStyle& style) {
  RolloutSpec r;
  r.samples_per_instance = static_cast<int>(c.get_int(base + "samples_per_instance", r.samples_per_instance));
  require(r.samples_per_instance >= 2, c, base + "samples_per_instance", "must be at least 2 (pairs need two samples)");
  r.temperature = c.get_double(base + "temperature", r.temperature);
  require(r.temperature > 0, c, base + "temperature", "must be > 0 for sampling");
  r.top_k = static_cast<int>(c.get_int(base + "top_k", r.top_k));
  r.top_p = c.get_double(base + "top_p", r.top_p);
  require(r.top_p > 0 && r.top_p <= 1, c, base + "top_p", "must be in (0, 1]");
  r.grammar = c.get_bool(base + "grammar", r.grammar);
  r.semantic_mask = c.get_bool(base + "semantic_mask", r.semantic_mask);
  require(!r.semantic_mask || r.grammar, c, base + "semantic_mask", "needs grammar: true (it reads the grammar's text)");
  // auto: computed where the text writes notes (with the grammar off too: the notes are the text's)
  r.computed_notes = c.get_bool_or_auto(base + "computed_notes", r.computed_notes)
                         .value_or(formats::writes_notes(style) && !r.semantic_mask);
  require(!(r.computed_notes && r.semantic_mask), c, base + "computed_notes",
          "cannot be combined with semantic_mask (the semantic mask does not read notes)");
  require(!r.computed_notes || formats::writes_notes(style), c, base + "computed_notes",
          "needs a text that writes notes (text.style: compact_echo, compact_state, compact_ranked or compact_insert; or auto)");
  r.repair = c.get_bool(base + "repair", r.repair);
  r.max_new_tokens = static_cast<int>(c.get_int(base + "max_new_tokens", r.max_new_tokens));
  require(r.max_new_tokens >= 0, c, base + "max_new_tokens", "must be >= 0 (0 = sized from the instance)");
  return r;
}

// data.weights or a stage's own: each dataset's share of the batches, one whole number per data.config.
std::vector<std::int64_t> read_dataset_weights(Config& c, const std::string& path, const DataSpec& data) {
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

// stages[i].problems: {<p>: {infeasible_losers: ..., loss_on_notes: ...}}, each value defaulting
// to the stage's own (infeasible_losers in a BOPO stage only, as the stage's key).
std::vector<StageSpec::ProblemOptions> read_problem_options(Config& c, const std::string& path, const StageSpec& s,
                                                            const formats::TextStyle& style) {
  std::vector<StageSpec::ProblemOptions> out;
  for (const auto& problem : c.keys(path)) {
    const std::string base = path + "." + problem;
    require(c.is_map(base), c, base, "must be a map such as {infeasible_losers: true, loss_on_notes: false}");
    try {
      problems::problem_by_name(problem);
    } catch (const Error& e) {  // an unknown problem: the message lists the known ones
      throw Error(at(c, base) + ": " + e.what());
    }
    const bool own_loss_on_notes = c.has(base + ".loss_on_notes");  // an inherited false is the stage's check
    StageSpec::ProblemOptions o{problem, s.infeasible_losers, c.get_bool(base + ".loss_on_notes", s.loss_on_notes)};
    if (s.kind == StageKind::kBopo) o.infeasible_losers = c.get_bool(base + ".infeasible_losers", s.infeasible_losers);
    require(o.loss_on_notes || !own_loss_on_notes || formats::writes_notes(style.for_problem(problem)), c,
            base + ".loss_on_notes",
            "can be false only for a problem whose text writes notes (compact_echo, compact_state, compact_ranked or compact_insert)");
    require(o.loss_on_notes || !samples_policy(s.kind) || s.rollout.computed_notes, c, base + ".loss_on_notes",
            "can be false in a sampling stage only with rollout.computed_notes: true (else the model writes its notes)");
    out.push_back(o);
  }
  return out;
}

StageSpec read_stage(Config& c, int index, const formats::TextStyle& style) {
  const std::string base = "stages[" + std::to_string(index) + "].";
  StageSpec s = stage_defaults(stage_kind_from_string(c.get_string(base + "type"), at(c, base + "type")));
  s.name = c.get_string(base + "name", to_string(s.kind));
  s.steps = c.get_int(base + "steps", s.steps);
  require(s.steps >= 0, c, base + "steps", "must be >= 0");
  if (s.kind == StageKind::kSft) {
    s.epochs = c.get_double(base + "epochs", s.steps > 0 ? 0.0 : s.epochs);
    require(s.steps > 0 || s.epochs > 0, c, base + "epochs", "or steps must be positive");
  } else {
    require(s.steps > 0, c, base + "steps", "must be positive for a sampling stage");
  }
  s.batch_size = static_cast<int>(c.get_int(base + "batch_size", s.batch_size));
  require(s.batch_size >= 1, c, base + "batch_size", "must be at least 1");
  s.grad_accum = static_cast<int>(c.get_int(base + "grad_accum", s.grad_accum));
  require(s.grad_accum >= 1, c, base + "grad_accum", "must be at least 1");
  s.lr.peak = c.get_double(base + "lr", s.lr.peak);
  require(s.lr.peak > 0, c, base + "lr", "must be positive");
  s.lr.warmup_steps = c.get_int(base + "warmup_steps", s.lr.warmup_steps);
  require(s.lr.warmup_steps >= 0, c, base + "warmup_steps", "must be >= 0");
  s.lr.kind = schedule_kind_from_string(c.get_string(base + "schedule", to_string(s.lr.kind)), at(c, base + "schedule"));
  s.lr.min_ratio = c.get_double(base + "min_lr_ratio", s.lr.min_ratio);
  require(s.lr.min_ratio >= 0 && s.lr.min_ratio <= 1, c, base + "min_lr_ratio", "must be in [0, 1]");
  s.lr.decay_steps = c.get_int(base + "decay_steps", s.lr.decay_steps);
  require(s.lr.decay_steps >= 0, c, base + "decay_steps", "must be >= 0");
  require(s.lr.kind != ScheduleKind::kWsd || s.lr.decay_steps > 0, c, base + "decay_steps",
          "must be > 0 with schedule: wsd (the steps of its final decay)");
  s.weight_decay = c.get_double(base + "weight_decay", s.weight_decay);
  s.grad_clip = c.get_double(base + "grad_clip", s.grad_clip);
  require(s.grad_clip >= 0, c, base + "grad_clip", "must be >= 0 (0 = off)");

  s.lora.rank = static_cast<int>(c.get_int(base + "lora.rank", s.lora.rank));
  require(s.lora.rank >= 0, c, base + "lora.rank", "must be >= 0 (0 = full fine-tuning)");
  s.lora.alpha = c.get_double(base + "lora.alpha", s.lora.rank > 0 ? s.lora.rank : s.lora.alpha);  // alpha = rank
  s.lora.dropout = c.get_double(base + "lora.dropout", s.lora.dropout);
  require(s.lora.dropout >= 0 && s.lora.dropout < 1, c, base + "lora.dropout", "must be in [0, 1)");
  if (c.has(base + "lora.target_modules")) s.lora.target_modules = c.get_string_list(base + "lora.target_modules");
  require(s.lora.rank == 0 || !s.lora.target_modules.empty(), c, base + "lora.target_modules",
          "must name at least one module with lora.rank > 0 (e.g. [q_proj, v_proj]), or set lora.rank: 0");

  if (samples_policy(s.kind)) s.rollout = read_rollout(c, base + "rollout.", style);
  s.loss_on_notes = c.get_bool(base + "loss_on_notes", s.loss_on_notes);
  require(s.loss_on_notes || !samples_policy(s.kind) || s.rollout.computed_notes, c, base + "loss_on_notes",
          "can be false in a sampling stage only with rollout.computed_notes: true (else the model writes its notes)");
  if (s.kind == StageKind::kBopo || s.kind == StageKind::kDpo) {
    s.beta = c.get_double(base + "beta", s.beta);
    require(s.beta > 0, c, base + "beta", "must be positive");
  }
  if (s.kind == StageKind::kBopo) {
    s.reference = c.get_string(base + "reference", s.reference);
    require(s.reference == "none" || s.reference == "adapters", c, base + "reference",
            "must be 'none' (the paper: s = log pi(y*) - log pi(y_i)) or 'adapters' (margin against adapters disabled)");
    s.length_normalise = c.get_bool(base + "length_normalise", s.length_normalise);
    s.sft_weight = c.get_double(base + "sft_weight", s.sft_weight);
    require(s.sft_weight >= 0, c, base + "sft_weight", "must be >= 0");
    s.anchor_on_label = c.get_bool(base + "anchor_on_label", s.anchor_on_label);
    s.infeasible_losers = c.get_bool(base + "infeasible_losers", s.infeasible_losers);
  }
  s.per_problem = read_problem_options(c, base + "problems", s, style);
  if (s.kind == StageKind::kDpo) s.reference = "adapters";
  if ((s.kind == StageKind::kBopo && s.reference == "adapters") || s.kind == StageKind::kDpo)
    require(s.lora.rank > 0, c, base + "lora.rank", "must be > 0: the reference policy is the model with adapters disabled");
  if (s.kind == StageKind::kGrpo || s.kind == StageKind::kFoarl) {
    s.kl_coef = c.get_double(base + "kl_coef", s.kl_coef);
    require(s.kl_coef >= 0, c, base + "kl_coef", "must be >= 0");
    if (s.kl_coef > 0) require(s.lora.rank > 0, c, base + "lora.rank", "must be > 0 for the KL term's reference policy");
    s.loss_type = c.get_string(base + "loss_type", s.loss_type);
    require(s.loss_type == "grpo" || s.loss_type == "dr_grpo", c, base + "loss_type",
            "must be 'grpo' (each sequence's token mean) or 'dr_grpo' (token sums over a constant: every token weighs the same)");
  }
  return s;
}

}  // namespace

StageSpec stage_defaults(StageKind kind) {
  StageSpec s;
  s.kind = kind;
  if (samples_policy(kind)) {
    s.batch_size = 8;  // instances, each with K samples
    s.lr.peak = 1e-5;
    s.lora.rank = 16;
    s.lora.alpha = 16.0;
  }
  return s;
}

bool StageSpec::infeasible_losers_for(std::string_view problem) const {
  for (const auto& p : per_problem)
    if (p.problem == problem) return p.infeasible_losers;
  return infeasible_losers;
}

bool StageSpec::loss_on_notes_for(std::string_view problem) const {
  for (const auto& p : per_problem)
    if (p.problem == problem) return p.loss_on_notes;
  return loss_on_notes;
}

StageKind stage_kind_from_string(const std::string& name, const std::string& where) {
  if (name == "sft") return StageKind::kSft;
  if (name == "bopo") return StageKind::kBopo;
  if (name == "grpo") return StageKind::kGrpo;
  if (name == "foarl") return StageKind::kFoarl;
  if (name == "dpo") return StageKind::kDpo;
  throw Error(where + ": unknown stage type '" + name + "' (use sft, bopo, grpo, foarl or dpo)");
}

std::string to_string(StageKind kind) {
  switch (kind) {
    case StageKind::kSft: return "sft";
    case StageKind::kBopo: return "bopo";
    case StageKind::kGrpo: return "grpo";
    case StageKind::kFoarl: return "foarl";
    case StageKind::kDpo: return "dpo";
  }
  return "?";
}

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
  r.source = c.source();
  r.seed = c.get_uint("seed", 1);
  r.output_dir = c.get_string("output_dir");
  r.threads = static_cast<int>(c.get_int("threads", 0));
  r.init_from = c.get_string("init.checkpoint", "");
  r.start_stage = static_cast<int>(c.get_int("init.start_stage", 0));
  r.init_other_text_style = c.get_bool("init.other_text_style", false);
  r.number_embedding = c.get_string("init.number_embedding", "random");
  require(r.number_embedding == "random" || r.number_embedding == "fourier", c, "init.number_embedding",
          "must be random or fourier");
  r.device = c.get_string("device", "cpu");
  r.mixed_precision = c.get_string("mixed_precision", "none");
  require(r.mixed_precision == "none" || r.mixed_precision == "bf16" || r.mixed_precision == "auto", c,
          "mixed_precision", "must be none, bf16 (bfloat16 autocast of the training forward passes) or auto");
  // auto: bf16 where it is fast (CUDA, or a CPU with native bf16 dot products), else none.
  if (r.mixed_precision == "auto")
    r.mixed_precision = r.device.rfind("cuda", 0) == 0 || cpu_has_native_bf16() ? "bf16" : "none";

  r.tokenizer.path = c.get_string("tokenizer.path", "");
  // A model directory (a release in models/, a run's final/) carries the tokenizer its ids are from.
  if (r.tokenizer.path.empty() && is_model_directory(r.init_from)) r.tokenizer.path = text::tokenizer_file(r.init_from);
  r.tokenizer.vocab_size = static_cast<int>(c.get_int("tokenizer.vocab_size", 2000));
  require(r.tokenizer.vocab_size >= 300, c, "tokenizer.vocab_size", "must be at least 300 (256 byte pieces + specials)");
  r.tokenizer.numbers = c.get_string("tokenizer.numbers", "plain");
  require(r.tokenizer.numbers == "plain" || r.tokenizer.numbers == "split_digits" || r.tokenizer.numbers == "whole" ||
              r.tokenizer.numbers == "whole_ids",
          c, "tokenizer.numbers", "must be plain, split_digits, whole or whole_ids");
  require(r.tokenizer.numbers != "whole" || r.tokenizer.vocab_size >= 1300, c, "tokenizer.vocab_size",
          "must be at least 1300 with numbers: whole (1,000 number pieces + bytes + specials)");
  require(r.tokenizer.numbers != "whole_ids" || r.tokenizer.vocab_size >= 2300, c, "tokenizer.vocab_size",
          "must be at least 2300 with numbers: whole_ids (1,000 number pieces, 1,000 ID pieces, bytes, specials)");

  r.text_style = formats::make_text_style(c.get_string("text.style", "paper"),
                                           static_cast<int>(c.get_int("text.candidates", 0)), at(c, "text"));
  // A model of several problems may write each its own way: text.problems.<p>.{style, candidates},
  // each defaulting to text.style / text.candidates.
  for (const auto& problem : c.keys("text.problems")) {
    const std::string base = "text.problems." + problem;
    require(c.is_map(base), c, base, "must be a map such as {style: compact_ranked, candidates: 0}");
    formats::set_problem_text_style(r.text_style, problem, c.get_string(base + ".style", r.text_style.name),
                                     static_cast<int>(c.get_int(base + ".candidates", r.text_style.candidates)),
                                     at(c, base));
  }
  // An instruct format for models tuned on one (Qwen's chatml, Llama-3's): text/chat_template.h.
  r.text_style.chat = text::chat_template(c.get_string("text.chat", "none"), at(c, "text.chat")).name;
  require(r.text_style.chat == "none" || !r.tokenizer.path.empty(), c, "text.chat",
          "needs tokenizer.path (a tokenizer.json with the template's special tokens), or init.checkpoint naming a "
          "model directory that has one: a tokenizer trained here has none");
  std::string compact = r.text_style.name;  // a compact text anywhere needs whole-number pieces
  for (const auto& p : r.text_style.per_problem)
    if (compact == "paper") compact = p.name;
  require(compact == "paper" || !r.tokenizer.path.empty() || r.tokenizer.numbers == "whole_ids", c,
          "tokenizer.numbers", "must be whole_ids with text.style: " + compact +
                                   " (its IDs #k and numbers must be whole pieces)");

  if (c.is_list("data.config")) {
    r.data.configs = c.get_string_list("data.config");
    require(!r.data.configs.empty(), c, "data.config", "must name at least one falcon_datagen config");
  } else {
    r.data.configs = {c.get_string("data.config")};
  }
  if (c.has("data.overrides")) r.data.overrides = c.get_string_list("data.overrides");
  r.data.train_split = c.get_string("data.train_split", "train");
  r.data.eval_split = c.get_string("data.eval_split", "test");
  r.data.max_prompt_tokens = static_cast<int>(c.get_int("data.max_prompt_tokens", 1024));
  r.data.augment = c.get_bool("data.augment", false);
  r.data.batches = c.get_string("data.batches", "mixed");
  require(r.data.batches == "mixed" || r.data.batches == "by_dataset", c, "data.batches",
          "must be mixed (every batch draws from all datasets) or by_dataset (each batch from one)");
  if (c.has("data.weights")) r.data.weights = read_dataset_weights(c, "data.weights", r.data);
  r.data.length_buckets = static_cast<int>(c.get_int("data.length_buckets", 0));
  require(r.data.length_buckets >= 0, c, "data.length_buckets",
          "must be >= 0 (batches per window sorted by length; 0 = off)");

  const int n_stages = c.list_size("stages");
  if (n_stages == 0) throw Error(at(c, "stages") + " must list at least one stage, e.g. stages: [{type: sft, epochs: 1}]");
  for (int i = 0; i < n_stages; ++i) {
    r.stages.push_back(read_stage(c, i, r.text_style));
    const std::string weights = "stages[" + std::to_string(i) + "].weights";
    if (c.has(weights)) r.stages.back().weights = read_dataset_weights(c, weights, r.data);
  }
  for (int i = 0; i < n_stages; ++i)
    require(r.stages[i].loss_on_notes || formats::writes_notes(r.text_style), c,
            "stages[" + std::to_string(i) + "].loss_on_notes",
            "can be false only with a text that writes notes (text.style: compact_echo, compact_state, compact_ranked or compact_insert)");
  require(r.start_stage >= 0 && r.start_stage < n_stages, c, "init.start_stage", "must name one of the stages (0-based)");
  require(r.init_from.empty() || !r.tokenizer.path.empty(), c, "tokenizer.path",
          "must name the tokenizer.model of the run init.checkpoint comes from (its token ids are in the weights); "
          "a model directory with its tokenizer.model needs none");
  require(r.start_stage == 0 || !r.init_from.empty(), c, "init.start_stage",
          "needs init.checkpoint: the weights the skipped stages would have trained");

  r.adam_beta1 = c.get_double("optimizer.beta1", 0.9);
  r.adam_beta2 = c.get_double("optimizer.beta2", 0.999);
  r.adam_eps = c.get_double("optimizer.eps", 1e-8);
  r.checkpoint_every = c.get_int("checkpoint.every", 0);
  require(r.checkpoint_every >= 0, c, "checkpoint.every", "must be >= 0 (0 = end of each stage only)");
  r.keep_last = static_cast<int>(c.get_int("checkpoint.keep_last", 2));
  require(r.keep_last >= 1, c, "checkpoint.keep_last", "must be at least 1");
  r.log_every = static_cast<int>(c.get_int("logging.every", 10));
  require(r.log_every >= 1, c, "logging.every", "must be at least 1");
  r.eval.instances = static_cast<int>(c.get_int("eval.instances", 50));
  r.eval.samples = static_cast<int>(c.get_int("eval.samples", 8));
  r.eval.temperature = c.get_double("eval.temperature", 0.7);
  require(r.eval.samples >= 1, c, "eval.samples", "must be at least 1");
  bool notes_untrained = false;
  for (const auto& stage : r.stages) {
    notes_untrained = notes_untrained || !stage.loss_on_notes;
    for (const auto& p : stage.per_problem) notes_untrained = notes_untrained || !p.loss_on_notes;
  }
  r.eval.computed_notes = c.get_bool_or_auto("eval.computed_notes", notes_untrained)  // auto: where the text writes notes
                              .value_or(formats::writes_notes(r.text_style));
  require(!r.eval.computed_notes || formats::writes_notes(r.text_style), c, "eval.computed_notes",
          "needs a text that writes notes (text.style: compact_echo, compact_state, compact_ranked or compact_insert)");

  r.distributed.backend = c.get_string("distributed.backend", "auto");
  require(r.distributed.backend == "auto" || r.distributed.backend == "gloo" || r.distributed.backend == "nccl", c,
          "distributed.backend", "must be auto, gloo (CPU) or nccl (CUDA)");
  r.distributed.timeout_s = c.get_double("distributed.timeout_s", 1800.0);
  require(r.distributed.timeout_s > 0, c, "distributed.timeout_s", "must be positive (seconds)");
  r.distributed.bucket_mb = c.get_double("distributed.bucket_mb", 25.0);
  require(r.distributed.bucket_mb > 0, c, "distributed.bucket_mb", "must be positive (megabytes)");
  return r;
}

TrainingConfig read_training_config(Config& config) {
  TrainingConfig read;
  read.recipe = read_recipe(config);
  read.model = model::resolve_model_section(config, "model");
  config.check_unused();
  return read;
}

}  // namespace falcon::train
