#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "kernels.h"

static void BM_Checksum(benchmark::State& state) {
  std::vector<std::uint8_t> data(64 * 1024);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i * 31 + 7);
  for (auto _ : state) benchmark::DoNotOptimize(checksum(data));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(data.size()));
}
BENCHMARK(BM_Checksum)->Unit(benchmark::kMicrosecond);

static void BM_Sort(benchmark::State& state) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  std::vector<std::uint32_t> xs(n);
  for (std::uint32_t i = 0; i < n; ++i) xs[i] = (i * 7919u) % n;
  for (auto _ : state) benchmark::DoNotOptimize(sort_copy(xs));
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_Sort)->Arg(1000)->Arg(10000);

BENCHMARK_MAIN();
