#pragma once
// A picture of one delivered solution (falcon_eval --plot FILE): SVG from solution_svg.h, or PNG
// when FILE ends in .png (the SVG converted by ImageMagick's `convert`, when it is installed).
#include <string>

#include "falcon/eval/eval_instances.h"
#include "falcon/eval/instance_result.h"

namespace falcon::eval {

// Throws falcon::Error when the file cannot be written or a PNG cannot be made.
void write_solution_picture(const std::string& file, const EvalInstance& instance, const InstanceResult& result);

}  // namespace falcon::eval
