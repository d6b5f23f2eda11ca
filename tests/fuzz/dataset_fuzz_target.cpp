// HDF5 dataset files: a file the reader opens must read back record by record or be refused with
// falcon::Error (verify() rebuilds every instance and checks every label).
#include <string>

#include "falcon/core/error.h"
#include "falcon/data/reader.h"
#include "tests/fuzz/input_fuzz_targets.h"

namespace falcon::fuzz {

int dataset_one_input(const std::uint8_t* data, std::size_t size) {
  const std::string path = write_scratch_file("input.h5", data, size);
  try {
    const data::DatasetReader reader = data::DatasetReader::open(path);
    reader.verify();
    for (const std::string& split : reader.split_names())
      if (reader.size(split) > 0) (void)reader.load(split, reader.size(split) - 1);
  } catch (const Error&) {
    // refused with a message
  } catch (const std::exception& e) {
    fuzz_failure("dataset_fuzz", std::string("not a falcon::Error: ") + e.what());
  }
  return 0;
}

}  // namespace falcon::fuzz
