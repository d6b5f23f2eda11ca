#pragma once
// A byte trie for prefix searches in time linear in the match, whatever the longest key (the
// role of Darts' double-array trie in SentencePiece). Keys and values come from untrusted model
// files, so no search depends on how long or how many the keys are beyond the bytes it reads.
#include <string_view>
#include <utility>
#include <vector>

namespace falcon::text {

class ByteTrie {
 public:
  static constexpr int kRoot = 0;
  ByteTrie() : nodes_(1) {}
  // Sets the value of `key` (>= 0); a later insert of the same key replaces it.
  void insert(std::string_view key, int value);
  // The node after `byte` from `node`, -1 when no key continues that way.
  int child(int node, unsigned char byte) const;
  int value(int node) const { return nodes_[static_cast<std::size_t>(node)].value; }  // -1: no key ends here
  bool empty() const { return nodes_.size() == 1; }

 private:
  struct Node {
    int value = -1;
    std::vector<std::pair<unsigned char, int>> next;  // sorted by byte
  };
  std::vector<Node> nodes_;
};

}  // namespace falcon::text
