#include "falcon/train/metrics_log.h"

#include <chrono>

#include "falcon/core/error.h"

namespace falcon::train {

MetricsLog::MetricsLog(const std::string& path, bool append)
    : path_(path), out_(path, append ? std::ios::app : std::ios::trunc) {
  if (!out_) throw Error(path + ": cannot open the metrics log for writing");
}

void MetricsLog::write(const nlohmann::json& line) {
  auto stamped = line;
  stamped["time"] = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  out_ << stamped.dump() << "\n";
  out_.flush();
}

}  // namespace falcon::train
