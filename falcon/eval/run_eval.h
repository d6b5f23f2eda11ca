#pragma once
// falcon_eval's whole run: read the config strictly, load the instances (and the model when a row
// samples from it), evaluate every row over every instance with a progress line, and write
//
//   <output_dir>/instances.jsonl   one line per (row, instance): instance_result.h
//   <output_dir>/summary.json      per row: summary.h's figures, plus what was evaluated, and
//                                  each model row against each solver row instance by instance (paired.h)
//   <output_dir>/summary.md        the table that is also printed
//   <output_dir>/config.yaml       the resolved config (defaults included)
//
// and, with plot.file (or --plot), a picture of one delivered solution (of a resumed instance: without
// repair's marks, which instances.jsonl does not keep).
#include <string>
#include <vector>

#include "falcon/core/config.h"
#include "falcon/scoring/paired.h"
#include "falcon/scoring/summary.h"

namespace falcon::eval {

struct EvalOptions {
  bool progress = true;
  std::string plot_file;  // overrides plot.file when not empty
  // Keep the (row, instance) results an interrupted run of the same config left in output_dir
  // (finished_results.h) and evaluate only the rest. Lines are written a batch at a time, so an
  // interruption costs at most the batch in flight. Sample streams depend on the instance, not the
  // batch, so the resumed rows are the rows an uninterrupted run writes.
  bool resume = false;
};

struct EvalReport {
  std::vector<scoring::RowSummary> rows;
  std::string output_dir;
  std::vector<scoring::PairedComparison> paired;  // each model row against each row without a model
  std::string table;      // summary_table(rows), then paired_table(paired)
  std::string plot_file;  // "" when none was drawn
};

// Throws falcon::Error (config errors name the key path) on anything that stops the run.
EvalReport run_eval(Config& config, const EvalOptions& options);

// The resolved config, every default filled in (for --print-config); checks it like run_eval.
std::string resolved_eval_config(Config& config);

}  // namespace falcon::eval
