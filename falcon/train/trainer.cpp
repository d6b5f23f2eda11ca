#include "falcon/train/trainer.h"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>

#include <nlohmann/json.hpp>

#include "falcon/core/atomic_file.h"
#include "falcon/core/cpu_features.h"
#include "falcon/core/error.h"
#include "falcon/core/progress.h"
#include "falcon/core/rng.h"
#include "falcon/core/stop_signal.h"
#include "falcon/core/torch/runtime.h"
#include "falcon/model/adapters.h"
#include "falcon/model/checkpoint.h"
#include "falcon/model/hf_checkpoint.h"
#include "falcon/model/number_embedding.h"
#include "falcon/model/state_dict.h"
#include "falcon/policy/grammar_masks.h"
#include "falcon/policy/model_dir.h"
#include "falcon/scoring/text_style_file.h"
#include "falcon/text/tokenizer.h"
#include "falcon/train/algorithms.h"
#include "falcon/train/batch_share.h"
#include "falcon/train/data_order.h"
#include "falcon/train/data_parallel.h"
#include "falcon/train/dataset_losses.h"
#include "falcon/train/metrics_log.h"
#include "falcon/train/output_dir.h"
#include "falcon/train/sft.h"
#include "falcon/train/train_step.h"
#include "falcon/train/tokenizer_setup.h"

namespace falcon::train {

using recipe::is_model_directory;
using recipe::read_recipe;
using recipe::read_training_config;
using recipe::Recipe;
using recipe::ScheduleKind;
using recipe::StageSpec;
using recipe::TrainingConfig;

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using json = nlohmann::json;

std::uint64_t mix(std::uint64_t a, std::uint64_t b) { return Rng::for_item(a, b).next_u64(); }

bool same_lora(const model::LoraConfig& a, const model::LoraConfig& b) {
  return a.rank == b.rank && a.alpha == b.alpha && a.dropout == b.dropout && a.target_modules == b.target_modules;
}

// Puts the model in the shape stage `index` trains: adapters added (seeded) and the base frozen
// for LoRA stages; adapters merged into the base for a full fine-tuning stage after a LoRA one.
void prepare_model(model::CausalLm& model, const StageSpec& stage, int index, std::uint64_t seed) {
  const bool has_adapters = model->lora_config().rank > 0;
  const std::string where = "stages[" + std::to_string(index) + "].lora";
  if (stage.lora.rank > 0) {
    if (!has_adapters) {
      torch::manual_seed(static_cast<std::uint64_t>(mix(seed, 1000 + index)));
      model->add_lora(stage.lora);
    } else if (!same_lora(model->lora_config(), stage.lora)) {
      throw Error(where + ": differs from the adapters an earlier stage trained; give every LoRA stage the same "
                          "rank, alpha, dropout and target_modules");
    } else if (model->adapted_layers().front()->merged()) {
      throw Error(where + ": a LoRA stage after a full fine-tuning stage that merged the adapters is not supported");
    }
    model->freeze_base();
    model->set_adapters_enabled(true);
  } else {
    if (has_adapters && !model->adapted_layers().front()->merged()) model->merge_adapters();
    for (auto& item : model->named_parameters()) {
      const bool lora = item.key().find(".lora_") != std::string::npos;
      item.value().requires_grad_(!lora);
    }
  }
}

std::vector<torch::Tensor> trainable(model::CausalLm& model) {
  std::vector<torch::Tensor> out;
  for (auto& p : model->parameters())
    if (p.requires_grad()) out.push_back(p);
  return out;
}

std::int64_t stage_length(const StageSpec& stage, std::size_t examples) {
  if (stage.steps > 0) return stage.steps;  // a sampling stage always gives its steps
  const double per_step = static_cast<double>(stage.batch_size) * stage.grad_accum;
  const double epochs = stage.keys_of<recipe::SftKeys>().epochs;
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(epochs * examples / per_step)));
}

void write_final(const std::string& dir, model::CausalLm& model, const model::ModelConfig& config,
                 const std::string& tokenizer_path, const formats::TextStyle& style) {
  fs::create_directories(dir);
  if (model->lora_config().rank > 0)
    model::save_adapters(dir + "/adapter", model->named_lora_parameters(), model->lora_config());
  policy::write_model_dir(dir, config, policy::merged_weights(model), tokenizer_path, style);
}

