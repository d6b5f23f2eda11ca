#include "tools/bench/op_profile.h"

#include <algorithm>
#include <map>
#include <utility>

#if __has_include(<torch/csrc/autograd/profiler_legacy.h>)
#include <torch/csrc/autograd/profiler_legacy.h>
#define FALCON_HAS_LEGACY_PROFILER 1
#endif

namespace falcon::bench {

std::vector<OpTime> profile_ops(const std::function<void()>& work, bool* available) {
#ifdef FALCON_HAS_LEGACY_PROFILER
  namespace prof = torch::autograd::profiler;
  if (available) *available = true;
  prof::enableProfilerLegacy(torch::profiler::impl::ProfilerConfig(torch::profiler::impl::ProfilerState::CPU));
  work();
  const auto threads = prof::disableProfilerLegacy();
  std::map<std::string, OpTime> by_name;
  for (const auto& events : threads) {
    // Ranges nest within a thread: a pop closes the latest push, and a range's self time is its
    // span less its children's spans.
    struct Open {
      const prof::LegacyEvent* push;
      double children_us = 0.0;
    };
    std::vector<Open> open;
    for (const auto& e : events) {
      if (e.kind() == prof::EventKind::PushRange) {
        open.push_back({&e});
      } else if (e.kind() == prof::EventKind::PopRange && !open.empty()) {
        const Open range = open.back();
        open.pop_back();
        const double span = range.push->cpuElapsedUs(e);
        auto& op = by_name[range.push->name()];
        op.name = range.push->name();
        op.self_ms += (span - range.children_us) / 1000.0;
        ++op.calls;
        if (!open.empty()) open.back().children_us += span;
      }
    }
  }
  std::vector<OpTime> out;
  for (auto& [name, op] : by_name) out.push_back(std::move(op));
  std::sort(out.begin(), out.end(), [](const OpTime& a, const OpTime& b) { return a.self_ms > b.self_ms; });
  return out;
#else
  if (available) *available = false;
  work();
  return {};
#endif
}

}  // namespace falcon::bench
