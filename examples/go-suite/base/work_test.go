package gosuite

import (
	"fmt"
	"testing"
)

var sink uint64

func input(n int) []byte {
	data := make([]byte, n)
	for i := range data {
		data[i] = byte(i*31 + 7)
	}
	return data
}

func BenchmarkChecksum(b *testing.B) {
	data := input(64 << 10)
	b.SetBytes(int64(len(data)))
	for i := 0; i < b.N; i++ {
		sink += Checksum(data)
	}
}

func BenchmarkSort(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			xs := make([]int, n)
			for i := range xs {
				xs[i] = (i * 7919) % n
			}
			// sorted in a slice made once: an allocation per iteration would time the collector
			// too, whose work lands on one run or the next (README)
			dst := make([]int, n)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				sink += uint64(SortInto(dst, xs)[0])
			}
		})
	}
}
