#include "falcon/problems/text_style.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <tuple>
#include <utility>

#include "falcon/core/error.h"
#include "falcon/problems/registry.h"

namespace falcon::problems {
namespace {

constexpr int kMaxCandidates = 32;  // a clause per node grows by one token per candidate

enum class Notes { kNone, kEcho, kState, kRanked, kInsert };  // compact, compact_echo, _state, _ranked, _insert

constexpr std::pair<Notes, std::string_view> kCompactStyles[] = {
    {Notes::kNone, "compact"},
    {Notes::kEcho, "compact_echo"},
    {Notes::kState, "compact_state"},
    {Notes::kRanked, "compact_ranked"},
    {Notes::kInsert, "compact_insert"}};
constexpr std::string_view kKnownStyles = "paper, compact, compact_echo, compact_state, compact_ranked, compact_insert";

std::string_view style_name(Notes notes) {
  for (const auto& [n, name] : kCompactStyles)
    if (n == notes) return name;
  return "?";
}

std::optional<Notes> notes_of(std::string_view style) {  // none for paper or an unknown name
  for (const auto& [n, name] : kCompactStyles)
    if (name == style) return n;
  return std::nullopt;
}

// Everything but the text is the base problem's, so scores and repairs cannot diverge by style.
class CompactProblem final : public Problem {
 public:
  CompactProblem(const Problem& base, int candidates, Notes notes)
      : base_(base), candidates_(candidates), notes_(notes), echo_(notes != Notes::kNone) {}

  std::string_view name() const override { return base_.name(); }
  Sense sense() const override { return base_.sense(); }
  TextFormat text_format() const override {
    TextFormat fmt = base_.text_format();
    fmt.index_prefix = kCompactIndexPrefix;
    fmt.echo = echo_;
    return fmt;
  }
  GrammarSpec grammar(const Instance& instance) const override {
    GrammarSpec spec = base_.grammar(instance);
    spec.index_prefix = kCompactIndexPrefix;
    if (notes_ == Notes::kInsert) --spec.first_index;  // the anchor one below the first ID: "first"
    return spec;
  }
  std::string grammar_name() const override {
    if (notes_ == Notes::kRanked) return base_.ranked_grammar_name();
    if (notes_ == Notes::kInsert) return base_.grammar_name() + "_insert";
    return base_.grammar_name() + (echo_ ? "_echo" : "_compact");
  }
  std::string ranked_grammar_name() const override { return base_.ranked_grammar_name(); }
  std::shared_ptr<Instance> generate(const GenerateOptions& options, std::uint64_t seed) const override {
    return base_.generate(options, seed);
  }
  std::shared_ptr<Instance> read_file(const std::string& path) const override { return base_.read_file(path); }
  std::string prompt(const Instance& instance) const override {
    if (notes_ == Notes::kState || notes_ == Notes::kRanked || notes_ == Notes::kInsert)
      return base_.state_prompt(instance, candidates_);
    return echo_ ? base_.echo_prompt(instance, candidates_) : base_.compact_prompt(instance, candidates_);
  }
  SymmetricCopy symmetric_copy(const Instance& instance, const Solution& solution, Rng& rng) const override {
    return base_.symmetric_copy(instance, solution, rng);
  }
  std::string compact_prompt(const Instance& instance, int candidates) const override {
    return base_.compact_prompt(instance, candidates);
  }
  std::string echo_prompt(const Instance& instance, int candidates) const override {
    return base_.echo_prompt(instance, candidates);
  }
  std::string state_prompt(const Instance& instance, int candidates) const override {
    return base_.state_prompt(instance, candidates);
  }
  double objective(const Instance& instance, const Solution& solution) const override {
    return base_.objective(instance, solution);
  }
  bool feasible(const Instance& instance, const Solution& solution) const override {
    return base_.feasible(instance, solution);
  }
  double violation(const Instance& instance, const Solution& solution) const override {
    return base_.violation(instance, solution);
  }
  Solution repair(const Instance& instance, const Solution& solution) const override {
    return base_.repair(instance, solution);
  }
  double repair_distance(const Instance& instance, const Solution& repaired, const Solution& original) const override {
    return base_.repair_distance(instance, repaired, original);
  }
  double locality_constant() const override { return base_.locality_constant(); }
  const std::vector<FieldSpec>& instance_fields() const override { return base_.instance_fields(); }
  InstanceData encode_instance(const Instance& instance) const override { return base_.encode_instance(instance); }
  std::shared_ptr<Instance> decode_instance(const InstanceData& data, int n, const std::string& name,
                                            const std::string& where) const override {
    return base_.decode_instance(data, n, name, where);
  }
  std::unique_ptr<SemanticConstraint> semantic_constraint(std::shared_ptr<const Instance> instance) const override {
    // The semantic mask reads every digit run as an index; a note's numbers are not.
    if (echo_)
      throw Error("semantic mask: not available with text style '" + std::string(style_name(notes_)) +
                  "' (it would read the notes' digits as indices); turn the semantic mask off");
    return base_.semantic_constraint(std::move(instance));
  }
  EchoNotes echo_notes(const Instance& instance, const Solution& solution) const override {
    switch (notes_) {
      case Notes::kState: return base_.state_notes(instance, solution);
      case Notes::kRanked: return base_.ranked_notes(instance, solution);
      case Notes::kInsert: return base_.insertion_notes(instance, solution);
      default: return base_.echo_notes(instance, solution);
    }
  }
  EchoNotes ranked_notes(const Instance& instance, const Solution& solution) const override {
    return base_.ranked_notes(instance, solution);
  }
  Solution ranked_order(const Instance& instance, const Solution& solution) const override {
    return base_.ranked_order(instance, solution);
  }
  Solution text_order(const Instance& instance, const Solution& solution) const override {
    switch (notes_) {
      case Notes::kRanked: return base_.ranked_order(instance, solution);
      case Notes::kInsert: return base_.insertion_anchors(instance, solution);
      default: return base_.text_order(instance, solution);
    }
  }
  Solution solution_of_text(const Instance& instance, const Solution& items) const override {
    return notes_ == Notes::kInsert ? base_.from_insertions(instance, items) : base_.solution_of_text(instance, items);
  }
  Solution insertion_anchors(const Instance& instance, const Solution& solution) const override {
    return base_.insertion_anchors(instance, solution);
  }
  Solution from_insertions(const Instance& instance, const Solution& anchors) const override {
    return base_.from_insertions(instance, anchors);
  }
  EchoNotes insertion_notes(const Instance& instance, const Solution& anchors) const override {
    return base_.insertion_notes(instance, anchors);
  }
  EchoNotes state_notes(const Instance& instance, const Solution& solution) const override {
    return base_.state_notes(instance, solution);
  }
  Picture picture(const Instance& instance, const Solution& solution, const Solution* raw) const override {
    return base_.picture(instance, solution, raw);
  }

