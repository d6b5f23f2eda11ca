#pragma once
// What an interrupted falcon_eval run already finished, for --resume: the complete lines of its
// <output_dir>/instances.jsonl, after checking that its config.yaml is this run's config.
#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "falcon/scoring/instance_result.h"

namespace falcon::scoring {

struct FinishedResults {
  std::map<std::pair<std::string, std::uint64_t>, InstanceResult> by_row_and_key;  // (row name, instance key)
  std::uintmax_t complete_bytes = 0;  // instances.jsonl's length up to the end of its last complete line
  bool dropped_cut_line = false;      // the last line had no '\n': a write the interruption cut short

  const InstanceResult* find(const std::string& row, std::uint64_t key) const {
    const auto it = by_row_and_key.find({row, key});
    return it == by_row_and_key.end() ? nullptr : &it->second;
  }
};

// Settings a run may change when it resumes: they do not change any instance's result.
inline const char* const kResumeFreeSettings[] = {"threads", "plot"};

// Reads <output_dir>/instances.jsonl; empty when there is none (a resumed run that never wrote a
// line starts from the beginning). `config_yaml` is this run's resolved config (Config::to_yaml);
// <output_dir>/config.yaml must say the same but for kResumeFreeSettings. Throws falcon::Error
// naming the file (and line) and what to do when the config differs or a complete line is not a
// result.
FinishedResults read_finished_results(const std::string& output_dir, const std::string& config_yaml);

}  // namespace falcon::scoring
