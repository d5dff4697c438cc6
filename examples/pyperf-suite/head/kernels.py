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


def sort_into(out: list[int], xs: list[int]) -> int:
    """Sorts a copy of `xs` into `out`, a list of the same length made once, and returns its first
    item (untouched between base and head). Assigning into the same list reuses its storage, so
    the timed loop allocates no list."""
    out[:] = xs
    out.sort()
    return out[0]
