#include "falcon/text/byte_trie.h"

#include <algorithm>

namespace falcon::text {

void ByteTrie::insert(std::string_view key, int value) {
  int node = kRoot;
  for (unsigned char byte : key) {
    int next = child(node, byte);
    if (next < 0) {
      next = static_cast<int>(nodes_.size());
      auto& edges = nodes_[static_cast<std::size_t>(node)].next;
      edges.insert(std::lower_bound(edges.begin(), edges.end(), std::make_pair(byte, 0)), {byte, next});
      nodes_.emplace_back();
    }
    node = next;
  }
  nodes_[static_cast<std::size_t>(node)].value = value;
}

int ByteTrie::child(int node, unsigned char byte) const {
  const auto& edges = nodes_[static_cast<std::size_t>(node)].next;
  auto it = std::lower_bound(edges.begin(), edges.end(), std::make_pair(byte, 0));
  return it != edges.end() && it->first == byte ? it->second : -1;
}

}  // namespace falcon::text
