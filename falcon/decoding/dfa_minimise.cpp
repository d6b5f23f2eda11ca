#include "falcon/decoding/dfa_minimise.h"

#include <utility>

namespace falcon::decoding {
namespace {

// A partition of 0..n-1 whose blocks are contiguous ranges of one array, so marking an element
// (a swap to the front of its block) and splitting off the marked ones cost O(1) per element
// (Valmari and Lehtinen's refinable partition).
class RefinablePartition {
 public:
  explicit RefinablePartition(int n) : elements_(n), location_(n), block_of_(n, 0), first_{0}, end_{n}, marked_{0} {
    for (int i = 0; i < n; ++i) elements_[i] = location_[i] = i;
  }

  int blocks() const { return static_cast<int>(first_.size()); }
  int block_of(int e) const { return block_of_[e]; }
  int size(int b) const { return end_[b] - first_[b]; }
  const int* begin(int b) const { return elements_.data() + first_[b]; }
  const int* end(int b) const { return elements_.data() + end_[b]; }

  void mark(int e) {
    const int b = block_of_[e];
    const int i = location_[e];
    const int j = first_[b] + marked_[b];
    if (i < j) return;  // marked already
    std::swap(elements_[i], elements_[j]);
    location_[elements_[i]] = i;
    location_[elements_[j]] = j;
    if (marked_[b]++ == 0) touched_.push_back(b);
  }

  // Every block with marked and unmarked elements gives its marked ones to a new block;
  // on_split(old, new) follows each split. Clears the marks.
  template <class OnSplit>
  void split_marked(OnSplit on_split) {
    for (int b : touched_) {
      const int marked = marked_[b];
      marked_[b] = 0;
      if (marked == size(b)) continue;
      const int added = blocks();
      first_.push_back(first_[b]);
      end_.push_back(first_[b] + marked);
      marked_.push_back(0);
      first_[b] += marked;
      for (int i = first_[added]; i < end_[added]; ++i) block_of_[elements_[i]] = added;
      on_split(b, added);
    }
    touched_.clear();
  }

 private:
  std::vector<int> elements_;  // blocks side by side; each block's marked elements first
  std::vector<int> location_;  // element -> index in elements_
  std::vector<int> block_of_;
  std::vector<int> first_, end_, marked_;  // per block
  std::vector<int> touched_;               // blocks with a mark
};

}  // namespace

std::vector<std::int32_t> minimise_dfa(const std::vector<std::int32_t>& trans, const std::vector<std::uint8_t>& accepting,
                                       int k) {
  const int n = static_cast<int>(accepting.size());
  const int dead = n;  // the implicit state every missing transition goes to; it loops on itself
  const int total = n + 1;
  const auto target = [&](int s, int c) {
    if (s == dead) return dead;
    const std::int32_t t = trans[static_cast<std::size_t>(s) * k + c];
    return t < 0 ? dead : static_cast<int>(t);
  };

  // Predecessors by class and target, in one array: sources[offset[c * total + t] ...].
  std::vector<int> offset(static_cast<std::size_t>(k) * total + 1, 0);
  for (int s = 0; s < total; ++s)
    for (int c = 0; c < k; ++c) ++offset[static_cast<std::size_t>(c) * total + target(s, c) + 1];
  for (std::size_t i = 1; i < offset.size(); ++i) offset[i] += offset[i - 1];
  std::vector<int> sources(offset.back());
  {
    std::vector<int> fill(offset.begin(), offset.end() - 1);
    for (int s = 0; s < total; ++s)
      for (int c = 0; c < k; ++c) sources[fill[static_cast<std::size_t>(c) * total + target(s, c)]++] = s;
  }

  RefinablePartition partition(total);
  for (int s = 0; s < n; ++s)
    if (accepting[s]) partition.mark(s);
  partition.split_marked([](int, int) {});

  // Splitters still to apply: (block, class) pairs, at most one entry each.
  std::vector<std::pair<int, int>> work;
  std::vector<char> queued;  // blocks x k
  const auto enqueue = [&](int block, int c) {
    char& flag = queued[static_cast<std::size_t>(block) * k + c];
    if (!flag) {
      flag = 1;
      work.emplace_back(block, c);
    }
  };
  queued.assign(static_cast<std::size_t>(partition.blocks()) * k, 0);
  // Either starting block will do (Hopcroft): the smaller one.
  if (partition.blocks() == 2)
    for (int c = 0; c < k; ++c) enqueue(partition.size(0) <= partition.size(1) ? 0 : 1, c);

  std::vector<int> predecessors;
  while (!work.empty()) {
    const auto [splitter, c] = work.back();
    work.pop_back();
    queued[static_cast<std::size_t>(splitter) * k + c] = 0;
    // Collected before marking: marking reorders elements, the splitter's own among them.
    predecessors.clear();
    for (const int* t = partition.begin(splitter); t != partition.end(splitter); ++t) {
      const std::size_t row = static_cast<std::size_t>(c) * total + *t;
      predecessors.insert(predecessors.end(), sources.begin() + offset[row], sources.begin() + offset[row + 1]);
    }
    for (int s : predecessors) partition.mark(s);
    partition.split_marked([&](int old_block, int new_block) {
      queued.resize(static_cast<std::size_t>(partition.blocks()) * k, 0);
      for (int d = 0; d < k; ++d) {
        if (queued[static_cast<std::size_t>(old_block) * k + d]) enqueue(new_block, d);  // both halves still to apply
        else enqueue(partition.size(old_block) <= partition.size(new_block) ? old_block : new_block, d);
      }
    });
  }

  // Blocks numbered by their first state; the dead state's block, if it holds no state, gets none.
  std::vector<std::int32_t> id(partition.blocks(), -1);
  std::vector<std::int32_t> block(n);
  std::int32_t next = 0;
  for (int s = 0; s < n; ++s) {
    std::int32_t& b = id[partition.block_of(s)];
    if (b < 0) b = next++;
    block[s] = b;
  }
  return block;
}

}  // namespace falcon::decoding
