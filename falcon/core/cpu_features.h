#pragma once
// What this CPU computes fast, for settings whose best value depends on the machine.
#include <string>

namespace falcon {

// True when the CPU has native bfloat16 dot products (AVX-512 BF16 or AMX-BF16, from
// /proc/cpuinfo's flags): there oneDNN runs bf16 matmuls at several times the fp32 rate; without
// them bf16 is emulated and slower than fp32. False where /proc/cpuinfo is unreadable.
bool cpu_has_native_bf16();

// The same test on the text of a /proc/cpuinfo (for tests).
bool cpuinfo_has_native_bf16(const std::string& cpuinfo);

}  // namespace falcon
