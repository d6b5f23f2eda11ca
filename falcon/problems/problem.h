#pragma once
// The problem interface. Each problem is a file pair with plain structs and pure
// functions; a `Problem` adapter exposes them behind this one interface so that the registry,
// the command line, decoding and training can treat all seven alike. A Problem writes the paper's
// text; the text styles for models trained from scratch are falcon/formats' (formats/text_style.h).
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "falcon/core/error.h"
#include "falcon/core/rng.h"
#include "falcon/problems/grammar_spec.h"
#include "falcon/problems/instance_fields.h"
#include "falcon/problems/picture.h"
#include "falcon/problems/semantic_constraint.h"
#include "falcon/problems/solution.h"
#include "falcon/problems/solution_text.h"
#include "falcon/problems/text_notation.h"

namespace falcon::problems {

enum class Sense { kMinimize, kMaximize };

// Relative gap to a reference value f*: (f - f*)/|f*| when minimising, (f* - f)/|f*| when
// maximising; positive means worse than the reference.
double gap(Sense sense, double f, double f_star);

struct Instance {
  virtual ~Instance() = default;
  virtual int size() const = 0;  // nodes, vertices or jobs: the `n` of the paper's tables
  std::string name;              // file stem, or "<problem>-n<n>-s<seed>-<k>" when generated
};

// Generator parameters, from `--generate n=20,distribution=gm,m=5` or a YAML section.
// Each problem reads its own keys from `params` and rejects keys it does not know.
struct GenerateOptions {
  int n = 20;
  std::string distribution;                   // "" = the problem's default
  std::map<std::string, std::string> params;  // problem-specific keys
};

// An instance and a solution carried through one symmetry of the problem (see symmetric_copy),
// and the renaming that did it, so that a solution of the copy can be carried back
// (original_solution, below).
struct SymmetricCopy {
  std::shared_ptr<Instance> instance;
  Solution solution;
  std::vector<int> relabel;       // the copy's ID of each ID of the instance (nodes, vertices, jobs)
  std::vector<int> list_relabel;  // JSSP: the copy's list of each machine's list; empty: lists stay
};

// A solution of copy.instance carried back to the instance the copy was made from: the same
// objective and feasibility (the symmetries keep both), the IDs and lists renamed back.
Solution original_solution(const SymmetricCopy& copy, const Solution& in_copy);

// The solution text's shape, from which its TextFormat and GrammarSpec follow: the paper's, unless a
// text style (falcon/formats) gives its IDs a prefix, notes or another grammar.
struct TextShape {
  std::string keyword;       // "Route", "Routes", "Set", "Order", "Schedule"
  bool nested = false;       // list of bracketed lists (CVRP, JSSP)
  bool allow_empty = false;  // the (inner) list may be empty (OP, MIS, MVC)
  int index_base = 0;        // 1 when the text numbers jobs from 1
  int first_index = 0;       // the smallest index a text writes; the largest is size() - 1 + index_base
  std::string grammar;       // the built-in grammar that reads it (grammars/<grammar>.bnf)
  std::string index_prefix;  // written before every index: "#" in the compact styles
  bool echo = false;         // a note after each index (TextFormat::echo)
};

class Problem {
 public:
  // `notation`: what a text style writes beyond the paper's text (text_notation.h); none for the paper's.
  Problem(std::string_view name, Sense sense, double locality_constant, TextShape shape,
          const TextNotation* notation = nullptr);
  virtual ~Problem() = default;
  Problem(const Problem&) = delete;
  Problem& operator=(const Problem&) = delete;

  std::string_view name() const { return name_; }  // registry key: "tsp", "op", ...
  Sense sense() const { return sense_; }
  double locality_constant() const { return locality_constant_; }  // alpha of Definition 3.3
  const TextShape& shape() const { return shape_; }
  TextFormat text_format() const;
  GrammarSpec grammar(const Instance& instance) const;
  // The built-in grammar (grammars/<name>.bnf) that decoding compiles for this problem's text.
  const std::string& grammar_name() const { return shape_.grammar; }

