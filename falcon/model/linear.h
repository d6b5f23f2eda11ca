#pragma once
// torch::nn::functional::linear with one fix for decoding one token at a time.
#include "falcon/core/torch/shim.h"

namespace falcon::model {

// x (..., in) -> (..., out) = x W^T + b. An input of exactly one row goes through a
// matrix-vector product: OpenBLAS's GEMM packs the whole weight even for one row, several times
// slower than its GEMV (measured on one Zen 5 core: 256 -> 256 18 vs 5 us, 256 -> 2000 138 vs
// 65 us), and batch-1 decoding is nothing but such products.
torch::Tensor linear(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias = {});

}  // namespace falcon::model
