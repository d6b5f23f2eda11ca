#include "falcon/eval/run_eval.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>

#include <nlohmann/json.hpp>

#include "falcon/core/atomic_file.h"
#include "falcon/core/error.h"
#include "falcon/core/progress.h"
#include "falcon/core/rng.h"
#include "falcon/core/torch/runtime.h"
#include "falcon/eval/load_policy.h"
#include "falcon/eval/policy_items.h"
#include "falcon/formats/text_style.h"
#include "falcon/policy/best_of_n.h"
#include "falcon/policy/grammar_masks.h"
#include "falcon/scoring/eval_instances.h"
#include "falcon/scoring/finished_results.h"
#include "falcon/scoring/heuristic_sampler.h"
#include "falcon/scoring/solution_picture.h"
#include "falcon/scoring/solver_row.h"

namespace falcon::eval {

using namespace scoring;  // the run is written in the terms of what it scores

namespace {

namespace fs = std::filesystem;

std::string method_name(const RowSpec& row) {
  if (row.kind == MethodKind::kSolver) return "solver:" + row.solver;
  return (row.heuristic_policy ? "heuristic:" : "") + to_string(row.kind);
}

// Running figures for the progress line.
std::string status(const std::vector<InstanceResult>& done) {
  if (done.empty()) return "";
  double feasible = 0, gap = 0, samples = 0;
  int gaps = 0;
  for (const auto& r : done) {
    feasible += r.feasible;
    samples += r.samples;
    if (r.gap) gap += *r.gap, ++gaps;
  }
  char buf[160];
  std::snprintf(buf, sizeof buf, "feasible %.0f%%  gap(feasible) %.2f%%  samples %.1f", 100 * feasible / done.size(),
                gaps > 0 ? 100 * gap / gaps : 0.0, samples / done.size());
  return buf;
}

nlohmann::ordered_json row_settings(const RowSpec& row) {
  nlohmann::ordered_json j{{"method", method_name(row)}};
  if (row.kind == MethodKind::kSolver) {
    j["time_limit_s"] = row.time_limit_s;
    return j;
  }
  if (row.kind == MethodKind::kFixed) j["n"] = row.n;
  if (row.kind == MethodKind::kAdaptive)
    j.update({{"n_min", row.rule.n_min}, {"n_max", row.rule.n_max}, {"tau", row.rule.tau},
              {"alpha0", row.rule.alpha0}, {"beta0", row.rule.beta0}});
  if (row.kind == MethodKind::kAdaptive && row.rule.patience > 0) j["patience"] = row.rule.patience;
  if (row.heuristic_policy) {
    j.update({{"policy", "heuristic"}, {"q", row.q}, {"match", to_string(row.match)}, {"round_size", row.round_size}});
  } else if (row.kind != MethodKind::kGreedy) {
    j.update({{"temperature", row.temperature}, {"top_k", row.top_k}, {"top_p", row.top_p},
              {"match", to_string(row.match)}, {"round_size", row.round_size}});
    if (row.with_greedy) j["with_greedy"] = true;
    if (row.symmetric_copies) j["symmetric_copies"] = true;
  }
  j.update({{"grammar", row.grammar}, {"repair", row.repair}, {"semantic_mask", row.semantic_mask},
             {"computed_notes", row.computed_notes}});
  if (row.note_picks) j["note_picks"] = true;
  return j;
}

const EvalInstance& find_plot_instance(const std::vector<EvalInstance>& instances, const std::string& which) {
  if (which.empty()) return instances.front();
  for (const auto& e : instances)
    if (e.name == which) return e;
  char* end = nullptr;
  const long index = std::strtol(which.c_str(), &end, 10);
  if (*end == '\0' && index >= 0 && index < static_cast<long>(instances.size())) return instances[index];
  throw Error("plot.instance: '" + which + "' is neither an instance name nor a position below " +
              std::to_string(instances.size()));
}

EvalSpec read_checked(Config& config) {
  auto spec = read_eval_spec(config);
  config.check_unused();
  return spec;
}


// The model side of a run: the loaded policy and each instance's rollout item; instances that do
// not fit the model's positions are left out of `instances` (data.over_context=skip).
struct ModelSide {
  std::optional<Policy> policy;
  std::vector<policy::RolloutItem> items;
  std::vector<OverContext> over_context;
  int max_positions = 0;
};

ModelSide load_model_side(EvalSpec& spec, std::vector<EvalInstance>& instances, const TorchRuntimeInfo& runtime,
                          bool progress) {
  ModelSide side;
  auto& policy = side.policy.emplace(load_policy(spec.model, torch::Device(spec.device)));
  // Notes follow this problem's own text (a model of several problems writes each its own way).
  const std::string problem(instances.front().problem->name());
  const formats::TextStyle own = policy.style.for_problem(problem);
  const bool notes = formats::writes_notes(own);
  settle_auto_notes(spec.rows, notes);
  check_rows_for_text(spec.rows, notes, formats::notes_are_choices(own), problem + " in '" + formats::describe(own) + "'");
  for (const auto& row : spec.rows)
    if (row.heuristic_policy) check_heuristic_sampler(problem, policy.style);
  // The model reads and writes its own text style: prompts, grammar and parsing follow it.
  for (auto& e : instances) e.problem = &formats::with_text_style(*e.problem, policy.style);
  side.max_positions = static_cast<int>(policy.model->config().max_position_embeddings);
  auto fitted = policy_items(instances, policy.tokenizer, spec.data.max_new_tokens, side.max_positions,
                             spec.data.skip_over_context);
  side.items = std::move(fitted.items);
  side.over_context = std::move(fitted.over_context);
  if (!side.over_context.empty()) {  // every row, solver rows too, runs on the same instances
    std::fprintf(stderr, "eval: %zu of %zu instances do not fit the model's %d positions (prompt + solution); left "
                         "out (data.over_context=skip; listed in summary.json)\n",
                 side.over_context.size(), instances.size(), side.max_positions);
    std::vector<EvalInstance> kept;
    for (const std::size_t i : fitted.kept) kept.push_back(std::move(instances[i]));
    instances = std::move(kept);
  }
  // With over_context=skip a point where nothing fits still ends, with empty rows and every
  // instance listed, so a sweep's table says "over context" rather than "failed".
  if (instances.empty()) std::fprintf(stderr, "eval: no instance fits; every row is empty and summary.json lists them all\n");
  if (progress)
    std::fprintf(stderr, "eval: %zu instances, model %s (%.2fM parameters), torch %s, %d threads\n", instances.size(),
                 policy.description.c_str(), policy.model->config().parameter_count() / 1e6,
                 runtime.torch_version.c_str(), runtime.intra_op_threads);
  return side;
}

// One row over every instance: the results an interrupted run kept, then the rest, each line
// written to `jsonl` as it is made (a batch at a time for model rows).
std::vector<InstanceResult> evaluate_row(const RowSpec& row, const EvalSpec& spec, const std::vector<EvalInstance>& instances,
                                         const ModelSide& side, const FinishedResults& finished, std::ostream& jsonl,
                                         bool progress) {
  std::vector<InstanceResult> results;
  std::vector<std::size_t> todo;  // indices into instances (and items) this process evaluates
  for (std::size_t i = 0; i < instances.size(); ++i) {
    if (const InstanceResult* kept = finished.find(row.name, instances[i].key)) results.push_back(*kept);
    else todo.push_back(i);
  }
  Progress bar(row.name, static_cast<long>(instances.size()), progress);
  bar.resume_at(static_cast<long>(results.size()));
  auto record = [&](InstanceResult r) {
    jsonl << to_json(r).dump() << "\n";
    results.push_back(std::move(r));
  };
  if (row.kind == MethodKind::kSolver || row.heuristic_policy) {
    for (const std::size_t i : todo) {
      const auto& e = instances[i];
      record(row.heuristic_policy ? run_heuristic_sampler_row(row, e, side.policy->style, spec.seed)
                                  : run_solver_row(row, e, Rng::for_item(spec.seed, e.key).next_u64()));
      jsonl.flush();
      bar.set_status(status(results));
      bar.advance();
    }
  } else if (!todo.empty()) {
    const Policy& policy = *side.policy;
    model::CausalLm model = policy.model;  // a module holder: the same weights, callable
    decoding::GrammarOptions mask_options;
    mask_options.semantic = row.semantic_mask;
    mask_options.computed_notes = row.computed_notes;
    mask_options.note_picks = row.note_picks;
    const auto masks = policy::make_mask_factory(policy.tokenizer, row.grammar, mask_options);
    for (std::size_t begin = 0; begin < todo.size(); begin += spec.batch_instances) {
      const std::size_t end = std::min(todo.size(), begin + spec.batch_instances);
      std::vector<const EvalInstance*> batch;
      std::vector<policy::RolloutItem> batch_items;
      for (std::size_t t = begin; t < end; ++t) batch.push_back(&instances[todo[t]]), batch_items.push_back(side.items[todo[t]]);
      for (auto& r : policy::best_of_n(model, policy.tokenizer, batch, batch_items, row, masks, spec.seed))
        record(std::move(r));
      jsonl.flush();  // a batch at a time: what an interruption leaves, --resume keeps
      bar.set_status(status(results));
      bar.advance(static_cast<long>(end - begin));
    }
  }
  bar.finish();
  return results;
}

// The printed table: the rows, each model row against each row without a model (repair alone,
// the heuristics) instance by instance, and the instances left out.
void tabulate(const EvalSpec& spec, const std::vector<std::vector<InstanceResult>>& all_results, const ModelSide& side,
              EvalReport& report) {
  report.table = summary_table(report.rows);
  for (std::size_t i = 0; i < spec.rows.size(); ++i)
    for (std::size_t j = 0; j < spec.rows.size(); ++j)
      if (spec.rows[i].uses_model() && !spec.rows[j].uses_model())
        report.paired.push_back(compare_rows(spec.rows[i].name, all_results[i], spec.rows[j].name, all_results[j],
                                             spec.infeasible_gap));
  if (!report.paired.empty())
    report.table += "\nInstance by instance (gaps; an infeasible one counts as infeasible_gap):\n\n" +
                    paired_table(report.paired);
  const auto& over_context = side.over_context;
  if (!over_context.empty())
    report.table += "\n" + std::to_string(over_context.size()) +
                    (over_context.size() == 1 ? " more instance was" : " more instances were") +
                    " left out: prompt + solution do not fit the model's " + std::to_string(side.max_positions) +
                    " positions (data.over_context=skip; summary.json lists them).\n";
}

nlohmann::ordered_json summary_json(const EvalSpec& spec, std::size_t instances, const ModelSide& side,
                                    const EvalReport& report) {
  nlohmann::ordered_json summary;
  summary["config"] = spec.source;
  summary["data"] = spec.data.dataset.empty() ? nlohmann::ordered_json(spec.data.files)
                                              : nlohmann::ordered_json(spec.data.dataset + ":" + spec.data.split);
  summary["instances"] = instances;
  if (side.policy) summary["model"] = side.policy->description;
  if (side.policy) summary["text_style"] = formats::describe(side.policy->style);
  if (!side.over_context.empty()) {
    summary["max_positions"] = side.max_positions;
    summary["over_context"] = nlohmann::ordered_json::array();
    for (const auto& o : side.over_context)
      summary["over_context"].push_back({{"instance", o.instance}, {"n", o.n}, {"prompt_tokens", o.prompt_tokens},
                                         {"solution_tokens", o.solution_tokens}});
  }
  summary["seed"] = spec.seed;
  summary["gap_definition"] =
      "gap = (f - f*)/|f*| (minimise) or (f* - f)/|f*| (maximise), not clipped at zero; gap_all averages over every "
      "instance with a reference, an instance without a feasible solution counting as infeasible_gap; gap_feasible "
      "averages over the feasible ones only";
  summary["rows"] = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < spec.rows.size(); ++i) {
    auto j = to_json(report.rows[i]);
    j["settings"] = row_settings(spec.rows[i]);
    summary["rows"].push_back(j);
  }
  summary["paired"] = nlohmann::ordered_json::array();
  for (const auto& c : report.paired) summary["paired"].push_back(to_json(c));
  return summary;
}

// The delivered solution of plot.instance in plot.row (default: the first of each).
void draw_plot(const std::string& plot_file, const EvalSpec& spec, const std::vector<EvalInstance>& instances,
               const std::vector<std::vector<InstanceResult>>& all_results) {
  std::size_t row_index = 0;
  while (!spec.plot.row.empty() && spec.rows[row_index].name != spec.plot.row) ++row_index;
  const EvalInstance& e = find_plot_instance(instances, spec.plot.instance);
  const auto& results = all_results[row_index];
  const auto it = std::find_if(results.begin(), results.end(), [&](const InstanceResult& r) { return r.key == e.key; });
  write_solution_picture(plot_file, e, *it);
}

}  // namespace

