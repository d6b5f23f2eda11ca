#pragma once
// The semantic mask's knowledge of a problem (decoding/semantic.h reads the text and asks this):
// which index may come next on one instance, and when a list may close. Each problem offers its
// own through Problem::semantic_constraint; the families share implementations, one file each:
//   semantic_routing.cpp  TSP, PFSP (permutations), OP (budget), CVRP (capacity)
//   semantic_graph.cpp    MIS (independence), MVC (cover)
//   semantic_jssp.cpp     JSSP (each machine list a permutation of the jobs, m lists)
#include <memory>

#include "falcon/problems/grammar_spec.h"

namespace falcon::problems {

struct Instance;

// The constraints of one problem family for one instance. Indices are the numbers as the
// text writes them (1-based for PFSP/JSSP jobs). Every push_* is undone by the matching
// pop_* in reverse order, so mask computation can try a token and take it back.
class SemanticConstraint {
 public:
  explicit SemanticConstraint(IndexRange range) : range_(range) {}
  virtual ~SemanticConstraint() = default;
  virtual std::unique_ptr<SemanticConstraint> clone() const = 0;

  // May `v` be the next index of the current list?
  virtual bool legal(long long v) const = 0;
  // Is some index legal now (a ", " inside a list must be followed by one)? Default: scans.
  virtual bool any_legal() const { return any_legal_in(range_.first, range_.last); }
  // Is some index in [lo, hi] legal? Default: scans with legal().
  virtual bool any_legal_in(long long lo, long long hi) const;
  virtual bool can_close_list() const { return true; }   // "]" of the (inner) list
  virtual bool can_open_list() const { return true; }    // nested: "[" or ", " before a new inner list
  virtual bool can_close_outer() const { return true; }  // nested: the "]" that ends the body

  virtual void push_index(long long v) = 0;
  virtual void pop_index(long long v) = 0;
  virtual void push_open() {}
  virtual void pop_open() {}

  IndexRange range() const { return range_; }

 private:
  IndexRange range_;
};

// The families' constraints; each throws falcon::Error when the instance is of another problem.
// Every index of [first, last] exactly once; the list closes only when complete.
std::unique_ptr<SemanticConstraint> make_tsp_constraint(std::shared_ptr<const Instance> instance);
std::unique_ptr<SemanticConstraint> make_pfsp_constraint(std::shared_ptr<const Instance> instance);
// Distinct nodes other than start/end whose path start -> ... -> end fits the budget.
std::unique_ptr<SemanticConstraint> make_op_constraint(std::shared_ptr<const Instance> instance);
// Each customer once, every route within capacity, the body closes when all are routed.
std::unique_ptr<SemanticConstraint> make_cvrp_constraint(std::shared_ptr<const Instance> instance);
// Distinct vertices, no two adjacent.
std::unique_ptr<SemanticConstraint> make_mis_constraint(std::shared_ptr<const Instance> instance);
// Distinct vertices; the list closes only when every edge is covered.
std::unique_ptr<SemanticConstraint> make_mvc_constraint(std::shared_ptr<const Instance> instance);
// Exactly m machine lists, each a permutation of the jobs (acyclicity is left to repair).
std::unique_ptr<SemanticConstraint> make_jssp_constraint(std::shared_ptr<const Instance> instance);

}  // namespace falcon::problems
