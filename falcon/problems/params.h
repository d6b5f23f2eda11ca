#pragma once
// Reads problem-specific generator keys from GenerateOptions::params and rejects the rest,
// so a typo ("capacty=40") is an error that names the key instead of a silent default.
#include <set>
#include <string>

#include "falcon/problems/problem.h"

namespace falcon::problems {

class ParamReader {
 public:
  ParamReader(const GenerateOptions& options, std::string problem);

  int get_int(const std::string& key, int fallback);
  double get_double(const std::string& key, double fallback);
  std::string get_string(const std::string& key, const std::string& fallback);
  bool has(const std::string& key) const;
  // Throws falcon::Error naming any key nobody asked for, and the keys that are known.
  void finish() const;

 private:
  const GenerateOptions& options_;
  std::string problem_;
  std::set<std::string> used_;
};

}  // namespace falcon::problems
