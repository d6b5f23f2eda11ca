#include "falcon/core/error.h"

namespace falcon {

Error input_error(const std::string& file, long line, const std::string& what) {
  std::string where = file;
  if (line > 0) where += ":" + std::to_string(line);
  return Error(where + ": " + what);
}

}  // namespace falcon
