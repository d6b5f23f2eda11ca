// Semantic constraints of the routing-like problems: TSP and PFSP (permutations), OP
// (budget), CVRP (capacity). See semantic_constraint.h.
#include <algorithm>
#include <vector>

#include "falcon/problems/semantic_constraint.h"
#include "falcon/problems/cvrp.h"
#include "falcon/problems/op.h"
#include "falcon/problems/pfsp.h"
#include "falcon/problems/registry.h"
#include "falcon/problems/tsp.h"

namespace falcon::problems {
namespace {

// Counts over 0..n-1 with O(log n) update and range sum.
class Fenwick {
 public:
  Fenwick() = default;
  explicit Fenwick(const std::vector<int>& counts) : tree_(counts.size() + 1, 0) {
    for (std::size_t i = 0; i < counts.size(); ++i) {
      tree_[i + 1] += counts[i];
      const std::size_t parent = (i + 1) + ((i + 1) & -(i + 1));
      if (parent < tree_.size()) tree_[parent] += tree_[i + 1];
    }
  }
  void add(long long i, int delta) {
    for (std::size_t k = static_cast<std::size_t>(i) + 1; k < tree_.size(); k += k & -k) tree_[k] += delta;
  }
  int prefix(long long i) const {  // sum over [0, i]
    if (i < 0) return 0;
    int s = 0;
    for (std::size_t k = static_cast<std::size_t>(std::min<long long>(i + 1, size())); k > 0; k -= k & -k) s += tree_[k];
    return s;
  }
  int range(long long lo, long long hi) const { return lo > hi ? 0 : prefix(hi) - (lo > 0 ? prefix(lo - 1) : 0); }
  long long size() const { return static_cast<long long>(tree_.size()) - 1; }

 private:
  std::vector<int> tree_;
};

IndexRange range_of(std::string_view problem, const problems::Instance& instance) {
  const problems::GrammarSpec spec = problems::problem_by_name(problem).grammar(instance);
  return {spec.first_index, spec.last_index};
}

// Each index of the range exactly once; the list may close only when all are there.
class PermutationConstraint : public SemanticConstraint {
 public:
  explicit PermutationConstraint(IndexRange r)
      : SemanticConstraint(r),
        visited_(std::max(0, r.last - r.first + 1), 0),
        remaining_(static_cast<int>(visited_.size())),
        unvisited_(std::vector<int>(visited_.size(), 1)) {}
  std::unique_ptr<SemanticConstraint> clone() const override { return std::make_unique<PermutationConstraint>(*this); }

  bool legal(long long v) const override { return in_range(v) && !visited_[v - range().first]; }
  bool any_legal() const override { return remaining_ > 0; }
  bool any_legal_in(long long lo, long long hi) const override {
    return unvisited_.range(std::max<long long>(lo, range().first) - range().first,
                            std::min<long long>(hi, range().last) - range().first) > 0;
  }
  bool can_close_list() const override { return remaining_ == 0; }
  void push_index(long long v) override { mark(v, 1); }
  void pop_index(long long v) override { mark(v, 0); }

 private:
  bool in_range(long long v) const { return v >= range().first && v <= range().last; }
  void mark(long long v, char visited) {
    visited_[v - range().first] = visited;
    remaining_ += visited ? -1 : 1;
    unvisited_.add(v - range().first, visited ? -1 : 1);
  }
  std::vector<char> visited_;
  int remaining_;
  Fenwick unvisited_;
};

// Distinct nodes other than start and end whose path start -> ... -> end fits the budget.
// The length is summed in the order op::path_length sums it, so the test here and
// op::feasible agree to the last bit.
class OpConstraint : public SemanticConstraint {
 public:
  explicit OpConstraint(std::shared_ptr<const problems::Instance> instance)
      : SemanticConstraint(range_of("op", *instance)),
        hold_(std::move(instance)),
        op_(&problems::instance_as<problems::op::OpInstance>(*hold_, "op")),
        visited_(op_->size(), 0),
        last_(op_->start) {}
  std::unique_ptr<SemanticConstraint> clone() const override { return std::make_unique<OpConstraint>(*this); }

