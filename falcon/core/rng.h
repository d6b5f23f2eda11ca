#pragma once
// Seeded, platform-independent random numbers. std::*_distribution differ between standard
// libraries, so generators use these to make the same instance from the same seed anywhere.
#include <cstdint>
#include <vector>

namespace falcon {

class Rng {
 public:
  explicit Rng(std::uint64_t seed);

  std::uint64_t next_u64();                   // xoshiro256**
  double uniform();                           // [0, 1)
  double uniform(double lo, double hi);       // [lo, hi)
  int uniform_int(int lo, int hi);            // [lo, hi], unbiased
  double normal();                            // N(0, 1), Box-Muller
  bool bernoulli(double p);

  template <class T>
  void shuffle(std::vector<T>& v) {
    for (int i = static_cast<int>(v.size()) - 1; i > 0; --i) std::swap(v[i], v[uniform_int(0, i)]);
  }

  // A child stream for item `index` (instance k of a dataset): independent of how many
  // numbers other items drew, so instance k is the same whatever the dataset size.
  static Rng for_item(std::uint64_t seed, std::uint64_t index);

 private:
  std::uint64_t s_[4];
};

}  // namespace falcon
