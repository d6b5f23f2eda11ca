#pragma once
// Where a block of LibTorch work spends its time, operator by operator: self time (the operator's
// own, without the operators it calls) and calls, from LibTorch's autograd profiler, so a speed
// figure that falls short of the matmul peak can say which operators take the rest.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace falcon::bench {

struct OpTime {
  std::string name;       // "aten::bmm", "autograd::engine::evaluate_function: MmBackward0", ...
  double self_ms = 0.0;   // summed over every call and thread
  std::int64_t calls = 0;
};

// Runs `work` once under the profiler; returns every operator's time, the largest self time first.
// Empty when this LibTorch has no legacy profiler (then `available` is false).
std::vector<OpTime> profile_ops(const std::function<void()>& work, bool* available = nullptr);

}  // namespace falcon::bench
