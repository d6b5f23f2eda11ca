// HDF5 dataset files: a file the reader opens must read back record by record or be refused with
// falcon::Error (verify() rebuilds every instance and checks every label).
//
// DatasetReader::open first reads the file in a forked child, because HDF5 can crash or spin on a
// damaged file. Forking this process (hundreds of MB of sanitizer state) costs more than the read,
// so after dataset_fuzz_start() the same read runs in a child of a small probe server forked at
// start-up, and the file is then opened without open()'s own probe. A file the library breaks on
// in the probe is skipped, after checking (for a crash) that open() refuses it.
// The probe's child is not this process: on a damaged file HDF5 does not always do the same after
// other files, so campaigns run with libFuzzer's -timeout, which would end a run that spins here
// with the input saved.
#include <cstdio>
#include <memory>
#include <string>

#include "falcon/core/crash_probe.h"
#include "falcon/core/error.h"
#include "falcon/data/h5_io.h"
#include "falcon/data/reader.h"
#include "tests/fuzz/input_fuzz_targets.h"

namespace falcon::fuzz {
namespace {

// Far above the read of a fuzzer-sized file (tens of kB: a few milliseconds), and far below open()'s
// own limit: 1 input in 130 to 330 made the library spin in the runs measured, each costing this
// long. Not lower: some inputs take 0.1-0.25 s to crash the library, and at 0.1 s they read as
// spins, which the target skips without checking that open() refuses them.
constexpr double kFuzzProbeLimitS = 0.25;

struct ProbeCounts {
  long inputs = 0, crashed = 0, hung = 0;
  ~ProbeCounts() {
    if (inputs > 0)
      std::fprintf(stderr, "dataset_fuzz: %ld inputs probed; the HDF5 library crashed on %ld and ran past %g s on %ld\n",
                   inputs, crashed, kFuzzProbeLimitS, hung);
  }
};

std::unique_ptr<ProbeServer>& server() {
  static std::unique_ptr<ProbeServer> s;
  return s;
}

ProbeCounts& counts() {
  static ProbeCounts c;
  return c;
}

data::DatasetReader open_through_server(const std::string& path) {
  ++counts().inputs;
  const ProbeOutcome probe = server()->probe(path, kFuzzProbeLimitS);
  if (!probe.failed) return data::DatasetReader::open_unprobed(path);
  if (probe.how.rfind("no end", 0) == 0) {
    ++counts().hung;
    throw Error(path + ": the probe ran past its limit");  // open()'s would wait 10 s to say so
  }
  ++counts().crashed;
  // Must throw: its own probe meets the same crash, or a spin. On a damaged file HDF5 does not
  // always break the same way twice, and open()'s default limit (10 s) spent on each such spin
  // held campaigns to 15-30 executions a second; at the server's limit it is refused as well.
  (void)data::DatasetReader::open(path, "", kFuzzProbeLimitS);
  fuzz_failure("dataset_fuzz", "HDF5 broke on the file in the probe server (" + probe.how +
                                   ") but DatasetReader::open accepted it");
}

}  // namespace

void dataset_fuzz_start() {
  counts();  // constructed before the server, so destroyed after it: the counts print last
  if (server()) return;
  data::h5::quiet();  // the library starts up here once, not in every child of the server
  server() = std::make_unique<ProbeServer>([](const std::string& path) { data::DatasetReader::read_every_record(path); });
}

int dataset_one_input(const std::uint8_t* data, std::size_t size) {
  const std::string path = write_scratch_file("input.h5", data, size);
  try {
    const data::DatasetReader reader = server() ? open_through_server(path) : data::DatasetReader::open(path);
    reader.verify();
    for (const std::string& split : reader.split_names())
      if (reader.size(split) > 0) (void)reader.load(split, reader.size(split) - 1);
  } catch (const Error&) {
    // refused with a message
  } catch (const std::exception& e) {
    fuzz_failure("dataset_fuzz", std::string("not a falcon::Error: ") + e.what());
  }
  return 0;
}

}  // namespace falcon::fuzz