  bool legal(long long v) const override {
    if (v < 0 || v >= op_->size() || visited_[v] || v == op_->start || v == op_->end) return false;
    const auto& g = op_->geometry;
    return problems::op::within_budget(*op_, length_ + g.d(last_, static_cast<int>(v)) + g.d(static_cast<int>(v), op_->end));
  }
  void push_index(long long v) override {
    saved_.push_back({length_, last_});
    length_ += op_->geometry.d(last_, static_cast<int>(v));
    last_ = static_cast<int>(v);
    visited_[v] = 1;
  }
  void pop_index(long long v) override {
    visited_[v] = 0;
    length_ = saved_.back().length;
    last_ = saved_.back().last;
    saved_.pop_back();
  }

 private:
  struct Saved {
    double length;
    int last;
  };
  std::shared_ptr<const problems::Instance> hold_;
  const problems::op::OpInstance* op_;
  std::vector<char> visited_;
  double length_ = 0;  // start -> ... -> last_
  int last_;
  std::vector<Saved> saved_;
};

// Each customer once over all routes, every route within capacity; the body closes only
// when every customer is routed, and a new route opens only while some customer is not.
class CvrpConstraint : public SemanticConstraint {
 public:
  explicit CvrpConstraint(std::shared_ptr<const problems::Instance> instance)
      : SemanticConstraint(range_of("cvrp", *instance)),
        hold_(std::move(instance)),
        cvrp_(&problems::instance_as<problems::cvrp::CvrpInstance>(*hold_, "cvrp")),
        visited_(cvrp_->size(), 0),
        remaining_(std::max(0, cvrp_->size() - 1)) {
    std::vector<int> by_demand(std::max(cvrp_->capacity, 0) + 1, 0);
    for (int v = 1; v < cvrp_->size(); ++v)
      if (fits_at_all(v)) ++by_demand[cvrp_->demands[v]];
    unvisited_by_demand_ = Fenwick(by_demand);
  }
  std::unique_ptr<SemanticConstraint> clone() const override { return std::make_unique<CvrpConstraint>(*this); }

  bool legal(long long v) const override {
    return v >= 1 && v < cvrp_->size() && !visited_[v] && fits_at_all(static_cast<int>(v)) &&
           load_ + cvrp_->demands[v] <= cvrp_->capacity;
  }
  bool any_legal() const override { return unvisited_by_demand_.prefix(cvrp_->capacity - load_) > 0; }
  bool can_open_list() const override { return remaining_ > 0; }
  bool can_close_outer() const override { return remaining_ == 0; }
  void push_open() override {
    saved_loads_.push_back(load_);
    load_ = 0;
  }
  void pop_open() override {
    load_ = saved_loads_.back();
    saved_loads_.pop_back();
  }
  void push_index(long long v) override { mark(static_cast<int>(v), 1); }
  void pop_index(long long v) override { mark(static_cast<int>(v), 0); }

 private:
  // validate() guarantees 0 <= demand <= capacity; a file that breaks it is left to repair.
  bool fits_at_all(int v) const { return cvrp_->demands[v] >= 0 && cvrp_->demands[v] <= cvrp_->capacity; }
  void mark(int v, char visited) {
    visited_[v] = visited;
    remaining_ += visited ? -1 : 1;
    load_ += visited ? cvrp_->demands[v] : -cvrp_->demands[v];
    unvisited_by_demand_.add(cvrp_->demands[v], visited ? -1 : 1);
  }

  std::shared_ptr<const problems::Instance> hold_;
  const problems::cvrp::CvrpInstance* cvrp_;
  std::vector<char> visited_;
  int remaining_;
  int load_ = 0;  // of the route being written
  std::vector<int> saved_loads_;
  Fenwick unvisited_by_demand_;
};

}  // namespace

std::unique_ptr<SemanticConstraint> make_tsp_constraint(std::shared_ptr<const problems::Instance> instance) {
  problems::instance_as<problems::tsp::TspInstance>(*instance, "tsp");
  return std::make_unique<PermutationConstraint>(range_of("tsp", *instance));
}
std::unique_ptr<SemanticConstraint> make_pfsp_constraint(std::shared_ptr<const problems::Instance> instance) {
  problems::instance_as<problems::pfsp::PfspInstance>(*instance, "pfsp");
  return std::make_unique<PermutationConstraint>(range_of("pfsp", *instance));
}
std::unique_ptr<SemanticConstraint> make_op_constraint(std::shared_ptr<const problems::Instance> instance) {
  return std::make_unique<OpConstraint>(std::move(instance));
}
std::unique_ptr<SemanticConstraint> make_cvrp_constraint(std::shared_ptr<const problems::Instance> instance) {
  return std::make_unique<CvrpConstraint>(std::move(instance));
}

}  // namespace falcon::problems
