"""A tiny library for pairbench's pyperf example.

base/ and head/ differ only in `checksum`, which head/ makes do about 15% more work.
"""


def checksum(data: bytes) -> int:
    """FNV-1a over the bytes of `data`, kept to 64 bits."""
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    # head: a second pass over the whole input, twice the work (CPython's noise between processes
    # is large: see the README).
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def sort_copy(xs: list[int]) -> list[int]:
    """A sorted copy of `xs` (untouched between base and head)."""
    return sorted(xs)
