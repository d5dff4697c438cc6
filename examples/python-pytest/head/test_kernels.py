import pytest

from kernels import checksum, sort_copy

DATA = bytes((i * 31 + 7) & 0xFF for i in range(4096))


def test_checksum(benchmark):
    assert benchmark(checksum, DATA) > 0


@pytest.mark.parametrize("n", [1000, 10000])
def test_sort(benchmark, n):
    xs = [(i * 7919) % n for i in range(n)]
    assert benchmark(sort_copy, xs)[0] == 0