 private:
  const Problem& base_;
  int candidates_;
  Notes notes_;
  bool echo_;
};

}  // namespace

TextStyle make_text_style(std::string_view name, int candidates, const std::string& where) {
  if (name != "paper" && !notes_of(name))
    throw Error(where + ": unknown text style '" + std::string(name) + "' (" + std::string(kKnownStyles) + ")");
  if (candidates < 0 || candidates > kMaxCandidates)
    throw Error(where + ": candidates must be in 0.." + std::to_string(kMaxCandidates) + ", got " + std::to_string(candidates));
  if (name == "paper" && candidates != 0)
    throw Error(where + ": candidates needs the compact text style (the paper's prompt has no candidate lists)");
  return TextStyle{std::string(name), candidates, {}};
}

void set_problem_text_style(TextStyle& style, std::string_view problem, std::string_view name, int candidates,
                            const std::string& where) {
  try {
    problem_by_name(problem);
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

bool writes_notes(const TextStyle& style) {
  auto notes_in = [](const std::string& name) {
    const std::optional<Notes> notes = notes_of(name);
    return notes.has_value() && *notes != Notes::kNone;
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

const Problem& with_text_style(const Problem& base, const TextStyle& all) {
  const TextStyle style = all.for_problem(base.name());
  if (style.name == "paper") return base;
  const std::optional<Notes> found = notes_of(style.name);
  if (!found) throw Error("text style '" + style.name + "' is not one of " + std::string(kKnownStyles));
  const Notes notes = *found;
  static std::mutex mutex;
  static std::map<std::tuple<const Problem*, int, Notes>, std::unique_ptr<CompactProblem>> adapters;
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = adapters[{&base, style.candidates, notes}];
  if (!slot) slot = std::make_unique<CompactProblem>(base, style.candidates, notes);
  return *slot;  // map nodes are stable: the reference outlives the lock
}

}  // namespace falcon::problems
