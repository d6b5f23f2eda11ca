#pragma once
// The problem interface. Each problem is a file pair with plain structs and pure
// functions; a `Problem` adapter exposes them behind this one interface so that the registry,
// the command line, decoding and training can treat all seven alike.
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

// An instance and a solution carried through one symmetry of the problem (see symmetric_copy).
struct SymmetricCopy {
  std::shared_ptr<Instance> instance;
  Solution solution;
};

class Problem {
 public:
  virtual ~Problem() = default;

  virtual std::string_view name() const = 0;  // registry key: "tsp", "op", ...
  virtual Sense sense() const = 0;
  virtual TextFormat text_format() const = 0;
  virtual GrammarSpec grammar(const Instance& instance) const = 0;

  virtual std::shared_ptr<Instance> generate(const GenerateOptions& options, std::uint64_t seed) const = 0;
  // Benchmark files (TSPLIB, CVRPLIB, Taillard, ...). Throws falcon::Error naming file:line.
  virtual std::shared_ptr<Instance> read_file(const std::string& path) const = 0;
  virtual std::string prompt(const Instance& instance) const = 0;  // phi: what the model reads
  // The compact text style's phi (text_style.h): ID tokens "#k" that never double as numbers,
  // each entity's numbers beside its ID on a coarse grid, and for routing the IDs of each
  // node's `candidates` nearest neighbours. Throws for a problem that has no compact style yet.
  virtual std::string compact_prompt(const Instance& instance, int candidates) const;
  // The compact_echo style's phi: the compact prompt, unless the notes copy lists that a shorter
  // prompt holds exactly (graphs: each edge once, at its lower end, as the notes write it).
  virtual std::string echo_prompt(const Instance& instance, int candidates) const {
    return compact_prompt(instance, candidates);
  }
  // The compact_state style's phi: the echo's, unless the state note leaves a choice that needs
  // more than the prompt says (graphs: each vertex's degree, to tell which free vertex to skip).
  virtual std::string state_prompt(const Instance& instance, int candidates) const {
    return echo_prompt(instance, candidates);
  }
  // A random symmetry of (instance, solution): the same objective, another text. Nodes are
  // relabelled, and for Euclidean problems the points take one of the 8 symmetries of the square
  // and the tour either direction; the solution starts where the problem's labels start. SFT's
  // data augmentation (data.augment). Throws for a problem that has none yet.
  virtual SymmetricCopy symmetric_copy(const Instance& instance, const Solution& solution, Rng& rng) const;
  // The built-in grammar (grammars/<name>.bnf) that decoding compiles for this problem's text.
  virtual std::string grammar_name() const { return std::string(name()); }
  // The built-in grammar of the compact_ranked text: the echo grammar where ranked notes are ID
  // lists as the echo's are; a problem whose echo notes are numbers names its own.
  virtual std::string ranked_grammar_name() const { return grammar_name() + "_echo"; }

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
  virtual double locality_constant() const = 0;  // alpha of Definition 3.3

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

  // What the picture of `solution` shows (picture.h; eval/solution_svg.h draws it). `raw`, when
  // given, is the model's solution before repair: the picture then marks what repair changed.
  // Throws for a problem that has no picture.
  virtual Picture picture(const Instance& instance, const Solution& solution, const Solution* raw) const;

  // The compact_echo text style's notes (solution_text.h): after each index of `solution`, the
  // state the next choice depends on, e.g. the capacity left. Throws for a problem that has none.
  virtual EchoNotes echo_notes(const Instance& instance, const Solution& solution) const;
  // The compact_state style's notes: the whole running state where echo_notes write its change
  // (MIS: the vertices still free, not v's neighbours; MVC: the vertices a skipped one forces into
  // the cover); otherwise the echo's own.
  virtual EchoNotes state_notes(const Instance& instance, const Solution& solution) const {
    return echo_notes(instance, solution);
  }

  // The compact_ranked style (text_style.h): the state notes ranked by the problem's simple
  // heuristic, its first choice first, and a solution written in the order that heuristic would
  // take its items (MIS: the free vertices, fewest free neighbours first; a set in min-degree
  // greedy order). Both throw for a problem that has none.
  virtual EchoNotes ranked_notes(const Instance& instance, const Solution& solution) const;
  virtual Solution ranked_order(const Instance& instance, const Solution& solution) const;
  // The compact_insert style (text_style.h): the solution written as the insertions that build it,
  // the items taken in the order of the problem's insertion heuristic (PFSP: NEH's), each index of
  // the text the item the next one goes right after. insertion_anchors gives the anchors that build
  // a solution (of an infeasible one, its valid part), from_insertions the solution that anchors
  // build (for any anchors: what they cannot place is left for repair), insertion_notes one note per
  // anchor: the item placed next and its anchors, the heuristic's choice first. All three throw for
  // a problem that has none.
  virtual Solution insertion_anchors(const Instance& instance, const Solution& solution) const;
  virtual Solution from_insertions(const Instance& instance, const Solution& anchors) const;
  virtual EchoNotes insertion_notes(const Instance& instance, const Solution& anchors) const;

  // The items format() writes for a solution: as given, unless the text style ranks them or writes
  // insertions; solution_of_text is its inverse, the solution that the items of a text stand for.
  virtual Solution text_order(const Instance& /*instance*/, const Solution& solution) const { return solution; }
  virtual Solution solution_of_text(const Instance& /*instance*/, const Solution& items) const { return items; }

  // psi^-1: the solution in the grammar's text, with its objective (and notes, when the text echoes).
  std::string format(const Instance& instance, const Solution& solution) const;
  // psi: strict reads exactly the grammar; lenient salvages truncated or garbled text. Without an
  // instance the solution holds the text's items; with one, the solution they stand for.
  ParseResult parse(std::string_view text, bool lenient = false) const;
  ParseResult parse(const Instance& instance, std::string_view text, bool lenient = false) const;
};

// Down-cast with a clear error when an instance of one problem reaches another's functions.
template <class T>
const T& instance_as(const Instance& instance, std::string_view problem) {
  const T* typed = dynamic_cast<const T*>(&instance);
  if (typed == nullptr) throw Error("instance '" + instance.name + "' is not a " + std::string(problem) + " instance");
  return *typed;
}

}  // namespace falcon::problems
