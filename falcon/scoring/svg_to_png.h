#pragma once
// SVG -> PNG with rsvg-convert (Debian librsvg2-bin, installed by tools/setup.sh): a small,
// faithful SVG renderer. It runs through posix_spawnp with an argument vector, never a shell,
// so no file name is ever read as a command.
#include <string>

namespace falcon::scoring {

// Whether rsvg-convert runs (`rsvg-convert --version` exits 0).
bool png_converter_available();

// Renders `svg_file` to `png_file` (replaced only when the conversion succeeds). Throws
// falcon::Error naming both files when rsvg-convert is missing or fails; `svg_file` stays.
void svg_to_png(const std::string& svg_file, const std::string& png_file);

}  // namespace falcon::scoring
