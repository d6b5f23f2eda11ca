#pragma once
// metrics.jsonl: one JSON object per line, flushed per line so a killed run keeps what it logged.
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

namespace falcon::train {

class MetricsLog {
 public:
  // append = false truncates the file (a fresh run); true continues it (a resumed run).
  MetricsLog(const std::string& path, bool append);
  void write(const nlohmann::json& line);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::ofstream out_;
};

}  // namespace falcon::train
