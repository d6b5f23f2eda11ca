#pragma once
// Small string helpers the file readers share.
#include <string>

namespace falcon {

// Without leading and trailing blanks, tabs and carriage returns (CRLF files).
std::string trim(const std::string& s);

}  // namespace falcon
