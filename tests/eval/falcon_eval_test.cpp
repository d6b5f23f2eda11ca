// falcon_eval end to end: a random tiny model (HF layout, the test tokenizer), a 4-instance TSP
// dataset labelled by the reference solver, every method in one config; the JSON lines and the
// summary must agree with each other and with the method's contract. Then config errors.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <utility>

#include <nlohmann/json.hpp>

#include "falcon/core/config.h"
#include "falcon/core/rng.h"
#include "falcon/data/datagen.h"
#include "falcon/data/datagen_spec.h"
#include "falcon/eval/load_policy.h"
#include "falcon/eval/run_eval.h"
#include "falcon/model/hf_checkpoint.h"
#include "falcon/model/config/model_presets.h"
#include "falcon/model/state_dict.h"
#include "falcon/model/transformer.h"
#include "falcon/policy/prompt_text.h"
#include "falcon/scoring/eval_instances.h"
#include "falcon/scoring/text_style_file.h"
#include "falcon/solvers/solver.h"
#include "falcon/text/tokenizer.h"
#include "falcon/train/trainer.h"

namespace falcon::eval {

using namespace scoring;  // the run is written in the terms of what it scores
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

struct ProgramRun {
  int code = 0;
  std::string output;  // stdout + stderr
};

ProgramRun run_eval_program(const std::string& args) {
  ProgramRun run;
  FILE* pipe = ::popen((std::string(FALCON_EVAL_BIN) + " " + args + " 2>&1").c_str(), "r");
  char buf[4096];
  for (std::size_t got; (got = std::fread(buf, 1, sizeof buf, pipe)) > 0;) run.output.append(buf, got);
  const int status = ::pclose(pipe);
  run.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

class FalconEvalTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("falcon_eval_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    // 4 TSP test instances, n in [6, 8], labelled by the reference solver.
    auto data_config = Config::from_file(std::string(FALCON_SOURCE_DIR) + "/configs/data/tsp.yaml");
    data_config.set_overrides({"output=" + (dir_ / "tsp.h5").string(), "splits.train.count=1", "splits.val.count=1",
                               "splits.test.count=4", "sizes={range: [6, 8]}"});
    const auto spec = data::read_datagen_spec(data_config);
    data_config.check_unused();
    data::run_datagen(spec, {/*progress=*/false});
    // A random tiny model in the layout falcon_train writes to final/.
    const std::string tokenizer = std::string(FALCON_FIXTURES_DIR) + "/tokenizer/tiny_bpe.model";
    auto config = model::model_preset("tiny");
    config.vocab_size = text::Tokenizer::load(tokenizer).vocab_size();
    config.hidden_size = 32;
    config.intermediate_size = 64;
    torch::manual_seed(4);
    model::CausalLm lm(config);
    model::HfWriteOptions options;
    options.tokenizer_model = tokenizer;
    model::write_hf_checkpoint((dir_ / "final").string(), config, model::state_dict(*lm), options);
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }

  static std::string write_config(const std::string& name, const std::string& body) {
    const auto path = (dir_ / name).string();
    std::ofstream(path) << body;
    return path;
  }

  static std::string base_config(const std::string& output) {
    return "model: {path: " + (dir_ / "final").string() + "}\ndata: {dataset: " + (dir_ / "tsp.h5").string() +
           ", split: test}\noutput_dir: " + (dir_ / output).string() + "\nseed: 7\n";
  }

  static fs::path dir_;
};

fs::path FalconEvalTest::dir_;

std::vector<json> read_lines(const fs::path& path) {
  std::vector<json> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) out.push_back(json::parse(line));
  return out;
}

