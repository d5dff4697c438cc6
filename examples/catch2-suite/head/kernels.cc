#include "kernels.h"

#include <algorithm>

std::uint64_t checksum(const std::vector<std::uint8_t>& data) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (std::uint8_t b : data) {
    h ^= b;
    h *= 0x100000001b3ULL;
  }
  // head: a second pass over the first 15% of the input, about 15% more work.
  for (std::size_t i = 0; i < data.size() * 15 / 100; ++i) {
    h ^= data[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::vector<std::uint32_t> sort_copy(const std::vector<std::uint32_t>& xs) {
  std::vector<std::uint32_t> out(xs);
  std::sort(out.begin(), out.end());
  return out;
}