std::string fmt_status(double loss, double lr, double tokens_per_second) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "loss %.4f  lr %.2e  %.0f tok/s", loss, lr, tokens_per_second);
  return buf;
}

json eval_json(const PolicyEval& e) {
  json out = {{"instances", e.instances},     {"sample_feasible_raw", e.sample_feasible_raw},
              {"feasible", e.feasible},       {"mean_gap", e.mean_gap},
              {"gap_all", e.gap_all},         {"repaired", e.repaired},
              {"seconds", e.seconds}};
  if (!e.by_dataset.empty()) {
    out["by_dataset"] = json::object();
    for (const auto& [name, of_dataset] : e.by_dataset) {
      auto figures = eval_json(of_dataset);
      figures.erase("seconds");  // decoded together with the others
      out["by_dataset"][name] = figures;
    }
  }
  return out;
}

// The checkpoint to resume from and the trainer state stored in it ({} when starting fresh).
json resume_point(const std::string& checkpoints, bool resume, std::string* dir) {
  *dir = resume ? model::find_checkpoint(checkpoints) : "";
  if (dir->empty()) return json::object();
  std::ifstream in(*dir + "/trainer_state.json");
  json state = json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!state.is_object() || !state.contains("stage") || !state.contains("next_step") || !state.contains("global_step"))
    throw Error(*dir + "/trainer_state.json: missing or malformed (needs stage, next_step, global_step); "
                       "delete the checkpoint directory or start without --resume");
  return state;
}

// Settings that may change between a run and its resumption without changing results (output_dir:
// a run folder moved elsewhere resumes).
const std::vector<std::string> kResumeIgnoredPaths = {"checkpoint", "logging", "eval", "threads", "distributed",
                                                      "output_dir"};

// What resuming stage s may change besides those: its length, where the steps already taken do not
// depend on it: at a constant rate, or with wsd before the decay of both the old length and the new
// (so a run can be made longer, or cut where a longer one has passed, before it decays). Throws when
// the checkpoint is past the new length's flat part.
std::vector<std::string> resume_ignored_paths(const StageSpec& stage, int s, std::int64_t next_step,
                                              std::int64_t stored_total, std::int64_t total_steps,
                                              const std::string& resume_dir) {
  auto paths = kResumeIgnoredPaths;
  const bool wsd = stage.lr.kind == ScheduleKind::kWsd;
  if ((stage.lr.kind != ScheduleKind::kConstant && !wsd) || stored_total == total_steps) return paths;
  const std::int64_t decay = wsd ? stage.lr.decay_steps : 0;
  if (wsd && next_step > stored_total - decay) return paths;  // it was decaying: the length check refuses the change
  if (next_step > total_steps - decay)
    throw Error(resume_dir + ": the checkpoint is at step " + std::to_string(next_step) + " of stage '" + stage.name +
                "', past its " + std::to_string(total_steps) + " steps" + (wsd ? " less their decay" : "") +
                "; resume with at least " + std::to_string(next_step + decay) +
                " steps, or train from an earlier checkpoint");
  const std::string base = "stages[" + std::to_string(s) + "].";
  paths.insert(paths.end(), {base + "steps", base + "epochs"});
  return paths;
}

// Stage s's length in the run a checkpoint comes from (its config.yaml), on this run's examples.
std::int64_t stored_stage_length(const std::string& resume_dir, int s, std::size_t examples) {
  Config stored = Config::from_file(resume_dir + "/config.yaml");
  const auto recipe = read_training_config(stored).recipe;
  if (s >= static_cast<int>(recipe.stages.size())) return -1;  // another recipe: the config check names it
  return stage_length(recipe.stages[s], examples);
}

// A checkpoint's recipe as this program reads it: keys added since it was written get their
// defaults, the way the run's own config got them.
std::string stored_recipe_with_defaults(const std::string& yaml, const std::string& path) {
  Config stored = Config::from_string(yaml, path);
  read_training_config(stored);
  return stored.to_yaml();
}

