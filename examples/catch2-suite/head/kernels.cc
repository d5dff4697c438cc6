#include "kernels.h"

#include <algorithm>

// The passes checksum makes over its input: head makes two, twice the work. A value rather than
// more code, so that both builds lay every function out alike: a longer checksum moved sort_copy
// in the binary and changed its time by about 5% (code layout), which no pairing can undo.
static volatile int checksum_passes = 2;

std::uint64_t checksum(const std::vector<std::uint8_t>& data) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (int pass = 0; pass < checksum_passes; ++pass) {
    for (std::uint8_t b : data) {
      h ^= b;
      h *= 0x100000001b3ULL;
    }
  }
  return h;
}

std::vector<std::uint32_t> sort_copy(const std::vector<std::uint32_t>& xs) {
  std::vector<std::uint32_t> out(xs);
  std::sort(out.begin(), out.end());
  return out;
}
