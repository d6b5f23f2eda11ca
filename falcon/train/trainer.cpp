#include "falcon/train/trainer.h"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>

#include <nlohmann/json.hpp>

#include "falcon/core/atomic_file.h"
#include "falcon/core/error.h"
#include "falcon/core/progress.h"
#include "falcon/core/rng.h"
#include "falcon/core/torch/runtime.h"
#include "falcon/eval/text_style_file.h"
#include "falcon/model/adapters.h"
#include "falcon/model/checkpoint.h"
#include "falcon/model/hf_checkpoint.h"
#include "falcon/model/model_presets.h"
#include "falcon/model/number_embedding.h"
#include "falcon/model/state_dict.h"
#include "falcon/train/batch_share.h"
#include "falcon/train/data_parallel.h"
#include "falcon/train/grammar_masks.h"
#include "falcon/train/metrics_log.h"
#include "falcon/train/stage_steps.h"
#include "falcon/train/tokenizer_setup.h"

namespace falcon::train {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using json = nlohmann::json;

std::uint64_t mix(std::uint64_t a, std::uint64_t b) { return Rng::for_item(a, b).next_u64(); }

// Data order: epoch e of stage s visits the examples in a permutation drawn from (seed, s, e).
class EpochOrder {
 public:
  EpochOrder(std::size_t size, std::uint64_t seed) : size_(size), seed_(seed) {}
  std::size_t at(std::int64_t position) {
    const auto epoch = static_cast<std::uint64_t>(position) / size_;
    if (epoch != epoch_ || perm_.empty()) {
      perm_.resize(size_);
      for (std::size_t i = 0; i < size_; ++i) perm_[i] = i;
      Rng rng = Rng::for_item(seed_, epoch);
      rng.shuffle(perm_);
      epoch_ = epoch;
    }
    return perm_[static_cast<std::uint64_t>(position) % size_];
  }

 private:
  std::size_t size_;
  std::uint64_t seed_;
  std::uint64_t epoch_ = ~0ull;
  std::vector<std::size_t> perm_;
};

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

std::int64_t stage_steps(const StageSpec& stage, std::size_t examples) {
  if (stage.steps > 0) return stage.steps;
  const double per_step = static_cast<double>(stage.batch_size) * stage.grad_accum;
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(stage.epochs * examples / per_step)));
}

void write_final(const std::string& dir, model::CausalLm& model, const model::ModelConfig& config,
                 const std::string& tokenizer_path, const problems::TextStyle& style) {
  fs::create_directories(dir);
  const bool adapters = model->lora_config().rank > 0;
  if (adapters) model::save_adapters(dir + "/adapter", model->named_lora_parameters(), model->lora_config());
  // Base weights with the adapters merged, under the HF names only.
  const bool merge = adapters && !model->adapted_layers().front()->merged();
  if (merge) model->merge_adapters();
  model::TensorMap weights;
  for (const auto& [name, tensor] : model::state_dict(*model))
    if (name.find(".lora_") == std::string::npos) weights[name] = tensor.detach().to(torch::kCPU).clone();
  if (merge) model->unmerge_adapters();
  model::write_hf_checkpoint(dir, config, weights);
  fs::copy_file(tokenizer_path, dir + "/tokenizer.model", fs::copy_options::overwrite_existing);
  eval::write_text_style(dir, style);
}

std::string fmt_status(double loss, double lr, double tokens_per_second) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "loss %.4f  lr %.2e  %.0f tok/s", loss, lr, tokens_per_second);
  return buf;
}

json eval_json(const PolicyEval& e) {
  return {{"instances", e.instances},     {"sample_feasible_raw", e.sample_feasible_raw},
          {"feasible", e.feasible},       {"mean_gap", e.mean_gap},
          {"repaired", e.repaired},       {"seconds", e.seconds},
          {"tokens_per_second", e.tokens_per_second}};
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

// Settings that may change between a run and its resumption without changing results.
const std::vector<std::string> kResumeIgnoredPaths = {"checkpoint", "logging", "eval", "threads", "distributed"};

// A model only understands the text it was trained on: a run that starts from another run's
// checkpoint must keep that run's text style.
void check_init_text_style(const Recipe& recipe) {
  const std::string dir = model::find_checkpoint(recipe.init_from);
  if (dir.empty() || !fs::exists(dir + "/config.yaml")) return;  // load_checkpoint names what is missing
  auto stored = Config::from_string(read_file(dir + "/config.yaml"), dir + "/config.yaml");
  const problems::TextStyle trained = read_recipe(stored).text_style;
  if (trained != recipe.text_style)
    throw Error(recipe.source + ": text is '" + problems::describe(recipe.text_style) + "' but init.checkpoint " + dir +
                " was trained on '" + problems::describe(trained) + "'; set text.style / text.candidates to match it");
}

}  // namespace

