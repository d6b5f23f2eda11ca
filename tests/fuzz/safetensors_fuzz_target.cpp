// safetensors files (checkpoints, Hugging Face weights): the header must be accepted or refused
// with falcon::Error, and an accepted header's tensors must lie inside the file, cover the data
// area exactly and match their shapes in bytes.
#include <string>

#include "falcon/core/error.h"
#include "falcon/core/safetensors_header.h"
#include "tests/fuzz/input_fuzz_targets.h"

namespace falcon::fuzz {

int safetensors_one_input(const std::uint8_t* data, std::size_t size) {
  try {
    const SafetensorsHeader header = parse_safetensors_header(data, size, "fuzz.safetensors");
    std::uint64_t covered = 0;
    for (const SafetensorsEntry& e : header.entries) {
      std::uint64_t numel = 1;
      for (std::int64_t d : e.shape) numel *= static_cast<std::uint64_t>(d);
      if (e.end - e.begin != numel * e.dtype->size) fuzz_failure("safetensors_fuzz", e.name + ": bytes do not match the shape");
      if (header.data_start + e.end > size) fuzz_failure("safetensors_fuzz", e.name + ": data past the end of the file");
      covered += e.end - e.begin;
    }
    if (header.data_start + covered != size) fuzz_failure("safetensors_fuzz", "the tensors do not cover the data area");
  } catch (const Error&) {
    // refused with a message
  } catch (const std::exception& e) {
    fuzz_failure("safetensors_fuzz", std::string("not a falcon::Error: ") + e.what());
  }
  return 0;
}

}  // namespace falcon::fuzz