// A model only understands the text it was trained on: a run that starts from another run's
// checkpoint must keep that run's text style.
void check_init_text_style(const Recipe& recipe) {
  if (is_model_directory(recipe.init_from)) {
    const formats::TextStyle trained = scoring::read_text_style(recipe.init_from);
    if (trained != recipe.text_style)
      throw Error(recipe.source + ": text is '" + formats::describe(recipe.text_style) + "' but the model in " +
                  recipe.init_from + " was trained on '" + formats::describe(trained) +
                  "' (its text_style.json); set text.style / text.candidates to match it, or "
                  "init.other_text_style: true to start from it anyway");
    return;
  }
  const std::string dir = model::find_checkpoint(recipe.init_from);
  if (dir.empty() || !fs::exists(dir + "/config.yaml")) return;  // load_checkpoint names what is missing
  auto stored = Config::from_string(read_file(dir + "/config.yaml"), dir + "/config.yaml");
  const formats::TextStyle trained = read_recipe(stored).text_style;
  if (trained != recipe.text_style)
    throw Error(recipe.source + ": text is '" + formats::describe(recipe.text_style) + "' but init.checkpoint " + dir +
                " was trained on '" + formats::describe(trained) +
                "'; set text.style / text.candidates to match it, or init.other_text_style: true to start from it anyway");
}

// init.checkpoint's weights: a training checkpoint's, or a model directory's (a release: any
// LoRA merged into its weights, so adapters the replayed stages added start from zero again).
void load_init_weights(const std::string& from, model::CausalLmImpl& lm) {
  if (!is_model_directory(from)) {
    model::load_checkpoint(from, lm, nullptr);
    return;
  }
  const auto hf = model::read_hf_checkpoint(from);
  model::LoadOptions options;
  options.source = from;
  options.allow_missing = {"*.lora_A.weight", "*.lora_B.weight"};
  options.hint = "init.checkpoint's model has another shape than this recipe's: copy the model section of its card "
                 "(or its config.json) into the recipe";
  model::load_state_dict(lm, hf.weights, options);
}

}  // namespace

void print_resolved_recipe(Config& config, std::ostream& out) {
  read_training_config(config);
  out << config.to_yaml();
}

