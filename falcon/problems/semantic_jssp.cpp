// Semantic constraint of JSSP: exactly m machine lists, each a permutation of the jobs 1..n.
// Whether the machine orders together admit a timetable (no cycle with the job routes) is
// not checked here: that needs look-ahead over all machines, and repair handles it.
#include <vector>

#include "falcon/problems/semantic_constraint.h"
#include "falcon/problems/jssp.h"

namespace falcon::problems {
namespace {

class JsspConstraint : public SemanticConstraint {
 public:
  JsspConstraint(int jobs, int machines) : SemanticConstraint({1, jobs}), jobs_(jobs), machines_(machines), in_list_(jobs + 1, 0) {}
  std::unique_ptr<SemanticConstraint> clone() const override { return std::make_unique<JsspConstraint>(*this); }

  bool legal(long long v) const override { return v >= 1 && v <= jobs_ && !lists_.empty() && !in_list_[v]; }
  bool any_legal() const override { return !lists_.empty() && static_cast<int>(lists_.back().size()) < jobs_; }
  bool can_close_list() const override { return static_cast<int>(lists_.back().size()) == jobs_; }
  bool can_open_list() const override { return static_cast<int>(lists_.size()) < machines_; }
  bool can_close_outer() const override { return static_cast<int>(lists_.size()) == machines_; }
  void push_open() override {
    set_current(0);
    lists_.emplace_back();
  }
  void pop_open() override {
    lists_.pop_back();
    set_current(1);
  }
  void push_index(long long v) override {
    lists_.back().push_back(static_cast<int>(v));
    in_list_[v] = 1;
  }
  void pop_index(long long v) override {
    lists_.back().pop_back();
    in_list_[v] = 0;
  }

 private:
  void set_current(char value) {
    if (!lists_.empty())
      for (int v : lists_.back()) in_list_[v] = value;
  }
  int jobs_;
  int machines_;
  std::vector<std::vector<int>> lists_;  // the job sequences written so far, by machine
  std::vector<char> in_list_;            // by job: in the list being written
};

}  // namespace

std::unique_ptr<SemanticConstraint> make_jssp_constraint(std::shared_ptr<const problems::Instance> instance) {
  const auto& jssp = problems::instance_as<problems::jssp::JsspInstance>(*instance, "jssp");
  return std::make_unique<JsspConstraint>(jssp.jobs, jssp.machines);
}

}  // namespace falcon::problems
