#pragma once
// How every recipe reader refuses a value: one error naming the file and the key path.
#include <string>

#include "falcon/core/config.h"
#include "falcon/core/error.h"

namespace falcon::recipe {

// "FILE: path", the place an error names.
inline std::string key_at(const Config& config, const std::string& path) { return config.source() + ": " + path; }

// Throws "FILE: path what" unless ok.
inline void require(bool ok, const Config& config, const std::string& path, const std::string& what) {
  if (!ok) throw Error(key_at(config, path) + " " + what);
}

}  // namespace falcon::recipe
