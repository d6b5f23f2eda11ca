#include "falcon/model/linear.h"

namespace falcon::model {

torch::Tensor linear(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias) {
  if (x.dim() < 1 || x.numel() != weight.size(1) || !x.device().is_cpu())
    return torch::nn::functional::linear(x, weight, bias);
  auto sizes = x.sizes().vec();
  sizes.back() = weight.size(0);
  auto y = bias.defined() ? torch::addmv(bias, weight, x.reshape({-1})) : torch::mv(weight, x.reshape({-1}));  // (out,)
  return y.view(sizes);  // (..., out)
}

}  // namespace falcon::model