void print_resolved_recipe(Config& config, std::ostream& out) {
  read_recipe(config);
  model::resolve_model_section(config, "model");
  config.check_unused();
  out << config.to_yaml();
}

TrainResult run_training(Config& config, const TrainOptions& options) {
  Recipe recipe = read_recipe(config);
  auto model_config = model::resolve_model_section(config, "model");
  config.check_unused();
  if (!recipe.init_from.empty()) check_init_text_style(recipe);
  // Data parallel: the ranks come from the environment (falcon_train --nproc, torchrun, Slurm).
  // Every rank runs everything below on its slice of each batch; one process is rank 0 of 1 and
  // makes no collective calls.
  const auto env = distributed::distributed_env_from_process();
  const torch::Device device = rank_device(recipe.device, env);
  const auto runtime = init_torch_runtime(rank_threads(recipe.threads, env));
  distributed::DistributedContext dist(env, distributed_options(recipe.distributed, device));
  const BatchShare share = batch_share(dist);
  const bool main = dist.is_main();  // the only rank that prints and writes files
  const bool progress = options.progress && main;
  const std::string checkpoints = recipe.output_dir + "/checkpoints";

  // Data and tokenizer: rank 0 makes what is missing while the others wait, then all read them.
  std::vector<std::string> dataset_paths;
  std::string tokenizer_path;
  if (main) {
    fs::create_directories(recipe.output_dir);
    // A user who limited `threads` (two runs side by side) gets the same limit for labelling.
    dataset_paths = ensure_datasets(recipe.data, progress, recipe.threads);
    tokenizer_path = ensure_tokenizer(recipe, dataset_paths, options.tokenizer_tool, progress);
  }
  dist.barrier();
  if (!main) {
    dataset_paths = existing_datasets(recipe.data);
    tokenizer_path = existing_tokenizer(recipe);
  }
  std::vector<data::DatasetReader> readers;
  for (const auto& path : dataset_paths) readers.push_back(data::DatasetReader::open(path));
  const auto tokenizer = text::Tokenizer::load(tokenizer_path);
  model_config.vocab_size = tokenizer.vocab_size();
  const auto train_set =
      load_examples(readers, recipe.data.train_split, tokenizer, recipe.data.max_prompt_tokens, 0, recipe.text_style);
  if (recipe.data.augment) check_augmentable(train_set, tokenizer);
  const auto eval_set = recipe.eval.instances > 0
                            ? load_examples(readers, recipe.data.eval_split, tokenizer, recipe.data.max_prompt_tokens,
                                            recipe.eval.instances, recipe.text_style)
                            : ExampleSet{};
  if (progress) {
    const std::string ranks = dist.distributed() ? " per rank, " + std::to_string(dist.world_size()) + " ranks (" +
                                                       dist.backend_name() + ")"
                                                 : "";
    std::fprintf(stderr, "train: %zu examples (%lld prompts over data.max_prompt_tokens), vocabulary %d, "
                 "%.2fM parameters, torch %s, %d threads%s\n",
                 train_set.examples.size(), static_cast<long long>(train_set.skipped_too_long), tokenizer.vocab_size(),
                 model_config.parameter_count() / 1e6, runtime.torch_version.c_str(), runtime.intra_op_threads,
                 ranks.c_str());
  }

  std::string resume_dir;
  const json state = resume_point(checkpoints, options.resume, &resume_dir);
  const int resume_stage = std::max(state.value("stage", 0), recipe.start_stage);
  std::int64_t global_step = state.value("global_step", std::int64_t{0});
  check_same_on_every_rank(dist, {resume_dir.empty() ? -1 : std::int64_t{resume_stage},
                                  state.value("next_step", std::int64_t{0}), global_step},
                           "the checkpoint to resume from (stage, step, global step)");
  if (!resume_dir.empty() && progress) {
    std::fprintf(stderr, "train: resuming from %s (stage %d, step %lld)\n", resume_dir.c_str(), resume_stage,
                 static_cast<long long>(state.value("next_step", std::int64_t{0})));
    const int saved_world = state.value("world_size", 1);
    if (saved_world != dist.world_size())
      std::fprintf(stderr, "train: the checkpoint was written by %d process(es), this run has %d: the same training, "
                   "but not bit-identical to an uninterrupted run (sums over ranks round differently)\n",
                   saved_world, dist.world_size());
  }

  torch::manual_seed(recipe.seed);
  model::CausalLm model(model_config, torch::TensorOptions().device(device));
  if (recipe.number_embedding == "fourier") {
    // Before any checkpoint is loaded, so resumed and init.checkpoint runs overwrite it as they should.
    model::init_number_embeddings(model->model->embed_tokens->weight, model::number_tokens(tokenizer), 0.02);
  }
  model->train();
  std::optional<MetricsLog> metrics;
  if (main) metrics.emplace(recipe.output_dir + "/metrics.jsonl", /*append=*/!resume_dir.empty());
  const auto config_yaml = config.to_yaml();
  TrainResult result;
  result.rank = dist.rank();
  result.world_size = dist.world_size();
  std::int64_t steps_this_process = 0;

  for (int s = 0; s < static_cast<int>(recipe.stages.size()); ++s) {
    const auto& stage = recipe.stages[s];
    if (s == recipe.start_stage && !recipe.init_from.empty() && resume_dir.empty()) {
      // The shape of the stages before start_stage was replayed; their trained weights come from init.
      model::load_checkpoint(recipe.init_from, *model, nullptr);
      if (progress)
        std::fprintf(stderr, "train: weights from %s, starting at stage %d\n", recipe.init_from.c_str(), s);
    }
    prepare_model(model, stage, s, recipe.seed);
    if (s < resume_stage) continue;  // done before the checkpoint; its shape is replayed above
    auto params = trainable(model);
    torch::optim::AdamW optimizer(params, torch::optim::AdamWOptions(stage.lr.peak)
                                              .betas({recipe.adam_beta1, recipe.adam_beta2})
                                              .eps(recipe.adam_eps)
                                              .weight_decay(stage.weight_decay));
    auto schedule = stage.lr;
    schedule.total_steps = stage_steps(stage, train_set.examples.size());
    std::int64_t step = 0;
    if (s == resume_stage && !resume_dir.empty()) {
      model::load_checkpoint(resume_dir, *model, &optimizer, {config_yaml, kResumeIgnoredPaths});
      step = state.value("next_step", std::int64_t{0});
    }
    // Every rank reads the same files and draws the same seeds; rank 0's weights make sure.
    // The optimizer state needs no broadcast: it is loaded from the same checkpoint or empty.
    broadcast_parameters(dist, model);

    StageResult sr;
    sr.name = stage.name;
    sr.kind = stage.kind;
    const auto stage_start = Clock::now();
    EpochOrder order(train_set.examples.size(), mix(recipe.seed, s));
    const auto masks = make_mask_factory(tokenizer, stage.rollout.grammar, stage.rollout.semantic_mask);
    Progress bar(stage.name, static_cast<long>(schedule.total_steps), progress);
    bar.advance(static_cast<long>(step));
    auto save = [&](std::int64_t next_step) {
      model::CheckpointData data;
      data.step = global_step;
      data.config_yaml = config_yaml;
      data.trainer_state = {{"stage", s}, {"stage_name", stage.name}, {"next_step", next_step},
                            {"global_step", global_step}, {"world_size", dist.world_size()}};
      model::save_checkpoint(checkpoints, data, *model, &optimizer, {model::CheckpointWeights::kAll, recipe.keep_last});
    };

    for (; step < schedule.total_steps; ++step) {
      const auto step_start = Clock::now();
      const double lr = schedule.at(step);
      for (auto& group : optimizer.param_groups()) static_cast<torch::optim::AdamWOptions&>(group.options()).lr(lr);
      StepMetrics mine;  // this rank's sums; `total` below is the global batch's
      for (int micro = 0; micro < stage.grad_accum; ++micro) {
        // The global micro-batch is rows first .. first + batch_size of the data order; this
        // rank takes its contiguous slice, with the same seeds as one process would use.
        const std::int64_t first = (step * stage.grad_accum + micro) * stage.batch_size;
        const auto rows = share.slice(stage.batch_size);
        StepMetrics m;
        if (stage.kind == StageKind::kSft) {
          std::vector<Sequence> batch;
          for (auto j = rows.begin; j < rows.end; ++j)
            batch.push_back(sft_sequence(train_set.examples[order.at(first + j)], tokenizer, recipe.data.augment,
                                         mix(mix(recipe.seed, s), static_cast<std::uint64_t>(first + j))));
          m = sft_step(model, batch, tokenizer.pad_id(), 1.0 / stage.grad_accum, share);
        } else {
          std::vector<RolloutItem> items;
          for (auto j = rows.begin; j < rows.end; ++j)
            items.push_back(rollout_item(train_set.examples[order.at(first + j)]));
          RolloutOptions ro;
          ro.samples_per_item = stage.rollout.samples_per_instance;
          ro.sampling = {stage.rollout.temperature, stage.rollout.top_k, stage.rollout.top_p};
          ro.repair = stage.rollout.repair;
          ro.seed = mix(mix(recipe.seed, s), static_cast<std::uint64_t>(step * stage.grad_accum + micro));
          if (stage.rollout.max_new_tokens > 0)
            for (auto& item : items) item.max_new_tokens = stage.rollout.max_new_tokens;
          model->eval();
          auto groups = rollout(model, tokenizer, items, ro, masks);
          model->train();
          const double scale = 1.0 / stage.grad_accum;
          switch (stage.kind) {
            case StageKind::kBopo: m = bopo_step(model, items, groups, stage, tokenizer.pad_id(), scale, share); break;
            case StageKind::kDpo: m = dpo_step(model, items, groups, stage, tokenizer.pad_id(), scale, share); break;
            default: m = grpo_step(model, items, groups, stage, tokenizer.pad_id(), scale, share); break;
          }
        }
        mine += m;
      }
      // Each rank's loss was its part of the global one, so the summed gradient is the global
      // batch's; every rank then clips and steps identically.
      dist.sum_gradients(params);
      const StepMetrics total = global_metrics(mine, share);
      double grad_norm = 0.0;
      if (stage.grad_clip > 0) grad_norm = torch::nn::utils::clip_grad_norm_(params, stage.grad_clip);
      optimizer.step();
      optimizer.zero_grad();
      ++global_step;
      ++steps_this_process;
      const double seconds = std::chrono::duration<double>(Clock::now() - step_start).count();
      sr.last_loss = total.loss / stage.grad_accum;
      sr.skipped_groups += total.skipped_groups;
      sr.tokens += total.tokens;
      bar.set_status(fmt_status(sr.last_loss, lr, total.tokens / std::max(seconds, 1e-9)));
      bar.advance();
      if (main && ((step + 1) % recipe.log_every == 0 || step + 1 == schedule.total_steps)) {
        json line = {{"stage", stage.name}, {"type", to_string(stage.kind)}, {"step", step + 1},
                     {"global_step", global_step}, {"loss", sr.last_loss}, {"lr", lr}, {"grad_norm", grad_norm},
                     {"tokens_per_second", total.tokens / std::max(seconds, 1e-9)}};
        if (stage.kind != StageKind::kSft)
          line.update({{"groups", total.groups}, {"skipped_groups", total.skipped_groups}, {"pairs", total.pairs},
                       {"anchored_on_label", total.anchored_on_label}, {"mean_reward", total.mean_reward()}});
        metrics->write(line);
      }
      const bool stop_now = options.stop_after_steps > 0 && steps_this_process >= options.stop_after_steps;
      if (main && ((recipe.checkpoint_every > 0 && global_step % recipe.checkpoint_every == 0) || stop_now))
        save(step + 1);
      if (stop_now) {
        bar.finish();
        dist.barrier();  // no rank returns before the checkpoint is on disk
        result.stopped_early = true;
        return result;
      }
    }
    bar.finish();
    if (main) save(schedule.total_steps);
    sr.steps = schedule.total_steps;
    sr.seconds = std::chrono::duration<double>(Clock::now() - stage_start).count();
    if (!eval_set.examples.empty()) {
      PolicyEvalOptions eo;
      eo.samples = recipe.eval.samples;
      eo.greedy = recipe.eval.samples == 1;
      eo.temperature = recipe.eval.temperature;
      eo.seed = mix(recipe.seed, 9999);
      sr.eval = evaluate_policy(model, tokenizer, eval_set, eo, make_mask_factory(tokenizer, true, false), progress,
                                share);
      if (main) metrics->write({{"stage", stage.name}, {"eval", eval_json(sr.eval)}});
    }
    result.stages.push_back(sr);
  }

  result.final_dir = recipe.output_dir + "/final";
  if (main) {
    write_final(result.final_dir, model, model_config, tokenizer_path, recipe.text_style);
    json summary = json::array();
    for (const auto& sr : result.stages)
      summary.push_back({{"stage", sr.name}, {"type", to_string(sr.kind)}, {"steps", sr.steps}, {"seconds", sr.seconds},
                         {"last_loss", sr.last_loss}, {"skipped_groups", sr.skipped_groups},
                         {"eval", eval_json(sr.eval)}});
    std::ofstream(recipe.output_dir + "/summary.json") << summary.dump(2) << "\n";
  }
  dist.barrier();  // every rank returns with the final model on disk
  return result;
}

}  // namespace falcon::train
