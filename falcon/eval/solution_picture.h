#pragma once
// A picture of one delivered solution (falcon_eval --plot FILE): SVG from solution_svg.h, or PNG
// when FILE ends in .png (the SVG converted by ImageMagick's `convert`, when it is installed).
#include <string>

#include "falcon/eval/eval_instances.h"
#include "falcon/eval/instance_result.h"

namespace falcon::eval {

// Throws falcon::Error when the file cannot be written or a PNG cannot be made.
// check_picture_file first, so a long run does not end in that error.
void write_solution_picture(const std::string& file, const EvalInstance& instance, const InstanceResult& result);

// Throws falcon::Error naming `key` when `file` is a .png and ImageMagick's convert is missing.
void check_picture_file(const std::string& file, const std::string& key);

}  // namespace falcon::eval
