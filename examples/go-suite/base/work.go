// Package gosuite is a tiny benchmark suite for pairbench's example: base/ and head/
// differ only in Checksum, which head/ makes do about 15% more work.
package gosuite

import "sort"

// Checksum folds the bytes of data into a 64-bit FNV-1a style hash.
func Checksum(data []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, b := range data {
		h ^= uint64(b)
		h *= 1099511628211
	}
	return h
}

// SortInto copies xs into dst (as long as xs) and sorts it there (untouched between base and
// head). The caller owns dst, so a benchmark of it measures the sort, not the allocator and the
// collector.
func SortInto(dst, xs []int) []int {
	copy(dst, xs)
	sort.Ints(dst)
	return dst
}
