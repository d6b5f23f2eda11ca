#include "falcon/core/cpu_features.h"

#include <fstream>
#include <sstream>

namespace falcon {

bool cpuinfo_has_native_bf16(const std::string& cpuinfo) {
  std::istringstream lines(cpuinfo);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream flags(line.substr(line.find(':') == std::string::npos ? line.size() : line.find(':') + 1));
    for (std::string flag; flags >> flag;)
      if (flag == "avx512_bf16" || flag == "amx_bf16") return true;
    return false;  // every core lists the same flags
  }
  return false;
}

bool cpu_has_native_bf16() {
  std::ifstream in("/proc/cpuinfo");
  if (!in) return false;
  std::ostringstream text;
  text << in.rdbuf();
  return cpuinfo_has_native_bf16(text.str());
}

}  // namespace falcon
