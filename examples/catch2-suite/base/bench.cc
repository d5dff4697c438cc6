// Catch2 benchmarks, one test case per benchmark, tagged [!benchmark] so that a plain run of the
// tests leaves them out. Builds against Catch2 v3 (libcatch2-dev, Ubuntu 24.04) or Catch2 v2
// (Debian 12's catch2, header-only; its main is in catch_main.cc), whichever is installed: see
// the Makefile.
#if __has_include(<catch2/catch_all.hpp>)
#include <catch2/catch_all.hpp>
#else
#define CATCH_CONFIG_ENABLE_BENCHMARKING
#include <catch2/catch.hpp>
#endif

#include <cstdint>
#include <vector>

#include "kernels.h"

TEST_CASE("checksum", "[!benchmark]") {
  std::vector<std::uint8_t> data(64 * 1024);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i * 31 + 7);
  BENCHMARK("checksum 64 KiB") { return checksum(data); };
}

TEST_CASE("sort", "[!benchmark]") {
  const std::uint32_t n = 10000;
  std::vector<std::uint32_t> xs(n);
  for (std::uint32_t i = 0; i < n; ++i) xs[i] = (i * 7919u) % n;
  BENCHMARK("sort 10000") { return sort_copy(xs); };
}
