// dataset_corpus in its own file: only programs that read datasets pull in HDF5.
#include <algorithm>

#include "falcon/core/error.h"
#include "falcon/data/reader.h"
#include "falcon/tokenizer_training/corpus.h"

namespace falcon::text {

std::vector<CorpusText> dataset_corpus(const std::string& path, const DatasetCorpusOptions& options) {
  const auto reader = data::DatasetReader::open(path);
  if (!reader.has_split(options.split))
    throw Error("tokenizer corpus: '" + path + "' has no split '" + options.split + "'");
  const problems::Problem& problem = formats::with_text_style(reader.problem(), options.style);
  std::int64_t count = reader.size(options.split);
  if (options.limit > 0) count = std::min(count, options.limit);
  std::vector<CorpusText> out;
  out.reserve(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i) {
    const data::LabeledInstance item = reader.load(options.split, i);
    out.push_back({std::string(problem.name()), problem.prompt(*item.instance),
                   problem.format(*item.instance, item.record.label.solution)});
  }
  return out;
}

}  // namespace falcon::text