namespace {

// What every stage of one run shares, set up once by start_run.
struct Run {
  Recipe recipe;
  model::ModelConfig model_config;
  TrainOptions options;
  distributed::DistributedContext* dist = nullptr;
  BatchShare share;
  bool main = true;      // the only rank that prints and writes files
  bool progress = true;
  std::string checkpoints, config_yaml, tokenizer_path;
  std::optional<text::Tokenizer> tokenizer;
  ExampleSet train_set, eval_set;
  std::string resume_dir;  // "" when starting fresh
  json resume_state;       // the checkpoint's trainer_state.json ({} when fresh)
  int resume_stage = 0;
  std::int64_t global_step = 0;
  std::int64_t steps_this_process = 0;
  std::string last_checkpoint;  // the newest one this process wrote (rank 0)
  model::CausalLm model{nullptr};
  std::optional<MetricsLog> metrics;
  std::optional<ThreadsFollowLoad> threads;  // auto threads (`threads: 0`, one process) follow the load
};

// Data and tokenizer: rank 0 makes what is missing while the others wait, then all read them.
void load_data(Run& run) {
  auto& recipe = run.recipe;
  std::vector<std::string> dataset_paths;
  if (run.main) {
    fs::create_directories(recipe.output_dir);
    // A user who limited `threads` (two runs side by side) gets the same limit for labelling.
    dataset_paths = ensure_datasets(recipe.data, run.progress, recipe.threads);
    run.tokenizer_path = ensure_tokenizer(recipe, dataset_paths, run.options.tokenizer_tool, run.progress);
  }
  run.dist->barrier();
  if (!run.main) {
    dataset_paths = existing_datasets(recipe.data);
    run.tokenizer_path = existing_tokenizer(recipe);
  }
  std::vector<data::DatasetReader> readers;
  for (const auto& path : dataset_paths) readers.push_back(data::DatasetReader::open(path));
  run.tokenizer.emplace(text::Tokenizer::load(run.tokenizer_path).with_chat_template(recipe.text_style.chat));
  const auto& tokenizer = *run.tokenizer;
  run.model_config.vocab_size = recipe::model_vocab_size(recipe, tokenizer.vocab_size());
  run.train_set =
      load_examples(readers, recipe.data.train_split, tokenizer, recipe.data.max_prompt_tokens, 0, recipe.text_style);
  if (recipe.data.augment) check_augmentable(run.train_set, tokenizer);
  check_fits_context(run.train_set, run.model_config.max_position_embeddings, recipe.data.train_split);
  if (recipe.eval.instances > 0)
    run.eval_set = load_examples(readers, recipe.data.eval_split, tokenizer, recipe.data.max_prompt_tokens,
                                 recipe.eval.instances, recipe.text_style);
}

// The checkpoint to continue from (--resume), the same on every rank.
void find_resume_point(Run& run) {
  run.resume_state = resume_point(run.checkpoints, run.options.resume, &run.resume_dir);
  run.resume_stage = std::max(run.resume_state.value("stage", 0), run.recipe.start_stage);
  run.global_step = run.resume_state.value("global_step", std::int64_t{0});
  const auto next_step = run.resume_state.value("next_step", std::int64_t{0});
  check_same_on_every_rank(*run.dist, {run.resume_dir.empty() ? -1 : std::int64_t{run.resume_stage}, next_step,
                                       run.global_step},
                           "the checkpoint to resume from (stage, step, global step)");
  if (run.resume_dir.empty() || !run.progress) return;
  std::fprintf(stderr, "train: resuming from %s (stage %d, step %lld)\n", run.resume_dir.c_str(), run.resume_stage,
               static_cast<long long>(next_step));
  const int saved_world = run.resume_state.value("world_size", 1);
  if (saved_world != run.dist->world_size())
    std::fprintf(stderr, "train: the checkpoint was written by %d process(es), this run has %d: the same training, "
                 "but not bit-identical to an uninterrupted run (sums over ranks round differently)\n",
                 saved_world, run.dist->world_size());
}

void create_model(Run& run, const torch::Device& device) {
  torch::manual_seed(run.recipe.seed);
  run.model = model::CausalLm(run.model_config, torch::TensorOptions().device(device));
  run.model->set_autocast(run.recipe.mixed_precision == "bf16" ? torch::kBFloat16 : torch::kFloat);
  if (run.recipe.mixed_precision == "bf16" && device.is_cpu() && !cpu_has_native_bf16() && run.progress)
    std::fprintf(stderr, "train: warning: mixed_precision bf16 on a CPU without native bf16 (no avx512_bf16 or amx_bf16 "
                         "in /proc/cpuinfo): its matmuls fall back to slow loops (measured 18x slower than fp32 on "
                         "an AVX2 CPU); mixed_precision: auto picks what is fast here\n");
  if (run.recipe.number_embedding == "fourier") {
    // Before any checkpoint is loaded, so resumed and init.checkpoint runs overwrite it as they should.
    model::init_number_embeddings(run.model->model->embed_tokens->weight, model::number_tokens(*run.tokenizer), 0.02);
  }
  run.model->train();
}

// This rank's micro-batches of one optimizer step, made ready before any backward: SFT
// sequences, or a sampling stage's rollouts (all with the weights of this step) and their pairs,
// advantages or counts.
std::vector<MicroBatch> make_micro_batches(Run& run, const StageSpec& stage, int s, std::int64_t step,
                                           DataOrder& order, const policy::MaskFactory& masks) {
  const auto& tokenizer = *run.tokenizer;
  std::vector<MicroBatch> out;
  for (int micro = 0; micro < stage.grad_accum; ++micro) {
    // The global micro-batch is rows first .. first + batch_size of the data order; this rank
    // takes its contiguous slice, with the same seeds as one process would use.
    const std::int64_t first = (step * stage.grad_accum + micro) * stage.batch_size;
    const auto rows = run.share.slice(stage.batch_size);
    // Every row of a by_dataset micro-batch comes from one dataset, the same on every rank.
    const int dataset = run.recipe.data.batches == "by_dataset" ? run.train_set.examples[order.at(first)].dataset : -1;
    if (!recipe::samples_policy(stage.kind)) {
      std::vector<Sequence> batch;
      for (auto j = rows.begin; j < rows.end; ++j) {
        const auto& example = run.train_set.examples[order.at(first + j)];
        batch.push_back(sft_sequence(example, tokenizer, run.recipe.data.augment,
                                     mix(mix(run.recipe.seed, s), static_cast<std::uint64_t>(first + j)),
                                     stage.loss_on_notes_for(example.problem->name())));
      }
      out.push_back(prepare_sft(std::move(batch)));
      out.back().dataset = dataset;
      continue;
    }
    std::vector<policy::RolloutItem> items;
    const int max_positions = run.model->config().max_position_embeddings;
    for (auto j = rows.begin; j < rows.end; ++j)
      items.push_back(rollout_item(run.train_set.examples[order.at(first + j)], tokenizer, max_positions));
    policy::RolloutOptions ro;
    ro.samples_per_item = stage.rollout.samples_per_instance;
    ro.sampling = {stage.rollout.temperature, stage.rollout.top_k, stage.rollout.top_p};
    ro.repair = stage.rollout.repair;
    ro.seed = mix(mix(run.recipe.seed, s), static_cast<std::uint64_t>(step * stage.grad_accum + micro));
    if (stage.rollout.max_new_tokens > 0)
      for (auto& item : items) item.max_new_tokens = stage.rollout.max_new_tokens;
    run.model->eval();
    auto groups = policy::rollout(run.model, tokenizer, items, ro, masks);
    run.model->train();
    out.push_back(prepare_sampled(items, groups, stage));
    // Where the decoder wrote the notes, a sample is scored on the model's choices only.
    auto& batch = out.back();
    batch.dataset = dataset;
    for (std::size_t i = 0; i < batch.sequences.size(); ++i) {
      const auto& item = items.at(batch.item_of.at(i));
      if (!stage.loss_on_notes_for(item.problem->name()))
        batch.sequences[i].decoder_written =
            note_token_flags(*item.problem, item.instance, tokenizer, batch.sequences[i].solution);
    }
  }
  return out;
}

std::string save_checkpoint(Run& run, int s, const StageSpec& stage, torch::optim::AdamW& optimizer,
                            std::int64_t next_step) {
  model::CheckpointData data;
  data.step = run.global_step;
  data.config_yaml = run.config_yaml;
  data.trainer_state = {{"stage", s}, {"stage_name", stage.name}, {"next_step", next_step},
                        {"global_step", run.global_step}, {"world_size", run.dist->world_size()}};
  model::CheckpointSaveOptions options;
  options.keep_last = run.recipe.keep_last;
  return model::save_checkpoint(run.checkpoints, data, *run.model, &optimizer, options);
}

void log_step(Run& run, const StageSpec& stage, std::int64_t step, const StepMetrics& total, double loss, double lr,
              double grad_norm, double seconds, const json& loss_by_dataset) {
  json line = {{"stage", stage.name},  {"type", to_string(stage.kind)}, {"step", step + 1},
               {"global_step", run.global_step}, {"loss", loss}, {"lr", lr}, {"grad_norm", grad_norm},
               {"tokens_per_second", total.tokens / std::max(seconds, 1e-9)}};
  // The share of the teacher-forced positions that were padding (work that teaches nothing).
  if (total.positions > 0) line["padding"] = 1.0 - static_cast<double>(total.tokens) / static_cast<double>(total.positions);
  if (recipe::samples_policy(stage.kind))
    line.update({{"groups", total.groups}, {"skipped_groups", total.skipped_groups}, {"pairs", total.pairs},
                 {"anchored_on_label", total.anchored_on_label}, {"mean_reward", total.mean_reward()}});
  if (!loss_by_dataset.empty()) line["loss_by_dataset"] = loss_by_dataset;
  run.metrics->write(line);
}

// Whether to checkpoint and stop after this step: stop_after_steps reached, or stop_requested on any rank.
bool stop_after_this_step(Run& run) {
  if (run.options.stop_after_steps > 0 && run.steps_this_process >= run.options.stop_after_steps) return true;
  if (!run.options.stop_requested) return false;
  return true_on_any_rank(*run.dist, run.options.stop_requested());
}

// The shares a stage draws its datasets' batches by: its own weights, or data.weights (empty: by
// each dataset's examples, or one mixed order).
const std::vector<std::int64_t>& stage_weights(const Run& run, const StageSpec& stage) {
  return stage.weights.empty() ? run.recipe.data.weights : stage.weights;
}

// The order stage s draws its training examples in: mixed or by dataset, and by length when
// data.length_buckets asks.
std::unique_ptr<DataOrder> stage_data_order(const Run& run, const StageSpec& stage, int s) {
  std::vector<int> dataset_of;  // each training example's data.config
  for (const auto& ex : run.train_set.examples) dataset_of.push_back(ex.dataset);
  std::unique_ptr<DataOrder> order =
      make_data_order(run.recipe.data.batches, dataset_of, static_cast<int>(run.recipe.data.configs.size()),
                      stage_weights(run, stage), stage.batch_size, mix(run.recipe.seed, s));
  if (run.recipe.data.length_buckets == 0) return order;
  std::vector<std::int64_t> lengths;
  for (const auto& ex : run.train_set.examples)
    lengths.push_back(static_cast<std::int64_t>(ex.prompt.size() + ex.solution.size()));
  return std::make_unique<LengthBucketOrder>(std::move(order), std::move(lengths), dataset_of, stage.batch_size,
                                             run.recipe.data.length_buckets, mix(run.recipe.seed, s) ^ 0x6c656e67ull);
}

// The step stage s starts at: 0, or the resumed checkpoint's next step, its weights and optimizer
// state loaded. Then every rank takes rank 0's weights.
std::int64_t start_stage_at(Run& run, int s, torch::optim::AdamW& optimizer, std::int64_t total_steps) {
  const auto& stage = run.recipe.stages[s];
  std::int64_t step = 0;
  if (s == run.resume_stage && !run.resume_dir.empty()) {
    step = run.resume_state.value("next_step", std::int64_t{0});
    const auto stored_total = stored_stage_length(run.resume_dir, s, run.train_set.examples.size());
    model::load_checkpoint(run.resume_dir, *run.model, &optimizer,
                           {run.config_yaml,
                            resume_ignored_paths(stage, s, step, stored_total, total_steps, run.resume_dir),
                            stored_recipe_with_defaults});
  }
  // Every rank reads the same files and draws the same seeds; rank 0's weights make sure.
  // The optimizer state needs no broadcast: it is loaded from the same checkpoint or empty.
  broadcast_parameters(*run.dist, run.model);
  return step;
}

// What one stage's steps share.
struct StageLoop {
  const StageSpec& stage;
  int s;
  std::vector<torch::Tensor> params;
  std::unique_ptr<torch::optim::AdamW> optimizer;
  std::unique_ptr<DataOrder> order;
  policy::MaskFactory masks;
  std::optional<DatasetLosses> dataset_losses;  // each dataset's loss in its own series
  std::vector<StepMetrics> each_micro_batch;
};

StageLoop make_stage_loop(Run& run, int s) {
  const auto& stage = run.recipe.stages[s];
  auto params = trainable(run.model);
  auto optimizer = std::make_unique<torch::optim::AdamW>(params, torch::optim::AdamWOptions(stage.lr.peak)
                                                                     .betas({run.recipe.adam_beta1, run.recipe.adam_beta2})
                                                                     .eps(run.recipe.adam_eps)
                                                                     .weight_decay(stage.weight_decay));
  decoding::GrammarOptions mask_options;
  mask_options.semantic = stage.rollout.semantic_mask;
  mask_options.computed_notes = stage.rollout.computed_notes;
  std::optional<DatasetLosses> dataset_losses;  // where each micro-batch comes from one dataset
  if (run.recipe.data.batches == "by_dataset" && run.train_set.dataset_names.size() > 1)
    dataset_losses.emplace(run.train_set.dataset_names);
  return StageLoop{stage,
                   s,
                   params,
                   std::move(optimizer),
                   stage_data_order(run, stage, s),
                   policy::make_mask_factory(*run.tokenizer, stage.rollout.grammar, mask_options),
                   std::move(dataset_losses),
                   {}};
}

// One optimizer step at learning rate lr: this rank's micro-batches, their gradients summed over
// the ranks, clipped and applied. Returns the global metrics and the gradient norm.
std::pair<StepMetrics, double> optimizer_step(Run& run, StageLoop& loop, std::int64_t step, double lr) {
  const auto& stage = loop.stage;
  for (auto& group : loop.optimizer->param_groups()) static_cast<torch::optim::AdamWOptions&>(group.options()).lr(lr);
  const auto micro_batches = make_micro_batches(run, stage, loop.s, step, *loop.order, loop.masks);
  const StepMetrics mine = train_step(run.model, micro_batches, stage, run.tokenizer->pad_id(), run.share,
                                      loop.dataset_losses ? &loop.each_micro_batch : nullptr);
  if (loop.dataset_losses) loop.dataset_losses->add_step(micro_batches, loop.each_micro_batch, run.share);
  // Each rank's loss was its part of the global one, so the summed gradient is the global
  // batch's; every rank then clips and steps identically.
  run.dist->sum_gradients(loop.params);
  const StepMetrics total = global_metrics(mine, run.share);
  double grad_norm = 0.0;
  if (stage.grad_clip > 0) grad_norm = torch::nn::utils::clip_grad_norm_(loop.params, stage.grad_clip);
  loop.optimizer->step();
  loop.optimizer->zero_grad();
  ++run.global_step;
  ++run.steps_this_process;
  return {total, grad_norm};
}

// Trains stage s from its first step (or the resumed one) to its last, checkpointing on the way.
// nullopt when stop_after_steps or stop_requested ended the run inside it (after a checkpoint).
std::optional<StageResult> train_stage(Run& run, int s) {
  StageLoop loop = make_stage_loop(run, s);
  const auto& stage = loop.stage;
  auto schedule = stage.lr;
  schedule.total_steps = stage_length(stage, run.train_set.examples.size());
  std::int64_t step = start_stage_at(run, s, *loop.optimizer, schedule.total_steps);
  StageResult sr;
  sr.name = stage.name;
  sr.kind = stage.kind;
  const auto stage_start = Clock::now();
  Progress bar(stage.name, static_cast<long>(schedule.total_steps), run.progress);
  bar.resume_at(static_cast<long>(step));
  // A signal during a step asks to stop after it, with a checkpoint; outside the steps it stops at once.
  std::optional<GracefulStopScope> graceful;
  if (run.options.stop_requested) graceful.emplace();
  for (; step < schedule.total_steps; ++step) {
    const auto step_start = Clock::now();
    const double lr = schedule.at(step);
    const auto [total, grad_norm] = optimizer_step(run, loop, step, lr);
    const double seconds = std::chrono::duration<double>(Clock::now() - step_start).count();
    sr.last_loss = total.loss;
    sr.skipped_groups += total.skipped_groups;
    sr.tokens += total.tokens;
    bar.set_status(fmt_status(sr.last_loss, lr, total.tokens / std::max(seconds, 1e-9)));
    bar.advance();
    if ((step + 1) % run.recipe.log_every == 0 || step + 1 == schedule.total_steps) {
      const json loss_by_dataset = loop.dataset_losses ? loop.dataset_losses->take() : json::object();
      if (run.main) log_step(run, stage, step, total, sr.last_loss, lr, grad_norm, seconds, loss_by_dataset);
      if (const auto threads = run.threads->update(); threads && run.progress)
        std::fprintf(stderr, "\ntrain: %d threads from step %lld (the cores other processes leave free)\n", *threads,
                     static_cast<long long>(step + 1));
    }
    const bool stop_now = stop_after_this_step(run);
    if (run.main && ((run.recipe.checkpoint_every > 0 && run.global_step % run.recipe.checkpoint_every == 0) || stop_now))
      run.last_checkpoint = save_checkpoint(run, s, stage, *loop.optimizer, step + 1);
    if (stop_now) {
      bar.finish();
      run.dist->barrier();  // no rank returns before the checkpoint is on disk
      return std::nullopt;
    }
  }
  bar.finish();
  if (run.main) save_checkpoint(run, s, stage, *loop.optimizer, schedule.total_steps);
  sr.steps = schedule.total_steps;
  sr.seconds = std::chrono::duration<double>(Clock::now() - stage_start).count();
  return sr;
}

// The short held-out evaluation after a stage (best of eval.samples, grammar (and computed notes) and repair),
// on the datasets the stage trains: a dataset it leaves out (weight 0, as in a curriculum's first
// stage) would only give the figures of a model that has not seen it, at its whole cost.
PolicyEval evaluate_stage(Run& run, const StageSpec& stage) {
  const auto& weights = stage_weights(run, stage);
  ExampleSet trained;  // run.eval_set less the datasets left out
  trained.dataset_names = run.eval_set.dataset_names;
  for (const auto& example : run.eval_set.examples)
    if (weights.empty() || weights.at(static_cast<std::size_t>(example.dataset)) > 0) trained.examples.push_back(example);
  if (trained.examples.empty()) return {};  // the trained datasets have no held-out instance
  PolicyEvalOptions eo;
  eo.samples = run.recipe.eval.samples;
  eo.greedy = run.recipe.eval.samples == 1;
  eo.temperature = run.recipe.eval.temperature;
  eo.seed = mix(run.recipe.seed, 9999);
  decoding::GrammarOptions mask_options;
  mask_options.computed_notes = run.recipe.eval.computed_notes;
  auto e = evaluate_policy(run.model, *run.tokenizer, trained, eo,
                           policy::make_mask_factory(*run.tokenizer, true, mask_options), run.progress, run.share);
  if (run.main) run.metrics->write({{"stage", stage.name}, {"eval", eval_json(e)}});
  return e;
}

// final/ (Hugging Face layout) and summary.json, by rank 0.
void write_outputs(Run& run, const TrainResult& result) {
  write_final(result.final_dir, run.model, run.model_config, run.tokenizer_path, run.recipe.text_style);
  json summary = json::array();
  for (const auto& sr : result.stages)
    summary.push_back({{"stage", sr.name}, {"type", to_string(sr.kind)}, {"steps", sr.steps}, {"seconds", sr.seconds},
                       {"last_loss", sr.last_loss}, {"skipped_groups", sr.skipped_groups},
                       {"eval", eval_json(sr.eval)}});
  std::ofstream(run.recipe.output_dir + "/summary.json") << summary.dump(2) << "\n";
}

}  // namespace

