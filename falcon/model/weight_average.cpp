#include "falcon/model/weight_average.h"

#include "falcon/core/error.h"

namespace falcon::model {
namespace {

std::string shape_text(const torch::Tensor& t) {
  std::string out = "[";
  for (std::int64_t i = 0; i < t.dim(); ++i) out += (i ? ", " : "") + std::to_string(t.size(i));
  return out + "]";
}

// Throws unless `other` holds exactly the names and shapes of `first`.
void check_same_tensors(const WeightSource& first, const WeightSource& other) {
  const std::string hint = "; average only checkpoints of one model (the same shape and vocabulary)";
  for (const auto& [name, tensor] : first.weights) {
    const auto it = other.weights.find(name);
    if (it == other.weights.end())
      throw Error(other.name + ": has no tensor '" + name + "', which " + first.name + " has" + hint);
    if (!it->second.sizes().equals(tensor.sizes()))
      throw Error(other.name + ": tensor '" + name + "' is " + shape_text(it->second) + " but " + shape_text(tensor) +
                  " in " + first.name + hint);
  }
  for (const auto& [name, tensor] : other.weights)
    if (!first.weights.count(name))
      throw Error(other.name + ": has a tensor '" + name + "' that " + first.name + " lacks" + hint);
}

}  // namespace

TensorMap average_weights(const std::vector<WeightSource>& sources) {
  if (sources.empty()) throw Error("average_weights: no checkpoints to average");
  const WeightSource& first = sources.front();
  for (std::size_t i = 1; i < sources.size(); ++i) check_same_tensors(first, sources[i]);
  TensorMap mean;
  for (const auto& [name, tensor] : first.weights) {
    auto sum = torch::zeros(tensor.sizes(), torch::kFloat32);  // float32 so bf16 sums do not round each step
    for (const auto& source : sources) sum.add_(source.weights.at(name).detach().to(torch::kCPU, torch::kFloat32));
    mean[name] = sum.div_(static_cast<double>(sources.size())).to(tensor.scalar_type());
  }
  return mean;
}

}  // namespace falcon::model
