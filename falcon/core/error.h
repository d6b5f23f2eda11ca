#pragma once
// One error type for every bad input: it names the place (file:line, key path, flag) and
// says what to do next. Programs catch it at main() and print one line.
#include <stdexcept>
#include <string>

namespace falcon {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

// "FILE:LINE: WHAT" — the format compilers use, so editors can jump to the place.
Error input_error(const std::string& file, long line, const std::string& what);

}  // namespace falcon
