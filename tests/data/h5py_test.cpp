// Runs the h5py snippet of docs/dataset_format.md on fresh files of every problem and checks that
// Python reads what the C++ reader reads. Skipped, with a message, when no python3 has h5py
// (Debian: python3-h5py, installed by tools/setup.sh).
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "falcon/data/datagen.h"
#include "falcon/data/reader.h"
#include "falcon/problems/registry.h"
#include "tests/data/test_util.h"

namespace falcon::data {
namespace {

std::string run(const std::string& command) {
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  std::array<char, 4096> buf;
  while (std::fgets(buf.data(), buf.size(), pipe) != nullptr) out += buf.data();
  pclose(pipe);
  return out;
}

// A python3 that can import h5py ("" when none): pyenv shims may hide Debian's.
std::string python_with_h5py() {
  for (const char* candidate : {"python3", "/usr/bin/python3"}) {
    if (std::system((std::string(candidate) + " -c 'import h5py' >/dev/null 2>&1").c_str()) == 0) return candidate;
  }
  return "";
}

// The first ```python block of the document.
std::string python_block(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string doc = ss.str();
  const std::string open = "```python\n";
  const std::size_t begin = doc.find(open);
  if (begin == std::string::npos) return "";
  const std::size_t end = doc.find("```", begin + open.size());
  return doc.substr(begin + open.size(), end - begin - open.size());
}

std::string python_list(const std::vector<std::vector<int>>& lists) {
  std::string out = "[";
  for (std::size_t l = 0; l < lists.size(); ++l) {
    out += l ? ", [" : "[";
    for (std::size_t i = 0; i < lists[l].size(); ++i) out += (i ? ", " : "") + std::to_string(lists[l][i]);
    out += "]";
  }
  return out + "]";
}

// What the snippet prints, computed with the C++ reader.
std::string expected_output(const std::string& path) {
  const DatasetReader reader = DatasetReader::open(path);
  std::string out = std::string(reader.problem().name()) + (reader.complete() ? " complete\n" : " incomplete\n");
  char buf[256];
  for (const auto& split : reader.split_names()) {
    const SplitInfo& info = reader.split_info(split);
    const Record r = reader.read(split, 0);
    std::map<std::string, std::string> fields;
    for (const auto& [k, v] : r.instance.ints) std::snprintf(buf, sizeof buf, "%g", static_cast<double>(v)), fields[k] = buf;
    for (const auto& [k, v] : r.instance.reals) std::snprintf(buf, sizeof buf, "%g", v), fields[k] = buf;
    for (const auto& [k, v] : r.instance.int_arrays) fields[k] = std::to_string(v.size());
    for (const auto& [k, v] : r.instance.real_arrays) fields[k] = std::to_string(v.size());
    std::string field_text;
    for (const auto& [k, v] : fields) field_text += (field_text.empty() ? "" : " ") + k + ":" + v;
    std::snprintf(buf, sizeof buf, "%.6f", r.label.objective);
    out += split + " " + std::to_string(reader.size(split)) + "/" + std::to_string(info.count) + " first: " + r.name +
           " n=" + std::to_string(r.n) + " " + info.buckets[r.bucket].name + " " + info.distributions[r.distribution].name + " " +
           r.label.solver + " objective=" + buf + " " + field_text + " solution=" + python_list(r.label.solution.lists) + "\n";
  }
  return out;
}

TEST(H5py, DocumentedSnippetReadsWhatTheCppReaderReads) {
  const std::string python = python_with_h5py();
  if (python.empty()) GTEST_SKIP() << "no python3 with h5py: install python3-h5py (tools/setup.sh) to run this test";
  const auto dir = testing::scratch_dir();
  const std::string script = (dir / "read_dataset.py").string();
  std::ofstream(script) << python_block(std::string(FALCON_DOCS_DIR) + "/dataset_format.md");
  DatagenOptions quiet;
  quiet.progress = false;
  for (auto name : problems::problem_names()) {
    const std::string p(name);
    const std::string out = (dir / (p + ".h5")).string();
    run_datagen(testing::spec_from_yaml(testing::small_config(p, out, 3, 2)), quiet);
    EXPECT_EQ(run(python + " " + script + " " + out + " 2>&1"), expected_output(out)) << p;
  }
}

}  // namespace
}  // namespace falcon::data
