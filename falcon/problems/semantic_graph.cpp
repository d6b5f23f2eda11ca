// Semantic constraints of the graph problems: MIS (independence) and MVC (cover). See
// semantic_constraint.h.
#include <vector>

#include "falcon/problems/semantic_constraint.h"
#include "falcon/problems/mis_mvc.h"

namespace falcon::problems {
namespace {

const problems::Graph& graph_of(const problems::Instance& instance, std::string_view problem) {
  return problems::instance_as<problems::GraphInstance>(instance, problem).graph;
}

// Distinct vertices, none adjacent to one already chosen. blocked_[u] counts the chosen
// neighbours of u, legal_ the vertices that are neither chosen nor blocked.
class MisConstraint : public SemanticConstraint {
 public:
  explicit MisConstraint(std::shared_ptr<const problems::Instance> instance)
      : SemanticConstraint({0, instance->size() - 1}),
        hold_(std::move(instance)),
        g_(&graph_of(*hold_, "mis")),
        chosen_(g_->n, 0),
        blocked_(g_->n, 0),
        legal_(g_->n) {}
  std::unique_ptr<SemanticConstraint> clone() const override { return std::make_unique<MisConstraint>(*this); }

  bool legal(long long v) const override { return v >= 0 && v < g_->n && !chosen_[v] && blocked_[v] == 0; }
  bool any_legal() const override { return legal_ > 0; }
  void push_index(long long v) override {
    chosen_[v] = 1;
    --legal_;  // v was legal
    for (int u : g_->neighbors(static_cast<int>(v)))
      if (blocked_[u]++ == 0 && !chosen_[u]) --legal_;
  }
  void pop_index(long long v) override {
    for (int u : g_->neighbors(static_cast<int>(v)))
      if (--blocked_[u] == 0 && !chosen_[u]) ++legal_;
    chosen_[v] = 0;
    ++legal_;
  }

 private:
  std::shared_ptr<const problems::Instance> hold_;
  const problems::Graph* g_;
  std::vector<char> chosen_;
  std::vector<int> blocked_;
  int legal_;
};

// Distinct vertices; the list closes only when no edge is left uncovered.
class MvcConstraint : public SemanticConstraint {
 public:
  explicit MvcConstraint(std::shared_ptr<const problems::Instance> instance)
      : SemanticConstraint({0, instance->size() - 1}),
        hold_(std::move(instance)),
        g_(&graph_of(*hold_, "mvc")),
        chosen_(g_->n, 0),
        unchosen_(g_->n),
        uncovered_(g_->m()) {}
  std::unique_ptr<SemanticConstraint> clone() const override { return std::make_unique<MvcConstraint>(*this); }

  bool legal(long long v) const override { return v >= 0 && v < g_->n && !chosen_[v]; }
  bool any_legal() const override { return unchosen_ > 0; }
  bool can_close_list() const override { return uncovered_ == 0; }
  void push_index(long long v) override { choose(static_cast<int>(v), 1); }
  void pop_index(long long v) override { choose(static_cast<int>(v), 0); }

 private:
  void choose(int v, char chosen) {
    int newly = 0;  // edges (v, u) covered by v alone
    for (int u : g_->neighbors(v))
      if (!chosen_[u]) ++newly;
    uncovered_ += chosen ? -newly : newly;
    unchosen_ += chosen ? -1 : 1;
    chosen_[v] = chosen;
  }
  std::shared_ptr<const problems::Instance> hold_;
  const problems::Graph* g_;
  std::vector<char> chosen_;
  int unchosen_;
  int uncovered_;
};

}  // namespace

std::unique_ptr<SemanticConstraint> make_mis_constraint(std::shared_ptr<const problems::Instance> instance) {
  return std::make_unique<MisConstraint>(std::move(instance));
}
std::unique_ptr<SemanticConstraint> make_mvc_constraint(std::shared_ptr<const problems::Instance> instance) {
  return std::make_unique<MvcConstraint>(std::move(instance));
}

}  // namespace falcon::problems