std::string resolved_eval_config(Config& config) {
  read_checked(config);
  return config.to_yaml();
}

EvalReport run_eval(Config& config, const EvalOptions& options) {
  EvalSpec spec = read_checked(config);
  const std::string plot_file = options.plot_file.empty() ? spec.plot.file : options.plot_file;
  if (!plot_file.empty()) check_picture_file(plot_file, options.plot_file.empty() ? "plot.file" : "--plot");
  auto instances = load_eval_instances(spec.data);
  const auto runtime = init_torch_runtime(spec.threads);
  // Read before anything is written: a refused resume leaves the interrupted run's files as they were.
  const FinishedResults finished = options.resume ? read_finished_results(spec.output_dir, config.to_yaml())
                                                  : FinishedResults{};
  fs::create_directories(spec.output_dir);
  config.write(spec.output_dir + "/config.yaml");
  const ModelSide side = spec.needs_model() ? load_model_side(spec, instances, runtime, options.progress) : ModelSide{};

  const std::string jsonl_path = spec.output_dir + "/instances.jsonl";
  if (!finished.by_row_and_key.empty()) {
    fs::resize_file(jsonl_path, finished.complete_bytes);  // without the line the interruption cut
    if (options.progress)
      std::fprintf(stderr, "eval: resuming: %zu results kept from %s%s\n", finished.by_row_and_key.size(),
                   jsonl_path.c_str(), finished.dropped_cut_line ? " (its cut last line dropped)" : "");
  }
  std::ofstream jsonl(jsonl_path, finished.by_row_and_key.empty() ? std::ios::trunc : std::ios::app);
  if (!jsonl) throw Error(jsonl_path + ": cannot write (output_dir)");
  EvalReport report;
  report.output_dir = spec.output_dir;
  std::vector<std::vector<InstanceResult>> all_results;
  for (const auto& row : spec.rows) {
    auto results = evaluate_row(row, spec, instances, side, finished, jsonl, options.progress);
    report.rows.push_back(summarize(row.name, method_name(row), results, spec.infeasible_gap));
    all_results.push_back(std::move(results));
  }
  if (!jsonl) throw Error(jsonl_path + ": write failed (disk full?)");

  tabulate(spec, all_results, side, report);
  write_file_atomic(spec.output_dir + "/summary.json", summary_json(spec, instances.size(), side, report).dump(2) + "\n");
  write_file_atomic(spec.output_dir + "/summary.md", report.table);
  if (!plot_file.empty() && instances.empty()) {
    std::fprintf(stderr, "eval: no picture (%s): no instance was evaluated\n", plot_file.c_str());
  } else if (!plot_file.empty()) {
    draw_plot(plot_file, spec, instances, all_results);
    report.plot_file = plot_file;
  }
  return report;
}

}  // namespace falcon::eval
