#include "falcon/formats/text_style.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>

#include "falcon/core/error.h"
#include "falcon/formats/registry.h"
#include "falcon/formats/styled_problem.h"
#include "falcon/problems/registry.h"

namespace falcon::formats {
namespace {

constexpr int kMaxCandidates = 32;  // a clause per node grows by one token per candidate

}  // namespace

TextStyle make_text_style(std::string_view name, int candidates, const std::string& where) {
  if (name != "paper" && format_by_name(name) == nullptr)
    throw Error(where + ": unknown text style '" + std::string(name) + "' (" + known_styles() + ")");
  if (candidates < 0 || candidates > kMaxCandidates)
    throw Error(where + ": candidates must be in 0.." + std::to_string(kMaxCandidates) + ", got " +
                std::to_string(candidates));
  if (name == "paper" && candidates != 0)
    throw Error(where + ": candidates needs the compact text style (the paper's prompt has no candidate lists)");
  return TextStyle{std::string(name), candidates, {}};
}

void set_problem_text_style(TextStyle& style, std::string_view problem, std::string_view name, int candidates,
                            const std::string& where) {
  try {
    problems::problem_by_name(problem);
  } catch (const Error& e) {  // an unknown problem: the message lists the known ones
    throw Error(where + ": " + e.what());
  }
  const TextStyle own = make_text_style(name, candidates, where);
  auto& list = style.per_problem;
  const auto at = std::lower_bound(list.begin(), list.end(), problem,
                                   [](const ProblemTextStyle& p, std::string_view q) { return p.problem < q; });
  if (at != list.end() && at->problem == problem)
    throw Error(where + ": " + std::string(problem) + " has a text style already");
  list.insert(at, ProblemTextStyle{std::string(problem), own.name, own.candidates});
}

TextStyle TextStyle::for_problem(std::string_view problem) const {
  for (const auto& p : per_problem)
    if (p.problem == problem) return TextStyle{p.name, p.candidates, {}, chat};
  return TextStyle{name, candidates, {}, chat};
}

bool notes_are_choices(const TextStyle& style) {
  const Format* format = format_by_name(style.name);
  return format != nullptr && format->notes_are_choices();
}

bool writes_notes(const TextStyle& style) {
  auto notes_in = [](const std::string& name) {
    const Format* format = format_by_name(name);
    return format != nullptr && format->writes_notes();
  };
  bool any = notes_in(style.name);
  for (const auto& p : style.per_problem) any = any || notes_in(p.name);
  return any;
}

std::string describe(const TextStyle& style) {
  auto one = [](const std::string& name, int candidates) {
    return candidates == 0 ? name : name + ", " + std::to_string(candidates) + " candidates";
  };
  std::string text = one(style.name, style.candidates);
  for (const auto& p : style.per_problem) text += "; " + p.problem + ": " + one(p.name, p.candidates);
  if (style.chat != "none") text += "; chat template " + style.chat;
  return text;
}

const problems::Problem& with_text_style(const problems::Problem& base, const TextStyle& all) {
  const TextStyle style = all.for_problem(base.name());
  if (style.name == "paper") return base;
  const Format* format = format_by_name(style.name);
  if (format == nullptr) throw Error("text style '" + style.name + "' is not one of " + known_styles());
  static std::mutex mutex;
  static std::map<std::tuple<const problems::Problem*, int, const Format*>, std::unique_ptr<StyledProblem>> styled;
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = styled[{&base, style.candidates, format}];
  if (!slot) slot = std::make_unique<StyledProblem>(base, *format, style.candidates);
  return *slot;  // map nodes are stable: the reference outlives the lock
}

}  // namespace falcon::formats