TEST_F(FalconEvalTest, EveryMethodWritesConsistentLinesAndSummary) {
  const auto config = write_config("all.yaml", base_config("all") + R"(
rows:
  - {type: greedy}
  - {type: fixed, n: 12, name: fixed12}
  - {type: adaptive, n_min: 4, n_max: 12, tau: 0.85, round_size: 3, name: adaptive}
  - {type: adaptive, n_min: 4, n_max: 12, round_size: 3, top_k: 1, name: sharp}
  - {type: adaptive, n_min: 4, n_max: 8, grammar: false, repair: false, name: raw}
  - {type: solver:nearest_neighbor}
  - {type: solver:reference}
  - {type: "solver:repair_empty"}
)");
  const auto svg = (dir_ / "pic.svg").string();
  const ProgramRun run = run_eval_program(config + " --quiet --plot " + svg);
  std::printf("%s", run.output.c_str());
  ASSERT_EQ(run.code, 0) << run.output;
  EXPECT_NE(run.output.find("gap, all instances (infeasible = 100%)"), std::string::npos);

  const auto lines = read_lines(dir_ / "all" / "instances.jsonl");
  ASSERT_EQ(lines.size(), 8u * 4u);
  std::map<std::string, std::vector<json>> by_row;
  for (const auto& l : lines) by_row[l["row"].get<std::string>()].push_back(l);
  ASSERT_EQ(by_row.size(), 8u);
  for (const auto& [row, rs] : by_row) {
    ASSERT_EQ(rs.size(), 4u) << row;
    for (const auto& r : rs) {
      if (r["feasible"].get<bool>()) {
        ASSERT_FALSE(r["objective"].is_null()) << row;
        const double f = r["objective"], f_star = r["reference"];
        EXPECT_NEAR(r["gap"].get<double>(), (f - f_star) / std::abs(f_star), 1e-12) << row;  // TSP minimises
        EXPECT_GE(r["gap"].get<double>(), -1e-9) << row << ": better than the reference solver's label?";
      } else {
        EXPECT_TRUE(r["objective"].is_null() && r["gap"].is_null()) << row;
      }
      const auto& t = r["seconds"];
      EXPECT_GE(t["total"].get<double>(), t["model"].get<double>() + t["mask"].get<double>() - 1e-9) << row;
    }
  }
  // Model rows keep what the model wrote; solver rows wrote nothing.
  for (const char* row : {"greedy", "fixed12", "adaptive", "sharp"})
    for (const auto& r : by_row[row]) EXPECT_EQ(r["text"].get<std::string>().rfind("Route: [", 0), 0u) << row << ": " << r;
  for (const auto& r : by_row["solver:reference"]) EXPECT_EQ(r["text"], "");
  // Repair on: every delivered solution is feasible. Greedy: one sample.
  for (const char* row : {"greedy", "fixed12", "adaptive"})
    for (const auto& r : by_row[row]) EXPECT_TRUE(r["feasible"].get<bool>()) << row;
  for (const auto& r : by_row["greedy"]) {
    EXPECT_EQ(r["samples"], 1);
    EXPECT_EQ(r["samples_drawn"], 1);
    EXPECT_TRUE(r["consistency"].is_null());
  }
  for (const auto& r : by_row["fixed12"]) {
    EXPECT_EQ(r["samples"], 12);
    EXPECT_EQ(r["samples_drawn"], 12);
    const double c = r["consistency"];
    EXPECT_TRUE(c >= 0 && c <= 1);
  }
  for (std::size_t i = 0; i < 4; ++i) {
    const auto& r = by_row["adaptive"][i];
    const int n = r["samples"], drawn = r["samples_drawn"];
    EXPECT_GE(n, 4);
    EXPECT_LE(n, 12);
    EXPECT_GE(drawn, n);
    EXPECT_LE(drawn, 12);
    EXPECT_LT(drawn - n, 3) << "only the last round (3 samples) may overshoot the stop";
    const std::string stop = r["stop"];
    if (stop == "budget") {
      EXPECT_EQ(n, 12);
      EXPECT_LT(r["confidence"].get<double>(), 0.85);
      // Sample k has the same stream in both rows, so at the budget adaptive = fixed N=12.
      EXPECT_EQ(r["solution"], by_row["fixed12"][i]["solution"]);
    } else {
      EXPECT_EQ(stop, "confidence");
      EXPECT_GE(r["confidence"].get<double>(), 0.85);
    }
  }
  // top_k = 1: every sample is the argmax, one solution repeated: Conf = (1 + n)/(2 + n) first reaches 0.85 at
  // n = 5 (6/7); the second round (3 samples, 5..7) overshoots by 2.
  for (const auto& r : by_row["sharp"]) {
    EXPECT_EQ(r["stop"], "confidence");
    EXPECT_EQ(r["samples"], 5);
    EXPECT_EQ(r["samples_drawn"], 7);
    EXPECT_DOUBLE_EQ(r["confidence"].get<double>(), 6.0 / 7.0);
    EXPECT_DOUBLE_EQ(r["consistency"].get<double>(), 1.0);
  }
  for (const auto& r : by_row["solver:reference"]) EXPECT_NEAR(r["gap"].get<double>(), 0.0, 1e-9);  // the labeller
  // Repair of an empty answer: feasible, all of it repair's work.
  for (const auto& r : by_row["solver:repair_empty"]) {
    EXPECT_TRUE(r["feasible"].get<bool>());
    EXPECT_FALSE(r["feasible_raw"].get<bool>());
    EXPECT_TRUE(r["repaired"].get<bool>());
    EXPECT_DOUBLE_EQ(r["seconds"]["repair"].get<double>(), r["seconds"]["total"].get<double>());
  }

  // The summary agrees with the lines.
  std::ifstream in(dir_ / "all" / "summary.json");
  const json summary = json::parse(in);
  ASSERT_EQ(summary["rows"].size(), 8u);
  for (const auto& s : summary["rows"]) {
    const auto& rs = by_row[s["row"].get<std::string>()];
    double feasible = 0, gap_all = 0, samples = 0, seconds = 0;
    for (const auto& r : rs) {
      feasible += r["feasible"].get<bool>();
      gap_all += r["feasible"].get<bool>() ? r["gap"].get<double>() : 1.0;
      samples += r["samples"].get<int>();
      seconds += r["seconds"]["total"].get<double>();
    }
    EXPECT_NEAR(s["feasible"].get<double>(), feasible / 4, 1e-12) << s["row"];
    EXPECT_NEAR(s["gap_all"].get<double>(), gap_all / 4, 1e-12) << s["row"];
    EXPECT_NEAR(s["samples"].get<double>(), samples / 4, 1e-12) << s["row"];
    EXPECT_NEAR(s["seconds"].get<double>(), seconds / 4, 1e-12) << s["row"];
    EXPECT_EQ(s["instances"], 4);
  }
  // Each model row against each row without a model, instance by instance, from the same lines.
  ASSERT_EQ(summary["paired"].size(), 5u * 3u);
  for (const auto& c : summary["paired"]) {
    const auto& mine = by_row[c["row"].get<std::string>()];
    const auto& theirs = by_row[c["against"].get<std::string>()];
    int wins = 0, ties = 0, losses = 0;
    for (std::size_t i = 0; i < 4; ++i) {
      auto gap = [](const json& r) { return r["feasible"].get<bool>() ? r["gap"].get<double>() : 1.0; };
      const double a = gap(mine[i]), b = gap(theirs[i]);
      if (std::abs(a - b) <= 1e-9) ++ties;
      else if (a < b) ++wins;
      else ++losses;
    }
    EXPECT_EQ(c["wins"], wins) << c;
    EXPECT_EQ(c["ties"], ties) << c;
    EXPECT_EQ(c["losses"], losses) << c;
    EXPECT_EQ(c["instances"], 4);
  }
  EXPECT_NE(run.output.find("| greedy | solver:repair_empty | 4 |"), std::string::npos) << run.output;
  std::ifstream picture(svg);
  std::string head(5, '\0');
  picture.read(head.data(), 5);
  EXPECT_EQ(head, "<svg ");
  EXPECT_TRUE(fs::exists(dir_ / "all" / "config.yaml"));
}