TrainResult run_training(Config& config, const TrainOptions& options) {
  Run run;
  TrainingConfig read = read_training_config(config);
  run.recipe = std::move(read.recipe);
  run.model_config = read.model;
  run.options = options;
  const auto& recipe = run.recipe;
  if (!recipe.init_from.empty() && !recipe.init_other_text_style) check_init_text_style(recipe);
  // Data parallel: the ranks come from the environment (falcon_train --nproc, torchrun, Slurm).
  // Every rank runs everything below on its slice of each batch; one process is rank 0 of 1 and
  // makes no collective calls.
  const auto env = distributed::distributed_env_from_process();
  const torch::Device device = rank_device(recipe.device, env);
  const int threads = rank_threads(recipe.threads, env);
  const auto runtime = init_torch_runtime(threads);
  run.threads.emplace(/*enabled=*/threads <= 0);
  distributed::DistributedContext dist(env, distributed_options(recipe.distributed, device));
  run.dist = &dist;
  run.share = batch_share(dist);
  run.main = dist.is_main();
  run.progress = options.progress && run.main;
  run.checkpoints = recipe.output_dir + "/checkpoints";
  claim_output_dir(recipe.output_dir, options.resume, options.overwrite, run.main);

  load_data(run);
  if (run.progress) {
    const std::string ranks = dist.distributed() ? " per rank, " + std::to_string(dist.world_size()) + " ranks (" +
                                                       dist.backend_name() + ")"
                                                 : "";
    std::fprintf(stderr, "train: %zu examples (%lld prompts over data.max_prompt_tokens), vocabulary %d, "
                 "%.2fM parameters, torch %s, %d threads, %s%s\n",
                 run.train_set.examples.size(), static_cast<long long>(run.train_set.skipped_too_long),
                 run.tokenizer->vocab_size(), run.model_config.parameter_count() / 1e6, runtime.torch_version.c_str(),
                 runtime.intra_op_threads, runtime.allocator.c_str(), ranks.c_str());
  }
  find_resume_point(run);
  create_model(run, device);
  run.config_yaml = config.to_yaml();  // what checkpoints store and --resume compares
  if (run.main) run.metrics.emplace(recipe.output_dir + "/metrics.jsonl", /*append=*/!run.resume_dir.empty());

  TrainResult result;
  result.rank = dist.rank();
  result.world_size = dist.world_size();
  for (int s = 0; s < static_cast<int>(recipe.stages.size()); ++s) {
    if (s == recipe.start_stage && !recipe.init_from.empty() && run.resume_dir.empty()) {
      // The shape of the stages before start_stage was replayed; their trained weights come from init.
      load_init_weights(recipe.init_from, *run.model);
      if (run.progress) std::fprintf(stderr, "train: weights from %s, starting at stage %d\n", recipe.init_from.c_str(), s);
    }
    prepare_model(run.model, recipe.stages[s], s, recipe.seed);
    if (s < run.resume_stage) continue;  // done before the checkpoint; its shape is replayed above
    auto sr = train_stage(run, s);
    if (!sr) {
      result.stopped_early = true;
      result.last_checkpoint = run.last_checkpoint;
      return result;
    }
    if (!run.eval_set.examples.empty()) sr->eval = evaluate_stage(run, recipe.stages[s]);
    result.stages.push_back(*sr);
  }
  result.final_dir = recipe.output_dir + "/final";
  if (run.main) write_outputs(run, result);
  dist.barrier();  // every rank returns with the final model on disk
  return result;
}

}  // namespace falcon::train
