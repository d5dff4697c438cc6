#include "kernels.h"

#include <algorithm>

std::uint64_t checksum(const std::vector<std::uint8_t>& data) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (std::uint8_t b : data) {
    h ^= b;
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::vector<std::uint32_t> sort_copy(const std::vector<std::uint32_t>& xs) {
  std::vector<std::uint32_t> out(xs);
  std::sort(out.begin(), out.end());
  return out;
}
