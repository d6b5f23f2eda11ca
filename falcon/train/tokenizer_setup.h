#pragma once
// The recipe's tokenizer: tokenizer.path when given, else <output_dir>/tokenizer.model, trained
// from the dataset's training split when missing. Training runs in the falcon_tokenizer program,
// never in this process: Debian's libsentencepiece exports a bundled protobuf that clashes with
// LibTorch's (docs/tokenizer.md), so LibTorch programs only read models, in plain C++.
#include <string>
#include <vector>

#include "falcon/recipe/recipe.h"

namespace falcon::train {

// Returns the path of the tokenizer.model to load. `tool` is the falcon_tokenizer executable;
// empty = next to this program, then on PATH.
std::string ensure_tokenizer(const recipe::Recipe& recipe, const std::vector<std::string>& dataset_paths, const std::string& tool,
                             bool progress);

// The same path, for the ranks that wait while rank 0 runs ensure_tokenizer: throws
// falcon::Error when the file is not there (output_dir not shared between ranks).
std::string existing_tokenizer(const recipe::Recipe& recipe);

}  // namespace falcon::train
