#pragma once
// Checkpoint averaging: the element-wise mean of several checkpoints of one model, as fairseq's
// average_checkpoints does. The checkpoints a run saves late in training scatter around the
// minimum the learning rate lets it reach; their mean often sits nearer it than any one of them.
#include <string>
#include <vector>

#include "falcon/model/safetensors.h"

namespace falcon::model {

struct WeightSource {
  std::string name;  // where the weights came from, for errors ("runs/x/checkpoints/step_500")
  TensorMap weights;
};

// The mean of the sources' tensors, accumulated in float32 and returned in the first source's
// dtypes, on the CPU. Every source must hold the same names with the same shapes; the first
// difference is one falcon::Error naming both sources and the tensor.
TensorMap average_weights(const std::vector<WeightSource>& sources);

}  // namespace falcon::model