  virtual std::shared_ptr<Instance> generate(const GenerateOptions& options, std::uint64_t seed) const = 0;
  // Benchmark files (TSPLIB, CVRPLIB, Taillard, ...). Throws falcon::Error naming file:line.
  virtual std::shared_ptr<Instance> read_file(const std::string& path) const = 0;
  virtual std::string prompt(const Instance& instance) const = 0;  // phi: what the model reads
  // A random symmetry of (instance, solution): the same objective, another text. Nodes are
  // relabelled, and for Euclidean problems the points take one of the 8 symmetries of the square
  // and the tour either direction; the solution starts where the problem's labels start. SFT's
  // data augmentation (data.augment). Throws for a problem that has none yet.
  virtual SymmetricCopy symmetric_copy(const Instance& instance, const Solution& solution, Rng& rng) const;

  // Objective of what the solution contains (indices out of range are skipped); meaningful
  // as a score only when the solution is feasible.
  virtual double objective(const Instance& instance, const Solution& solution) const = 0;
  virtual bool feasible(const Instance& instance, const Solution& solution) const = 0;
  // Violation magnitude v(x) of Definition 3.3: >= 0, and 0 exactly when feasible.
  virtual double violation(const Instance& instance, const Solution& solution) const = 0;
  // Appendix E: feasible for any input, identity on feasible input, and
  // repair_distance(R(x), x) <= locality_constant() * violation(x).
  virtual Solution repair(const Instance& instance, const Solution& solution) const = 0;
  virtual double repair_distance(const Instance& instance, const Solution& repaired,
                                 const Solution& original) const = 0;

  // Dataset storage (falcon/data, docs/dataset_format.md): the named numeric fields every
  // instance has, in a fixed order, and the instance to and from them; decode(encode(x)) rebuilds
  // x bit for bit. decode builds an instance of size n named `name`, validated as the file
  // readers do, and throws falcon::Error starting with `where` when the fields are inconsistent.
  virtual const std::vector<FieldSpec>& instance_fields() const = 0;
  virtual InstanceData encode_instance(const Instance& instance) const = 0;
  virtual std::shared_ptr<Instance> decode_instance(const InstanceData& data, int n, const std::string& name,
                                                    const std::string& where) const = 0;

  // The semantic mask's constraints on `instance` (semantic_constraint.h): which index may come
  // next. Throws for a problem that has none (the semantic mask is then refused by name).
  virtual std::unique_ptr<SemanticConstraint> semantic_constraint(std::shared_ptr<const Instance> instance) const;

  // What the picture of `solution` shows (picture.h; scoring/solution_svg.h draws it). `raw`, when
  // given, is the model's solution before repair: the picture then marks what repair changed.
  // Throws for a problem that has no picture.
  virtual Picture picture(const Instance& instance, const Solution& solution, const Solution* raw) const;

  // The items format() writes for a solution, the note after each (for a text that echoes), and
  // the solution that the items of a text stand for: the text notation's, else the solution itself.
  Solution text_order(const Instance& instance, const Solution& solution) const;
  EchoNotes echo_notes(const Instance& instance, const Solution& items) const;
  Solution solution_of_text(const Instance& instance, const Solution& items) const;

  // psi^-1: the solution in the grammar's text, with its objective (and notes, when the text echoes).
  std::string format(const Instance& instance, const Solution& solution) const;
  // psi: strict reads exactly the grammar; lenient salvages truncated or garbled text. Without an
  // instance the solution holds the text's items; with one, the solution they stand for.
  ParseResult parse(std::string_view text, bool lenient = false) const;
  ParseResult parse(const Instance& instance, std::string_view text, bool lenient = false) const;

 private:
  std::string name_;
  Sense sense_;
  double locality_constant_;
  TextShape shape_;
  const TextNotation* notation_;
};

// Down-cast with a clear error when an instance of one problem reaches another's functions.
template <class T>
const T& instance_as(const Instance& instance, std::string_view problem) {
  const T* typed = dynamic_cast<const T*>(&instance);
  if (typed == nullptr) throw Error("instance '" + instance.name + "' is not a " + std::string(problem) + " instance");
  return *typed;
}

}  // namespace falcon::problems