// The model-free sampler over the choices of the model's text (policy: heuristic) runs beside the
// model's rows on the same instances, reads the model's text style, and is a row the model rows are
// compared against; it is refused, before any row runs, for a text it does not know.
TEST_F(FalconEvalTest, TheHeuristicSamplerIsARowOverTheModelsTextWithoutTheModel) {
  const fs::path compact = dir_ / "final_compact";
  fs::remove_all(compact);
  fs::copy(dir_ / "final", compact);
  write_text_style(compact.string(), formats::make_text_style("compact", 4, "<test>"));
  const std::string rows = R"(
rows:
  - {type: greedy, repair: false, name: "model alone"}
  - {type: fixed, n: 6, policy: heuristic, q: 0.3, name: "heuristic sampler"}
  - {type: adaptive, n_min: 4, n_max: 12, round_size: 4, policy: heuristic, q: 0.3, name: "heuristic adaptive"}
  - {type: solver:nearest_neighbor}
)";
  const auto config = write_config("heuristic.yaml", "model: {path: " + compact.string() + "}\ndata: {dataset: " +
                                                         (dir_ / "tsp.h5").string() + "}\noutput_dir: " +
                                                         (dir_ / "heuristic").string() + "\nseed: 7\n" + rows);
  ProgramRun run = run_eval_program(config + " --quiet");
  ASSERT_EQ(run.code, 0) << run.output;
  std::map<std::string, std::vector<json>> by_row;
  for (const auto& l : read_lines(dir_ / "heuristic" / "instances.jsonl")) by_row[l["row"].get<std::string>()].push_back(l);
  for (const auto& r : by_row["heuristic sampler"]) {
    EXPECT_TRUE(r["feasible_raw"].get<bool>()) << r;  // a tour written in the grammar, no repair needed
    EXPECT_EQ(r["samples"], 6);
    EXPECT_DOUBLE_EQ(r["seconds"]["model"].get<double>(), 0.0);  // no forward pass
    EXPECT_EQ(r["text"].get<std::string>().rfind("Route: [#", 0), 0u) << r;  // the compact text
  }
  for (const auto& r : by_row["heuristic adaptive"]) {
    EXPECT_GE(r["samples"].get<int>(), 4);
    EXPECT_LE(r["samples"].get<int>(), 12);
  }
  std::ifstream in(dir_ / "heuristic" / "summary.json");
  const json summary = json::parse(in);
  EXPECT_EQ(summary["rows"][1]["method"], "heuristic:fixed");
  EXPECT_EQ(summary["rows"][1]["settings"]["q"], 0.3);
  // The model row against the two sampler rows and the solver.
  ASSERT_EQ(summary["paired"].size(), 3u);
  EXPECT_EQ(summary["paired"][0]["against"], "heuristic sampler");

  // The paper's text has no candidate lists to sample from: refused, naming the row's key.
  const auto paper = write_config("heuristic_paper.yaml", base_config("heuristic_paper") + rows);
  run = run_eval_program(paper + " --quiet");
  EXPECT_NE(run.code, 0);
  EXPECT_NE(run.output.find("policy: heuristic"), std::string::npos) << run.output;
  EXPECT_FALSE(fs::exists(dir_ / "heuristic_paper" / "instances.jsonl")) << "refused before any row ran";
}

