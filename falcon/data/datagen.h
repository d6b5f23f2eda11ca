#pragma once
// falcon_datagen's work: label every planned instance into the dataset file, resumably.
//
// Crash safety (a run may be killed at any moment):
//   - each finished label is appended to OUTPUT.journal and fsync'd (one fsync per batch);
//   - the journal is consolidated into OUTPUT by writing OUTPUT.tmp and renaming it over OUTPUT,
//     so OUTPUT is always a complete, readable file (docs/dataset_format.md);
//   - a restart reads OUTPUT + journal and labels only the indices found in neither.
// Consolidation rewrites the whole file, so it runs after at least max(checkpoint_every, records
// already in the file) new labels: the file at least doubles each time and rewriting costs O(total).
#include <cstdint>
#include <string>
#include <vector>

#include "falcon/data/datagen_spec.h"

namespace falcon::data {

struct DatagenOptions {
  bool progress = true;  // progress line and summary on stderr
};

struct DatagenResult {
  std::int64_t labelled = 0;  // labels made by this run
  std::int64_t resumed = 0;   // labels found in the file or the journal
  bool complete = false;      // every split holds all its instances
};

DatagenResult run_datagen(const DatagenSpec& spec, const DatagenOptions& options = {});

class DatasetReader;

// The first identity key (anything but output, threads, checkpoint_every and counts) in which the
// config that made `reader`'s file differs from `spec`; empty when they agree.
std::string config_difference(const DatasetReader& reader, const DatagenSpec& spec);

// spec.output exists, is complete, and was made by spec's config with spec's split counts: nothing
// for run_datagen to do. Anything else (missing, partial, grown counts, another config) is for
// run_datagen, which resumes, extends, or refuses naming the key.
bool dataset_current(const DatagenSpec& spec);

// Where the journal of `output` lives.
std::string journal_path_for(const std::string& output);

struct BenchmarkResult {
  std::int64_t instances = 0;
  double seconds = 0;      // generation + labelling, one thread
  double mean_n = 0;
  double per_second_per_core() const { return seconds > 0 ? instances / seconds : 0; }
};

// Generates and labels the first split's instances 0, 1, ... on the calling thread until
// `seconds` have passed (at least one instance). Writes nothing.
BenchmarkResult benchmark_labelling(const DatagenSpec& spec, double seconds);

}  // namespace falcon::data
