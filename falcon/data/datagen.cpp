#include "falcon/data/datagen.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "falcon/core/config.h"
#include "falcon/core/error.h"
#include "falcon/core/progress.h"
#include "falcon/data/journal.h"
#include "falcon/data/labeler.h"
#include "falcon/data/reader.h"
#include "falcon/data/writer.h"
#include "falcon/problems/registry.h"

namespace falcon::data {
namespace {

constexpr std::int64_t kCopyBlock = 1024;  // records read from the old file at a time

Record record_of(const problems::Problem& problem, const DatagenSpec& spec, const SplitInfo& split, const JournalEntry& e) {
  const ItemPlan plan = plan_item(spec.seed, split, e.index);
  const auto instance = generate_item(problem, split, plan);
  Record r;
  r.index = e.index;
  r.seed = plan.seed;
  r.n = instance->size();
  r.distribution = plan.distribution;
  r.bucket = plan.bucket;
  r.name = instance->name;
  r.instance = problem.encode_instance(*instance);
  r.label = e.label;
  return r;
}

// Writes OUTPUT = (records of the current OUTPUT) + `pending` (their instances regenerated), in
// index order per split, through OUTPUT.tmp and a rename. Returns whether every split is complete.
bool consolidate(const DatagenSpec& spec, const problems::Problem& problem, const std::vector<JournalEntry>& pending) {
  std::optional<DatasetReader> old;
  // Unprobed: the file is one run_datagen probed before its workers started, or one this run
  // wrote. A probe forks, and a child forked while the labelling threads run may wait for ever
  // on a lock one of them held (AddressSanitizer's allocator did so in every resumed run).
  if (std::filesystem::exists(spec.output)) old = DatasetReader::open_unprobed(spec.output, spec.problem);
  DatasetWriter writer(spec.output, problem, spec.config_yaml);
  bool complete = true;
  for (const SplitInfo& split : spec.splits) {
    std::vector<const JournalEntry*> fresh;
    for (const auto& e : pending) {
      if (e.split == split.name) fresh.push_back(&e);
    }
    std::sort(fresh.begin(), fresh.end(), [](const JournalEntry* a, const JournalEntry* b) { return a->index < b->index; });
    const std::vector<std::int64_t> none;
    const auto& old_indices = old && old->has_split(split.name) ? old->indices(split.name) : none;
    writer.begin_split(split);
    std::vector<Record> block;  // old records [block_start, block_start + size)
    std::int64_t block_start = 0;
    std::vector<Record> batch;
    std::int64_t below_count = 0;
    std::size_t p = 0, f = 0;
    while (p < old_indices.size() || f < fresh.size()) {
      const bool take_old = f == fresh.size() || (p < old_indices.size() && old_indices[p] <= fresh[f]->index);
      if (take_old) {
        if (f < fresh.size() && old_indices[p] == fresh[f]->index) ++f;  // consolidated before the journal was cleared
        const auto pos = static_cast<std::int64_t>(p);
        if (pos >= block_start + static_cast<std::int64_t>(block.size())) {
          block_start = pos;
          block = old->read(split.name, pos, std::min<std::int64_t>(pos + kCopyBlock, static_cast<std::int64_t>(old_indices.size())));
        }
        batch.push_back(std::move(block[pos - block_start]));
        ++p;
      } else {
        if (f + 1 < fresh.size() && fresh[f + 1]->index == fresh[f]->index) {  // the same label twice: keep one
          ++f;
          continue;
        }
        batch.push_back(record_of(problem, spec, split, *fresh[f]));
        ++f;
      }
      if (batch.back().index < split.count) ++below_count;
      if (static_cast<std::int64_t>(batch.size()) >= kCopyBlock) {
        writer.append(batch);
        batch.clear();
      }
    }
    writer.append(batch);
    writer.end_split();
    complete = complete && below_count == split.count;
  }
  writer.commit(complete);
  return complete;
}

std::string split_summary(const DatasetReader& reader) {
  std::string out;
  for (const auto& name : reader.split_names()) {
    out += (out.empty() ? "" : ", ") + name + " " + std::to_string(reader.size(name)) + "/" +
           std::to_string(reader.split_info(name).count);
  }
  return out;
}

// What earlier runs left: the labels in the file (which must come from this config) and those in
// the journal not yet in the file.
struct Labelled {
  std::map<std::string, std::set<std::int64_t>> done;  // split -> indices
  std::int64_t in_file = 0;
  bool file_current = false;  // the file exists and its counts match the config
  std::vector<JournalEntry> pending;
};

Labelled find_labelled(const DatagenSpec& spec, const Journal& journal) {
  Labelled l;
  if (std::filesystem::exists(spec.output)) {
    const DatasetReader reader = DatasetReader::open(spec.output, spec.problem);
    const std::string diff = config_difference(reader, spec);
    if (!diff.empty()) {
      throw Error(spec.output + ": was made with another config ('" + diff +
                  "' differs): restore that config, choose another output, or delete the file to start over");
    }
    l.file_current = true;
    for (const SplitInfo& split : spec.splits) {
      const auto& indices = reader.indices(split.name);
      l.done[split.name].insert(indices.begin(), indices.end());
      l.in_file += static_cast<std::int64_t>(indices.size());
      l.file_current = l.file_current && reader.split_info(split.name).count == split.count;
    }
  }
  for (const JournalEntry& e : journal.entries()) {
    if (std::none_of(spec.splits.begin(), spec.splits.end(), [&](const SplitInfo& s) { return s.name == e.split; })) {
      throw Error(journal.path() + ": holds a label of split '" + e.split + "', which the config does not have");
    }
    if (l.done[e.split].insert(e.index).second) l.pending.push_back(e);
  }
  return l;
}

// Every (split, index) of the config not yet labelled, in order.
std::vector<LabelTask> remaining_tasks(const DatagenSpec& spec, std::map<std::string, std::set<std::int64_t>>& done) {
  std::vector<LabelTask> tasks;
  for (std::size_t s = 0; s < spec.splits.size(); ++s) {
    const SplitInfo& split = spec.splits[s];
    for (std::int64_t k = 0; k < split.count; ++k) {
      if (!done[split.name].count(k)) tasks.push_back({static_cast<int>(s), plan_item(spec.seed, split, k)});
    }
  }
  return tasks;
}

}  // namespace

std::string journal_path_for(const std::string& output) { return output + ".journal"; }

std::string config_difference(const DatasetReader& reader, const DatagenSpec& spec) {
  const std::string theirs = Config::from_string(reader.config_yaml(), spec.output).to_yaml_without(non_identity_keys());
  return Config::first_difference(theirs, spec.identity_yaml);
}

bool dataset_current(const DatagenSpec& spec) {
  if (!std::filesystem::exists(spec.output)) return false;
  try {
    const DatasetReader reader = DatasetReader::open(spec.output, spec.problem);
    if (!config_difference(reader, spec).empty()) return false;
    for (const SplitInfo& split : spec.splits) {
      if (!reader.has_split(split.name) || reader.split_info(split.name).count != split.count) return false;
    }
    return reader.complete();
  } catch (const Error&) {
    return false;  // a partial or foreign file: run_datagen resumes it or explains
  }
}

DatagenResult run_datagen(const DatagenSpec& spec, const DatagenOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const problems::Problem& problem = problems::problem_by_name(spec.problem);
  const std::filesystem::path out_path(spec.output);
  if (out_path.has_parent_path()) std::filesystem::create_directories(out_path.parent_path());
  // The lock on the journal comes first: nothing else is read or written without it.
  auto journal = Journal::open(journal_path_for(spec.output), spec.identity_yaml);
  std::filesystem::remove(temp_path_for(spec.output));  // left by a run killed while consolidating

  Labelled labelled = find_labelled(spec, *journal);
  std::vector<JournalEntry>& pending = labelled.pending;
  bool& file_current = labelled.file_current;
  const std::int64_t in_file = labelled.in_file;
  const std::vector<LabelTask> tasks = remaining_tasks(spec, labelled.done);
  std::int64_t total = 0;
  for (const SplitInfo& split : spec.splits) total += split.count;
  DatagenResult result;
  result.resumed = in_file + static_cast<std::int64_t>(pending.size());
  const int threads = worker_count(spec.threads, tasks.size());
  if (options.progress) {
    std::fprintf(stderr, "falcon_datagen: %s -> %s: %lld instances in %zu splits, %lld already labelled; labelling %zu with '%s' on %d threads\n",
                 spec.problem.c_str(), spec.output.c_str(), static_cast<long long>(total), spec.splits.size(),
                 static_cast<long long>(result.resumed), tasks.size(), spec.label.method.c_str(), threads);
  }

  std::int64_t consolidated = in_file;
  if (!tasks.empty()) {
    Progress progress("label " + spec.problem, static_cast<long>(tasks.size()), options.progress);
    label_in_parallel(spec, tasks, threads, [&](std::vector<LabelOutcome>& outcomes) {
      std::vector<JournalEntry> entries;
      for (auto& o : outcomes) entries.push_back({spec.splits[o.split].name, o.index, std::move(o.label)});
      journal->append(entries);
      pending.insert(pending.end(), entries.begin(), entries.end());
      result.labelled += static_cast<std::int64_t>(entries.size());
      progress.advance(static_cast<long>(entries.size()));
      if (static_cast<std::int64_t>(pending.size()) >= std::max(spec.checkpoint_every, consolidated)) {
        consolidate(spec, problem, pending);
        consolidated += static_cast<std::int64_t>(pending.size());
        journal->clear();
        pending.clear();
        file_current = true;
      }
    });
    progress.finish();
  }
  if (!pending.empty() || !file_current) {
    result.complete = consolidate(spec, problem, pending);
  } else {
    result.complete = DatasetReader::open(spec.output, spec.problem).complete();
  }
  journal->remove();
  if (options.progress) {
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const DatasetReader reader = DatasetReader::open(spec.output, spec.problem);
    std::fprintf(stderr, "falcon_datagen: wrote %s: %s (%s) in %.1f s\n", spec.output.c_str(), split_summary(reader).c_str(),
                 result.complete ? "complete" : "INCOMPLETE", seconds);
  }
  return result;
}

BenchmarkResult benchmark_labelling(const DatagenSpec& spec, double seconds) {
  const problems::Problem& problem = problems::problem_by_name(spec.problem);
  const solvers::SolverEntry& solver = solvers::solver_by_name(spec.problem, spec.label.method);
  const SplitInfo& split = spec.splits.front();
  BenchmarkResult result;
  const auto start = std::chrono::steady_clock::now();
  double n_sum = 0;
  do {
    const ItemPlan plan = plan_item(spec.seed, split, result.instances);
    const auto instance = generate_item(problem, split, plan);
    label_instance(problem, solver, *instance, plan.solver_seed, spec.label.time_limit_s);
    n_sum += instance->size();
    ++result.instances;
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  } while (result.seconds < seconds);
  result.mean_n = n_sum / static_cast<double>(result.instances);
  return result;
}

}  // namespace falcon::data