TEST_F(FalconEvalTest, ConfigErrorsNameTheKeyAndTheFix) {
  const auto unknown = write_config("typo.yaml", base_config("typo") + "method: {type: adaptive, tua: 0.9}\n");
  ProgramRun run = run_eval_program(unknown);
  EXPECT_EQ(run.code, 1);
  EXPECT_NE(run.output.find("method.tua"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("tau"), std::string::npos) << "lists the known keys: " << run.output;

  const auto wrong_type = write_config("type.yaml", base_config("type") + "method: {type: adaptive, n_min: eight}\n");
  run = run_eval_program(wrong_type);
  EXPECT_EQ(run.code, 1);
  EXPECT_NE(run.output.find("method.n_min"), std::string::npos) << run.output;

  const auto missing = write_config("missing.yaml", "model: {path: " + (dir_ / "final").string() +
                                                        "}\ndata: {dataset: /nonexistent/tsp.h5}\n"
                                                        "method: {type: greedy}\noutput_dir: " +
                                                        (dir_ / "missing").string() + "\n");
  run = run_eval_program(missing);
  EXPECT_EQ(run.code, 1);
  EXPECT_NE(run.output.find("data.dataset"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("falcon_datagen"), std::string::npos) << "says how to make it: " << run.output;

  run = run_eval_program(unknown + " method.tua=0.9");  // the override path is named too
  EXPECT_EQ(run.code, 1);
  // One line, no stack of messages.
  EXPECT_EQ(std::count(run.output.begin(), run.output.end(), '\n'), 1) << run.output;
}

// with_greedy: the greedy decode joins the samples, so each instance gets the better of the greedy
// row's answer and the same row's best sample without it; the samples themselves are unchanged.
// The semantic mask makes the random model write whole tours of its own, of different lengths (with
// repair doing the work, its short answers all repair to one tour).
TEST_F(FalconEvalTest, WithGreedyDeliversTheBetterOfTheGreedyAnswerAndTheBestSample) {
  const auto config = write_config("with_greedy.yaml", base_config("with_greedy") + R"(
rows:
  - {type: greedy, semantic_mask: true}
  - {type: fixed, n: 1, semantic_mask: true, name: f1}
  - {type: fixed, n: 1, semantic_mask: true, with_greedy: true, name: f1g}
  - {type: adaptive, n_min: 1, n_max: 2, round_size: 1, semantic_mask: true, name: a2}
  - {type: adaptive, n_min: 1, n_max: 2, round_size: 1, semantic_mask: true, with_greedy: true, name: a2g}
)");
  const ProgramRun run = run_eval_program(config + " --quiet");
  ASSERT_EQ(run.code, 0) << run.output;
  std::map<std::string, std::vector<json>> by_row;
  for (const auto& l : read_lines(dir_ / "with_greedy" / "instances.jsonl"))
    by_row[l["row"].get<std::string>()].push_back(l);
  int greedy_delivered = 0;
  for (const auto& [plain, with] : {std::pair<std::string, std::string>{"f1", "f1g"}, {"a2", "a2g"}}) {
    ASSERT_EQ(by_row[with].size(), 4u);
    for (std::size_t i = 0; i < 4; ++i) {
      const auto &g = by_row["greedy"][i], &p = by_row[plain][i], &w = by_row[with][i];
      ASSERT_TRUE(g["feasible"].get<bool>() && p["feasible"].get<bool>() && w["feasible"].get<bool>());  // repair on
      const double best = std::min(g["objective"].get<double>(), p["objective"].get<double>());  // TSP minimises
      EXPECT_DOUBLE_EQ(w["objective"].get<double>(), best) << with << " instance " << i;
      const bool from_greedy = g["objective"].get<double>() < p["objective"].get<double>();
      EXPECT_EQ(w["solution"], from_greedy ? g["solution"] : p["solution"]) << with << " instance " << i;
      greedy_delivered += from_greedy;
      for (const char* key : {"samples", "samples_drawn", "samples_feasible_raw", "consistency"})
        EXPECT_EQ(w[key], p[key]) << with << " instance " << i << ": " << key;
      EXPECT_GT(w["seconds"]["total"].get<double>(), 0.0);
    }
  }
  // Somewhere the argmax tour is the shorter one, or the test shows nothing.
  EXPECT_GT(greedy_delivered, 0);
  std::ifstream in(dir_ / "with_greedy" / "summary.json");
  const json summary = json::parse(in);
  EXPECT_EQ(summary["rows"][2]["settings"]["with_greedy"], true);
  EXPECT_FALSE(summary["rows"][1]["settings"].contains("with_greedy"));

  // A greedy row has no samples to join: the key is refused, named.
  const auto wrong = write_config("greedy_with_greedy.yaml",
                                  base_config("greedy_with_greedy") + "rows:\n  - {type: greedy, with_greedy: true}\n");
  const ProgramRun refused = run_eval_program(wrong);
  EXPECT_EQ(refused.code, 1);
  EXPECT_NE(refused.output.find("rows[0].with_greedy"), std::string::npos) << refused.output;
}

// symmetric_copies: sample k reads the k-th symmetric copy of its instance (sample 0 the instance
// itself) and the answer is carried back, so N = 1 at temperature 0 is the greedy row, and the best
// of 4 copies is a tour of the instance itself, of the length reported, no longer than the greedy
// one (copy 0 is among the 4). The semantic mask makes the random model write tours of its own.
TEST_F(FalconEvalTest, SymmetricCopiesAnswerTheInstanceItself) {
  const auto config = write_config("copies.yaml", base_config("copies") + R"(
rows:
  - {type: greedy, semantic_mask: true}
  - {type: fixed, n: 1, temperature: 0, symmetric_copies: true, semantic_mask: true, name: c1}
  - {type: fixed, n: 4, temperature: 0, symmetric_copies: true, semantic_mask: true, name: c4}
)");
  const ProgramRun run = run_eval_program(config + " --quiet");
  ASSERT_EQ(run.code, 0) << run.output;
  std::map<std::string, std::vector<json>> by_row;
  for (const auto& l : read_lines(dir_ / "copies" / "instances.jsonl")) by_row[l["row"].get<std::string>()].push_back(l);
  DataSpec data;
  data.dataset = (dir_ / "tsp.h5").string();
  const auto instances = load_eval_instances(data);
  ASSERT_EQ(by_row["c4"].size(), instances.size());
  int better = 0;
  for (std::size_t i = 0; i < instances.size(); ++i) {
    const auto &g = by_row["greedy"][i], &c1 = by_row["c1"][i], &c4 = by_row["c4"][i];
    ASSERT_TRUE(g["feasible"].get<bool>() && c1["feasible"].get<bool>() && c4["feasible"].get<bool>());  // repair on
    EXPECT_EQ(c1["solution"], g["solution"]) << "instance " << i;
    EXPECT_DOUBLE_EQ(c1["objective"].get<double>(), g["objective"].get<double>());
    const auto& e = instances[i];
    ASSERT_EQ(c4["instance"], e.name);
    const auto parsed = e.problem->parse(c4["solution"].get<std::string>());
    ASSERT_TRUE(parsed.solution) << c4;
    EXPECT_TRUE(e.problem->feasible(*e.instance, *parsed.solution)) << c4;
    EXPECT_NEAR(e.problem->objective(*e.instance, *parsed.solution), c4["objective"].get<double>(), 1e-9) << c4;
    EXPECT_LE(c4["objective"].get<double>(), g["objective"].get<double>() + 1e-12) << "copy 0 is the greedy decode";
    better += c4["objective"].get<double>() < g["objective"].get<double>() - 1e-12;
  }
  EXPECT_GT(better, 0) << "some copy beats the instance's own greedy tour, or the test shows nothing";
  std::ifstream in(dir_ / "copies" / "summary.json");
  EXPECT_EQ(json::parse(in)["rows"][2]["settings"]["symmetric_copies"], true);

  // Temperature 0 means argmax copies; without copies it is refused, and so are copies without a model.
  for (const std::string row : {"{type: fixed, n: 2, temperature: 0}",
                                "{type: fixed, n: 2, policy: heuristic, symmetric_copies: true}"}) {
    const auto wrong = write_config("copies_wrong.yaml", base_config("copies_wrong") + "rows:\n  - " + row + "\n");
    const ProgramRun refused = run_eval_program(wrong);
    EXPECT_EQ(refused.code, 1) << row;
    EXPECT_NE(refused.output.find("rows[0]."), std::string::npos) << refused.output;
  }
}

std::string file_text(const fs::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A line without its timings, which differ between any two runs.
json without_seconds(json line) {
  line.erase("seconds");
  return line;
}

// An interruption leaves instances.jsonl written up to the last finished batch, maybe with a cut
// line after it. --resume keeps those results, evaluates the rest, and ends with the lines and
// summary an uninterrupted run writes. A resume under another config, or over a damaged line, is
// refused with the place named and the earlier results left as they were.
TEST_F(FalconEvalTest, AnInterruptedRunResumesToTheResultsOfAnUninterruptedOne) {
  const auto config = write_config("resume.yaml", base_config("whole") + R"(
batch_instances: 2
rows:
  - {type: greedy}
  - {type: fixed, n: 3, name: fixed3}
)");
  const fs::path whole = dir_ / "whole", cut = dir_ / "cut";
  ProgramRun run = run_eval_program(config + " --quiet");
  ASSERT_EQ(run.code, 0) << run.output;
  run = run_eval_program(config + " --quiet output_dir=" + cut.string());
  ASSERT_EQ(run.code, 0) << run.output;
  const auto lines = read_lines(whole / "instances.jsonl");
  ASSERT_EQ(lines.size(), 8u);

  // The greedy row and fixed3's first batch finished; the next line was being written.
  std::string kept;
  {
    std::ifstream in(cut / "instances.jsonl");
    std::string line;
    for (int i = 0; i < 6 && std::getline(in, line); ++i) kept += line + "\n";
    std::getline(in, line);
    kept += line.substr(0, line.size() / 2);
  }
  std::ofstream(cut / "instances.jsonl", std::ios::trunc) << kept;
  fs::remove(cut / "summary.json");

  run = run_eval_program(config + " --resume output_dir=" + cut.string() + " seed=8");
  EXPECT_EQ(run.code, 1);
  EXPECT_NE(run.output.find((cut / "config.yaml").string()), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("seed: 7"), std::string::npos) << "names the difference: " << run.output;
  EXPECT_EQ(file_text(cut / "instances.jsonl"), kept) << "a refused resume loses nothing";

  run = run_eval_program(config + " --resume output_dir=" + cut.string());
  ASSERT_EQ(run.code, 0) << run.output;
  EXPECT_NE(run.output.find("resuming: 6 results kept"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("cut last line dropped"), std::string::npos) << run.output;
  const auto resumed = read_lines(cut / "instances.jsonl");
  ASSERT_EQ(resumed.size(), lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) EXPECT_EQ(without_seconds(resumed[i]), without_seconds(lines[i])) << i;
  const json a = json::parse(file_text(whole / "summary.json")), b = json::parse(file_text(cut / "summary.json"));
  for (std::size_t r = 0; r < 2; ++r) {
    for (const char* field : {"feasible", "feasible_raw", "gap_all", "gap_feasible", "samples", "consistency"})
      EXPECT_EQ(b["rows"][r][field], a["rows"][r][field]) << a["rows"][r]["row"] << " " << field;
  }

  // A damaged line in the middle is named, not skipped.
  std::string damaged = file_text(cut / "instances.jsonl");
  damaged.replace(damaged.find('\n') + 1, 1, "[");
  std::ofstream(cut / "instances.jsonl", std::ios::trunc) << damaged;
  run = run_eval_program(config + " --resume output_dir=" + cut.string());
  EXPECT_EQ(run.code, 1);
  EXPECT_NE(run.output.find("instances.jsonl:2: not a JSON line"), std::string::npos) << run.output;
  EXPECT_EQ(file_text(cut / "instances.jsonl"), damaged);

  // Nothing to resume from: the run starts from the beginning.
  run = run_eval_program(config + " --quiet --resume output_dir=" + (dir_ / "fresh").string());
  ASSERT_EQ(run.code, 0) << run.output;
  EXPECT_EQ(read_lines(dir_ / "fresh" / "instances.jsonl").size(), 8u);
}

// A model with fewer positions than some instances need (prompt + solution + EOS): by default
// falcon_eval stops and names the key that skips them; with data.over_context=skip it evaluates
// the rest and lists exactly the ones that do not fit.
TEST_F(FalconEvalTest, InstancesOverTheContextStopTheRunOrAreLeftOut) {
  auto data_config = Config::from_file(std::string(FALCON_SOURCE_DIR) + "/configs/data/tsp.yaml");
  data_config.set_overrides({"output=" + (dir_ / "tsp_sizes.h5").string(), "splits.train.count=1",
                             "splits.val.count=1", "splits.test.count=6", "sizes={range: [5, 16]}"});
  const auto data_spec = data::read_datagen_spec(data_config);
  data_config.check_unused();
  data::run_datagen(data_spec, {/*progress=*/false});

  // The positions each instance needs, counted independently of policy_items: the output budget
  // is sized by the simple heuristic's solution (nearest neighbour for TSP), never by the label.
  const std::string tokenizer_path = std::string(FALCON_FIXTURES_DIR) + "/tokenizer/tiny_bpe.model";
  const auto tokenizer = text::Tokenizer::load(tokenizer_path);
  DataSpec data;
  data.dataset = (dir_ / "tsp_sizes.h5").string();
  std::map<std::string, int> needed;
  std::vector<int> sorted;
  for (const auto& e : load_eval_instances(data)) {
    const int prompt = 1 + static_cast<int>(tokenizer.encode(policy::prompt_text(*e.problem, *e.instance)).size());
    const auto heuristic = solvers::solver_by_name("tsp", "nearest_neighbor").solve(*e.instance, {});
    const int solution = static_cast<int>(tokenizer.encode(e.problem->format(*e.instance, heuristic)).size());
    needed[e.name] = prompt + solution + 1;
    sorted.push_back(needed[e.name]);
  }
  std::sort(sorted.begin(), sorted.end());
  const int positions = sorted[sorted.size() / 2 - 1];  // about half fit
  std::set<std::string> too_long;
  for (const auto& [name, n] : needed)
    if (n > positions) too_long.insert(name);
  ASSERT_FALSE(too_long.empty());
  ASSERT_LT(too_long.size(), needed.size()) << "sizes 5-16 should need different lengths";

  auto config = model::model_preset("tiny");
  config.vocab_size = tokenizer.vocab_size();
  config.hidden_size = 32;
  config.intermediate_size = 64;
  config.max_position_embeddings = positions;
  model::CausalLm lm(config);
  model::HfWriteOptions options;
  options.tokenizer_model = tokenizer_path;
  model::write_hf_checkpoint((dir_ / "short").string(), config, model::state_dict(*lm), options);

  const std::string body = "model: {path: " + (dir_ / "short").string() + "}\ndata: {dataset: " + data.dataset +
                           "}\nrows: [{type: greedy}, {type: solver:nearest_neighbor}]\n";
  ProgramRun run = run_eval_program(write_config("short.yaml", body + "output_dir: " + (dir_ / "short_error").string()));
  EXPECT_EQ(run.code, 1) << run.output;
  EXPECT_NE(run.output.find("data.over_context=skip"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find(std::to_string(too_long.size() - 1) + " more of 6"), std::string::npos) << run.output;

  run = run_eval_program(write_config("skip.yaml", body + "output_dir: " + (dir_ / "short_skip").string()) +
                         " data.over_context=skip --quiet");
  ASSERT_EQ(run.code, 0) << run.output;
  EXPECT_NE(run.output.find("left out"), std::string::npos) << run.output;
  std::ifstream in(dir_ / "short_skip" / "summary.json");
  const json summary = json::parse(in);
  EXPECT_EQ(summary["instances"].get<std::size_t>(), needed.size() - too_long.size());
  EXPECT_EQ(summary["max_positions"], positions);
  std::set<std::string> listed;
  for (const auto& o : summary["over_context"]) {
    listed.insert(o["instance"].get<std::string>());
    EXPECT_EQ(o["prompt_tokens"].get<int>() + o["solution_tokens"].get<int>(), needed[o["instance"]]);
  }
  EXPECT_EQ(listed, too_long);
  const auto lines = read_lines(dir_ / "short_skip" / "instances.jsonl");
  EXPECT_EQ(lines.size(), 2 * (needed.size() - too_long.size())) << "both rows, the fitting instances only";
  for (const auto& l : lines) EXPECT_EQ(too_long.count(l["instance"].get<std::string>()), 0u) << l.dump();

  // A model too short for every instance: with skip the point still ends, rows empty and all six
  // listed, so a sweep's table can say "over context" for it.
  config.max_position_embeddings = sorted.front() - 1;
  model::CausalLm shorter(config);
  model::write_hf_checkpoint((dir_ / "shorter").string(), config, model::state_dict(*shorter), options);
  const std::string none_fit = "model: {path: " + (dir_ / "shorter").string() + "}\ndata: {dataset: " + data.dataset +
                               "}\nrows: [{type: greedy}, {type: solver:nearest_neighbor}]\n";
  run = run_eval_program(write_config("none.yaml", none_fit + "output_dir: " + (dir_ / "none_fit").string()) +
                         " data.over_context=skip --quiet");
  ASSERT_EQ(run.code, 0) << run.output;
  EXPECT_NE(run.output.find("no instance fits"), std::string::npos) << run.output;
  std::ifstream none_in(dir_ / "none_fit" / "summary.json");
  const json none_summary = json::parse(none_in);
  EXPECT_EQ(none_summary["instances"].get<int>(), 0);
  EXPECT_EQ(none_summary["over_context"].size(), needed.size());
  ASSERT_EQ(none_summary["rows"].size(), 2u);
  for (const auto& row : none_summary["rows"]) EXPECT_EQ(row["instances"].get<int>(), 0) << row.dump();
  EXPECT_TRUE(read_lines(dir_ / "none_fit" / "instances.jsonl").empty());
}

// A falcon_train run (SFT, then BOPO on LoRA) evaluated from its final/ directory (adapters merged)
// and from its last checkpoint (adapters rebuilt from the recipe, unmerged): greedy decoding
// delivers the same solutions.
TEST_F(FalconEvalTest, CheckpointAndFinalDirectoryGiveTheSameGreedySolutions) {
  const std::string tokenizer = std::string(FALCON_FIXTURES_DIR) + "/tokenizer/tiny_bpe.model";
  auto recipe = Config::from_string("output_dir: " + (dir_ / "run").string() + R"(
seed: 3
model: {preset: tiny, hidden_size: 32, intermediate_size: 64}
tokenizer: {path: )" + tokenizer + R"(}
data:
  config: )" + std::string(FALCON_SOURCE_DIR) + R"(/configs/data/tsp.yaml
  overrides: [output=)" + (dir_ / "tsp.h5").string() + R"(, splits.train.count=1, splits.val.count=1, splits.test.count=4, "sizes={range: [6, 8]}"]
  train_split: test
stages:
  - {type: sft, steps: 3, batch_size: 4, lr: 0.003}
  - {type: bopo, steps: 2, batch_size: 2, lr: 0.01, lora: {rank: 2}, rollout: {samples_per_instance: 3, repair: true}}
eval: {instances: 0}
)", "<recipe>");
  train::TrainOptions train_options;
  train_options.progress = false;
  train::run_training(recipe, train_options);

  auto evaluate = [&](const std::string& model_section, const std::string& output) {
    auto config = Config::from_string("model: " + model_section + "\ndata: {dataset: " + (dir_ / "tsp.h5").string() +
                                      "}\nmethod: {type: greedy}\noutput_dir: " + (dir_ / output).string() + "\n",
                                      "<eval>");
    run_eval(config, EvalOptions{/*progress=*/false, /*plot_file=*/""});
    std::vector<std::string> solutions;
    for (const auto& line : read_lines(dir_ / output / "instances.jsonl")) solutions.push_back(line["solution"]);
    return solutions;
  };
  const auto from_final = evaluate("{path: " + (dir_ / "run" / "final").string() + "}", "eval_final");
  const auto from_checkpoint = evaluate("{checkpoint: " + (dir_ / "run" / "checkpoints").string() +
                                            ", tokenizer: " + tokenizer + "}",
                                        "eval_checkpoint");
  ASSERT_EQ(from_final.size(), 4u);
  EXPECT_EQ(from_final, from_checkpoint);

  // The same function: logits agree to rounding, and the adapters matter (BOPO changed them).
  ModelSpec final_spec, checkpoint_spec;
  final_spec.path = (dir_ / "run" / "final").string();
  final_spec.tokenizer = final_spec.path + "/tokenizer.model";
  checkpoint_spec.checkpoint = (dir_ / "run" / "checkpoints").string();
  checkpoint_spec.tokenizer = tokenizer;
  auto a = load_policy(final_spec, torch::kCPU);
  auto b = load_policy(checkpoint_spec, torch::kCPU);
  torch::NoGradGuard no_grad;
  const auto ids = torch::randint(0, a.tokenizer.vocab_size(), {2, 24}, torch::kInt64);  // (B, T)
  const auto la = a.model->forward(ids), lb = b.model->forward(ids);                     // (B, T, V)
  b.model->set_adapters_enabled(false);
  const auto base = b.model->forward(ids);                                               // (B, T, V)
  const double same = (la - lb).abs().max().item<double>(), adapters = (lb - base).abs().max().item<double>();
  std::printf("final/ vs checkpoint: max |logit difference| %.3g; adapters' effect %.3g\n", same, adapters);
  EXPECT_LT(same, 1e-4);
  EXPECT_GT(adapters, 100 * same);
}

// The trainer's per-stage evaluation is falcon_eval's fixed-N row, scored by the same summary: a
// falcon_train run's eval line equals falcon_eval on its final/ model with the same instances,
// N, temperature and seed (the trainer's seed is Rng::for_item(recipe seed, 9999)'s first draw).
TEST_F(FalconEvalTest, TheTrainersStageEvaluationIsFalconEvalsFixedRow) {
  const std::string tokenizer = std::string(FALCON_FIXTURES_DIR) + "/tokenizer/tiny_bpe.model";
  auto recipe = Config::from_string("output_dir: " + (dir_ / "stage_eval_run").string() + R"(
seed: 5
model: {preset: tiny, hidden_size: 32, intermediate_size: 64}
tokenizer: {path: )" + tokenizer + R"(}
data:
  config: )" + std::string(FALCON_SOURCE_DIR) + R"(/configs/data/tsp.yaml
  overrides: [output=)" + (dir_ / "stage_eval.h5").string() + R"(, splits.train.count=4, splits.val.count=1, splits.test.count=5, "sizes={range: [14, 16]}"]
stages:
  - {type: sft, steps: 4, batch_size: 4, lr: 0.003}
eval: {instances: 5, samples: 6, temperature: 0.9}
)", "<recipe>");
  train::TrainOptions train_options;
  train_options.progress = false;
  train::run_training(recipe, train_options);
  json stage_eval;
  for (const auto& line : read_lines(dir_ / "stage_eval_run" / "metrics.jsonl"))
    if (line.contains("eval")) stage_eval = line["eval"];
  ASSERT_FALSE(stage_eval.is_null()) << "no eval line in metrics.jsonl";

  const std::uint64_t seed = Rng::for_item(5, 9999).next_u64();
  auto config = Config::from_string("model: {path: " + (dir_ / "stage_eval_run" / "final").string() + "}\n" +
                                        "data: {dataset: " + (dir_ / "stage_eval.h5").string() + ", split: test}\n" +
                                        "method: {type: fixed, n: 6, temperature: 0.9}\nseed: " + std::to_string(seed) +
                                        "\noutput_dir: " + (dir_ / "stage_eval_falcon_eval").string() + "\n",
                                    "<eval>");
  run_eval(config, EvalOptions{/*progress=*/false, /*plot_file=*/""});
  std::ifstream in(dir_ / "stage_eval_falcon_eval" / "summary.json");
  const json row = json::parse(in)["rows"][0];
  std::printf("stage eval: feasible %.3f, samples valid %.3f, gap %.4f | falcon_eval: %.3f, %.3f, %.4f\n",
              stage_eval["feasible"].get<double>(), stage_eval["sample_feasible_raw"].get<double>(),
              stage_eval["gap_all"].get<double>(), row["feasible"].get<double>(),
              row["sample_feasible_raw"].get<double>(), row["gap_all"].get<double>());
  EXPECT_EQ(stage_eval["instances"].get<int>(), row["instances"].get<int>());
  EXPECT_NEAR(stage_eval["feasible"].get<double>(), row["feasible"].get<double>(), 1e-12);
  EXPECT_NEAR(stage_eval["sample_feasible_raw"].get<double>(), row["sample_feasible_raw"].get<double>(), 1e-12);
  EXPECT_NEAR(stage_eval["repaired"].get<double>(), row["repaired"].get<double>(), 1e-12);
  EXPECT_NEAR(stage_eval["gap_all"].get<double>(), row["gap_all"].get<double>(), 1e-9);
  EXPECT_NEAR(stage_eval["mean_gap"].get<double>(), row["gap_feasible"].get<double>(), 1e-9);
}

}  // namespace
}  // namespace falcon::eval
