#pragma once
// falcon_eval's configuration: one YAML file (docs/evaluation.md lists every key), read
// strictly. Unknown keys, wrong types, impossible values and missing files are ONE falcon::Error
// naming the key path and what to do.
//
//   model:  {path: runs/bopo_tsp/final}       # or {checkpoint: DIR, tokenizer: FILE}
//   data:   {dataset: data/tsp.h5, split: test, limit: 100}
//   method: {type: adaptive, n_min: 8, n_max: 64, tau: 0.85, temperature: 0.7}
//   # or rows: [{type: greedy}, {type: fixed, n: 8}, {type: solver:nearest_neighbor}, ...]
//   output_dir: runs/eval_tsp
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "falcon/core/config.h"
#include "falcon/scoring/adaptive.h"
#include "falcon/scoring/matching.h"

namespace falcon::scoring {

struct ModelSpec {
  std::string path;        // a Hugging Face directory (falcon_train's final/): config.json + weights
  std::string checkpoint;  // or a falcon_train checkpoint (a step_N directory or a checkpoints root)
  std::string tokenizer;   // tokenizer.model; default <path>/tokenizer.model (required with checkpoint)
  std::string adapter;     // optional PEFT adapter directory loaded on top of `path`
  bool given() const { return !path.empty() || !checkpoint.empty(); }
};

struct DataSpec {
  std::string dataset;               // a falcon_datagen .h5 file (labels are the references) ...
  std::string split = "test";
  std::vector<std::string> files;    // ... or benchmark files / directories of them
  std::string problem;               // the files' problem (tsp, cvrp, ...); a dataset names its own
  std::map<std::string, double> optima;  // instance name -> known optimum (files only)
  std::int64_t limit = 0;            // first `limit` instances; 0 = all
  int max_new_tokens = 0;            // 0 = sized from the instance (policy::output_budget)
  bool skip_over_context = false;    // over_context: skip; instances too long for the model are left out
};

enum class MethodKind { kGreedy, kFixed, kAdaptive, kSolver };
std::string to_string(MethodKind kind);

struct RowSpec {
  std::string name;             // the table's row label; default from the type
  MethodKind kind = MethodKind::kAdaptive;
  // fixed: n samples; adaptive: Algorithm 2's rule.
  int n = 8;
  AdaptiveRule rule;
  // Samples per generate() call. fixed: 0 = all n at once. adaptive: the first call draws
  // n_min, later ones round_size (the rule is still applied after every sample).
  int round_size = 0;
  double temperature = 0.7;     // the paper's T
  int top_k = 0;
  double top_p = 1.0;
  bool grammar = true;
  bool repair = true;
  bool semantic_mask = false;
  bool computed_notes = false;  // the decoder writes an echo text's notes (decoding/computed_notes.h)
  bool computed_notes_auto = false;  // computed_notes: auto, settled by settle_auto_notes once the model is known
  // With computed notes, each pick one the last note lists (decoding/computed_notes.h): for a
  // text whose notes are the next pick's choices (compact_ranked).
  bool note_picks = false;
  Match match = Match::kSolution;
  // fixed / adaptive: the greedy decode joins the candidates; the row delivers it where it beats
  // the best sample (the samples, their count and consistency are the row's as without it).
  bool with_greedy = false;
  // fixed / adaptive: who writes the samples. The model, or with `heuristic` the model-free
  // sampler over the same choices of the model's text (heuristic_sampler.h): rank r of each
  // pick's candidates with probability proportional to q^r.
  bool heuristic_policy = false;
  double q = 0.5;
  // fixed / adaptive, the model's samples: sample k reads the k-th random symmetric copy of the
  // instance (Problem::symmetric_copy; sample 0 the instance itself) and its answer is carried
  // back, so N samples are N views of one instance as POMO's augmentation; temperature 0 then
  // decodes each copy by argmax.
  bool symmetric_copies = false;
  // solver rows
  std::string solver;           // "nearest_neighbor", "reference", ...
  double time_limit_s = 0;      // 0 = the solver's own budget
  // Whether the model writes this row's answers (a heuristic row only reads its text style).
  bool uses_model() const { return kind != MethodKind::kSolver && !heuristic_policy; }
  int budget() const;           // the most samples an instance can draw (1 for greedy, 0 for solvers)
};

// Rows with computed_notes: auto get the notes computed where the model's text writes notes and
// the row can compute them (no semantic mask; with the grammar off too); the others write their own.
void settle_auto_notes(std::vector<RowSpec>& rows, bool model_writes_notes);

// Refuses, before any row runs, a row that the model's text cannot take: computed notes for a text
// without notes, the semantic mask (which reads every digit run as an index) for one with them, or
// note picks for a text whose notes are not the next pick's choices. `text` names the model's text
// for the message, e.g. "op in 'compact_ranked'".
void check_rows_for_text(const std::vector<RowSpec>& rows, bool model_writes_notes, bool notes_are_choices,
                         const std::string& text);

struct PlotSpec {
  std::string file;      // .svg or .png (needs rsvg-convert); "" = no picture
  std::string instance;  // an instance name or its position in the list; "" = the first
  std::string row;       // a row name; "" = the first row
};

struct EvalSpec {
  std::string source;
  ModelSpec model;
  DataSpec data;
  std::vector<RowSpec> rows;
  std::string output_dir;
  std::uint64_t seed = 1;
  int threads = 0;              // intra-op threads, 0 = all cores
  std::string device = "cpu";
  int batch_instances = 8;      // instances decoded together
  double infeasible_gap = 1.0;  // the gap an instance without a feasible solution counts with in gap_all
  PlotSpec plot;
  bool needs_model() const;  // a row uses the model, or a heuristic row needs its text style
};

// Reads every key of falcon_eval's config; the caller runs config.check_unused() afterwards.
EvalSpec read_eval_spec(Config& config);

}  // namespace falcon::scoring
