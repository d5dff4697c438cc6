// A tiny library for pairbench's vitest example: base/ and head/ differ only in one constant
// of checksum(), which head/ sets so that checksum does about 15% more work.

/** FNV-1a over the bytes of `data`, in 32 bits. */
export function checksum(data) {
  let h = 0x811c9dc5 | 0; // an int32 from the start, so V8 keeps the loop on int32 arithmetic
  for (let i = 0; i < data.length; i++) {
    h ^= data[i];
    h = Math.imul(h, 0x01000193);
  }
  // A second pass over the first EXTRA_PERCENT of the input: 0 in base, 15 in head. Both sides
  // run the same code shape, so V8 compiles them alike (see the README).
  const extra = Math.floor((data.length * EXTRA_PERCENT) / 100);
  for (let i = 0; i < extra; i++) {
    h ^= data[i];
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
const EXTRA_PERCENT = 0;

/**
 * Sorts a copy of `xs` into `out`, a Float64Array of the same length that the caller makes once,
 * and returns `out` (untouched between base and head). Writing into one buffer keeps allocation,
 * and with it the garbage collector, out of the timed loop: a fresh array per call made the pairs
 * of this benchmark spread several times wider (see the README).
 */
export function sortInto(out, xs) {
  out.set(xs);
  return out.sort();
}
