// falcon_solve: solve instance files or generated instances with any method, or check one
// solution text (parse, score, repair). One JSON line per instance on stdout; `--format table`
// prints a Markdown summary per (problem, method) instead.
//
//   falcon_solve --problem tsp --method nearest_neighbor eil51.tsp
//   falcon_solve --problem cvrp --method all --generate n=20,count=5,seed=1
//   falcon_solve --problem all --method all --generate n=20,count=3 --format table
//   falcon_solve --problem tsp --check "Route: [0, 2, 1], Objective: 3.00" eil51.tsp --plot check.png
//   falcon_solve --problem cvrp --method nearest_neighbor --generate n=30 --plot routes.svg
//   falcon_solve --problem tsp --prompt --generate n=20,count=3
//   falcon_solve --list
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "falcon/core/error.h"
#include "falcon/core/key_values.h"
#include "falcon/core/progress.h"
#include "falcon/problems/registry.h"
#include "falcon/formats/text_style.h"
#include "falcon/scoring/solution_picture.h"
#include "falcon/scoring/solution_svg.h"
#include "falcon/solvers/solver.h"

namespace {

using falcon::Error;
using falcon::problems::Instance;
using falcon::problems::Problem;
using falcon::problems::Solution;
using json = nlohmann::ordered_json;  // keeps the documented field order

struct Options {
  std::string problem;
  std::string method;
  std::uint64_t seed = 1;
  double time_limit = 0;
  std::string generate;
  std::string check;
  bool check_given = false;  // --check "" is an empty answer (a model can give one), not a missing flag
  std::string format = "json";
  bool prompt = false;
  std::string svg_dir;
  std::string plot_file;
  std::vector<std::string> files;
  std::string text_style = "paper";
  int candidates = 0;
};

// Instances to solve: from files, or from `--generate n=..,count=..,seed=..,<problem keys>`.
std::vector<std::shared_ptr<Instance>> load_instances(const Problem& problem, const Options& opt) {
  std::vector<std::shared_ptr<Instance>> out;
  for (const auto& f : opt.files) out.push_back(problem.read_file(f));
  if (!opt.generate.empty()) {
    auto kv = falcon::parse_key_values(opt.generate, "--generate");
    auto take_int = [&](const std::string& key, long fallback) {
      auto it = kv.find(key);
      if (it == kv.end()) return fallback;
      char* end = nullptr;
      const long v = std::strtol(it->second.c_str(), &end, 10);
      if (*end != '\0') throw Error("--generate: " + key + "=" + it->second + " is not an integer");
      kv.erase(it);
      return v;
    };
    falcon::problems::GenerateOptions g;
    g.n = static_cast<int>(take_int("n", 20));
    const long count = take_int("count", 1);
    const long seed = take_int("seed", 1);
    if (auto it = kv.find("distribution"); it != kv.end()) g.distribution = it->second, kv.erase(it);
    g.params = kv;
    for (long k = 0; k < count; ++k) {
      auto inst = problem.generate(g, static_cast<std::uint64_t>(seed + k));
      out.push_back(std::move(inst));
    }
  }
  if (out.empty()) throw Error("no instances: give instance FILEs or --generate n=20,count=5,seed=1");
  return out;
}

json number_or_null(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

std::string picture_title(const Problem& problem, const Instance& inst, const std::string& method, double objective) {
  char title[256];
  std::snprintf(title, sizeof title, "%s  %s  %s  objective %.2f", std::string(problem.name()).c_str(), inst.name.c_str(),
                method.c_str(), objective);
  return title;
}

// --plot FILE: FILE itself when the run draws one solution; else one picture per instance and
// method, FILE with ".<instance>.<method>" before its extension (runs/tour.png ->
// runs/tour.eil51.nearest_neighbor.png), in the same directory that check_picture_file checked.
std::string plot_path(const std::string& file, bool single, const std::string& instance, const std::string& method) {
  if (single) return file;
  std::filesystem::path path(file);
  const std::string extension = path.extension().string();
  std::string tag = "." + instance + "." + method;
  std::replace(tag.begin(), tag.end(), '/', '_');  // a name never makes a subdirectory
  return path.replace_extension().string() + tag + extension;
}

int run_check(const Problem& problem, const Options& opt) {
  const auto instances = load_instances(problem, opt);
  if (instances.size() != 1) throw Error("--check needs exactly one instance (one FILE or --generate count=1)");
  const Instance& inst = *instances.front();
  const auto strict = problem.parse(inst, opt.check);
  const auto lenient = strict.solution ? strict : problem.parse(inst, opt.check, /*lenient=*/true);
  // Unreadable text still gets repaired: from an empty solution, which repair completes.
  Solution before = lenient.solution ? *lenient.solution : Solution{};
  if (!lenient.solution && !problem.text_format().nested) before = Solution::flat({});
  const Solution after = problem.repair(inst, before);
  json j;
  j["instance"] = inst.name;
  j["problem"] = problem.name();
  j["parsed"] = strict.solution.has_value();
  if (!strict.solution) j["parse_error"] = strict.error + " at byte " + std::to_string(strict.error_offset);
  j["feasible_before"] = strict.solution.has_value() && problem.feasible(inst, before);
  j["violation_before"] = problem.violation(inst, before);
  j["objective_before"] = number_or_null(problem.objective(inst, before));
  j["repaired"] = after != before;
  j["feasible"] = problem.feasible(inst, after);
  j["objective"] = number_or_null(problem.objective(inst, after));
  j["solution"] = problem.format(inst, after);
  if (!opt.plot_file.empty()) {
    // The repaired solution, with what repair changed marked against the text's own.
    const std::string title = picture_title(problem, inst, "check", problem.objective(inst, after)) +
                              (after != before ? "  repaired" : "");
    falcon::scoring::write_picture(opt.plot_file, falcon::scoring::render_solution_svg(problem, inst, after, title, &before));
    j["picture"] = opt.plot_file;
  }
  std::cout << j.dump() << std::endl;
  return 0;
}

// The text the model reads (phi), with its length: sequence length is the cost of everything.
int run_prompt(const std::vector<const Problem*>& problems, const Options& opt) {
  for (const Problem* problem : problems) {
    for (const auto& inst : load_instances(*problem, opt)) {
      const std::string text = problem->prompt(*inst);
      json j;
      j["instance"] = inst->name;
      j["problem"] = problem->name();
      j["n"] = inst->size();
      j["chars"] = text.size();
      j["prompt"] = text;
      std::cout << j.dump() << std::endl;
    }
  }
  return 0;
}

// DIR/<instance>.<method>.svg: route map, Gantt chart or graph drawing of the solution.
void write_svg(const std::string& dir, const Problem& problem, const Instance& inst, const Solution& s,
               const std::string& method, double objective) {
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/" + inst.name + "." + method + ".svg";
  std::ofstream out(path);
  out << falcon::scoring::render_solution_svg(problem, inst, s, picture_title(problem, inst, method, objective));
  if (!out) throw Error(path + ": cannot write the picture (is the directory writable?)");
}

struct Summary {
  int count = 0, feasible = 0;
  double objective_sum = 0, seconds_sum = 0;
};

int run_solve(const std::vector<const Problem*>& problems, const Options& opt) {
  std::vector<std::pair<std::string, Summary>> summaries;  // "problem | method", in run order
  for (const Problem* problem : problems) {
    std::vector<const falcon::solvers::SolverEntry*> methods;
    if (opt.method == "all") {
      methods = falcon::solvers::solvers_for(problem->name());
    } else {
      methods.push_back(&falcon::solvers::solver_by_name(problem->name(), opt.method));
    }
    const auto instances = load_instances(*problem, opt);
    const bool single_picture = problems.size() == 1 && instances.size() == 1 && methods.size() == 1;
    falcon::Progress progress("solve " + std::string(problem->name()), static_cast<long>(instances.size() * methods.size()),
                              /*enabled=*/instances.size() * methods.size() > 1);
    for (const auto& inst : instances) {
      for (const auto* method : methods) {
        falcon::solvers::SolveOptions so;
        so.seed = opt.seed;
        so.time_limit_s = opt.time_limit;
        const auto t0 = std::chrono::steady_clock::now();
        const Solution s = method->solve(*inst, so);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const bool feasible = problem->feasible(*inst, s);
        const double objective = problem->objective(*inst, s);
        const std::string key = std::string(problem->name()) + " | " + std::string(method->method);
        auto it = std::find_if(summaries.begin(), summaries.end(), [&](const auto& e) { return e.first == key; });
        if (it == summaries.end()) it = summaries.insert(summaries.end(), {key, Summary{}});
        Summary& sum = it->second;
        ++sum.count;
        sum.feasible += feasible;
        sum.objective_sum += objective;
        sum.seconds_sum += seconds;
        if (!opt.svg_dir.empty()) write_svg(opt.svg_dir, *problem, *inst, s, std::string(method->method), objective);
        std::string picture;
        if (!opt.plot_file.empty()) {
          picture = plot_path(opt.plot_file, single_picture, inst->name, std::string(method->method));
          const std::string title = picture_title(*problem, *inst, std::string(method->method), objective);
          falcon::scoring::write_picture(picture, falcon::scoring::render_solution_svg(*problem, *inst, s, title));
        }
        if (opt.format == "json") {
          json j;
          j["instance"] = inst->name;
          j["problem"] = problem->name();
          j["n"] = inst->size();
          j["method"] = method->method;
          j["objective"] = number_or_null(objective);
          j["feasible"] = feasible;
          j["seconds"] = seconds;
          j["solution"] = problem->format(*inst, s);
          if (!picture.empty()) j["picture"] = picture;
          std::cout << j.dump() << std::endl;
        }
        progress.advance();
      }
    }
    progress.finish();
  }
  if (opt.format == "table") {
    std::printf("| problem | method | instances | feasible | mean objective | mean ms |\n");
    std::printf("|---|---|---|---|---|---|\n");
    for (const auto& [key, s] : summaries) {
      std::printf("| %s | %d | %d/%d | %.3f | %.3f |\n", key.c_str(), s.count, s.feasible, s.count,
                  s.objective_sum / s.count, 1000 * s.seconds_sum / s.count);
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"falcon_solve: solve combinatorial optimisation instances with heuristics, or check a solution text"};
  Options opt;
  std::string known_problems;
  for (auto name : falcon::problems::problem_names()) known_problems += (known_problems.empty() ? "" : ", ") + std::string(name);
  bool list = false;
  app.add_flag("--list", list, "print each problem with its methods, one line per problem, and exit");
  app.add_option("--problem", opt.problem, "problem: " + known_problems + ", or all");
  app.add_option("--method", opt.method, "solver method (see --list), or all");
  app.add_option("--seed", opt.seed, "random seed of the method");
  app.add_option("--time-limit", opt.time_limit, "seconds per instance for anytime methods (0 = their default)");
  app.add_option("--generate", opt.generate, "generate instances: n=20,count=5,seed=1[,distribution=..,<problem keys>]");
  app.add_option("--check", opt.check, "parse, score and repair this solution text for one instance");
  app.add_option("--svg", opt.svg_dir, "write a picture of every solution to this directory (DIR/<instance>.<method>.svg)");
  app.add_option("--plot", opt.plot_file,
                 "draw the solution to FILE (.svg or .png); with several instances or methods, one file each: "
                 "FILE with .<instance>.<method> before the extension; with --check, the repaired solution");
  app.add_flag("--prompt", opt.prompt, "print each instance's prompt and its length instead of solving");
  app.add_option("--text-style", opt.text_style,
                 "paper (default), compact, compact_echo, compact_state, compact_ranked or compact_insert: the text --prompt prints, --check reads and solutions are written in");
  app.add_option("--candidates", opt.candidates, "compact style: nearest-neighbour IDs per node clause (default 0)");
  app.add_option("--format", opt.format, "json (one line per instance) or table (Markdown summary)")
      ->check(CLI::IsMember({"json", "table"}));
  app.add_option("files", opt.files, "instance files (TSPLIB, CVRPLIB, OPLib, DIMACS, Taillard, JSPLIB ...)");
  try {
    app.parse(argc, argv);
    opt.check_given = app.count("--check") > 0;
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    if (list) {
      for (auto name : falcon::problems::problem_names()) {
        std::string methods;
        for (const auto* s : falcon::solvers::solvers_for(name)) methods += (methods.empty() ? "" : " ") + std::string(s->method);
        std::printf("%s: %s\n", std::string(name).c_str(), methods.c_str());
      }
      return 0;
    }
    if (opt.problem.empty()) throw Error("--problem is required (" + known_problems + ", or all); --list shows the methods");
    const auto style = falcon::formats::make_text_style(opt.text_style, opt.candidates, "--text-style");
    std::vector<const Problem*> problems;
    if (opt.problem == "all") {
      for (auto name : falcon::problems::problem_names())
        problems.push_back(&falcon::formats::with_text_style(falcon::problems::problem_by_name(name), style));
    } else {
      problems.push_back(&falcon::formats::with_text_style(falcon::problems::problem_by_name(opt.problem), style));
    }
    if (!opt.plot_file.empty()) {
      if (opt.prompt) throw Error("--plot draws solutions: give --method or --check, not --prompt");
      falcon::scoring::check_picture_file(opt.plot_file, "--plot");  // before any solving
    }
    if (opt.check_given) {
      if (problems.size() != 1) throw Error("--check needs one --problem, not 'all'");
      return run_check(*problems.front(), opt);
    }
    if (opt.prompt) return run_prompt(problems, opt);
    if (opt.method.empty()) throw Error("--method is required (or --check); methods: see the error for --method x");
    if (opt.problem == "all" && opt.method != "all") throw Error("--problem all needs --method all");
    return run_solve(problems, opt);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "falcon_solve: error: %s\n", e.what());
    return 1;
  }
}
