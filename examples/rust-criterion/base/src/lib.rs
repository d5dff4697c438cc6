//! A tiny library for pairbench's Criterion example: base/ and head/ differ only in
//! `checksum`, which head/ makes do about 15% more work.

/// FNV-1a over the bytes of `data`.
pub fn checksum(data: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in data {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Sorts a copy of `xs` (untouched between base and head).
pub fn sort_copy(xs: &[u32]) -> Vec<u32> {
    let mut out = xs.to_vec();
    out.sort_unstable();
    out
}
