// A tiny library for pairbench's Catch2 example: base/ and head/ differ only
// in checksum(), which head/ makes do about 15% more work.
#pragma once
#include <cstdint>
#include <vector>

std::uint64_t checksum(const std::vector<std::uint8_t>& data);
std::vector<std::uint32_t> sort_copy(const std::vector<std::uint32_t>& xs);
