#pragma once
// The message of the falcon::Error that `f` throws, or "(no error)" when it throws none: tests of
// bad input assert on the one clear message each gets.
#include <functional>
#include <string>

#include "falcon/core/error.h"

namespace falcon::test_support {

inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace falcon::test_support
