// A tiny library for pairbench's node:bench example: base/ and head/ differ only in one constant
// of checksum(), which head/ sets so that checksum does twice the work.

/** FNV-1a over the bytes of `data`, in 32 bits, PASSES times over. */
export function checksum(data) {
  let h = 0x811c9dc5 | 0; // an int32 from the start, so V8 keeps the loop on int32 arithmetic
  for (let pass = 0; pass < PASSES; pass++) {
    for (let i = 0; i < data.length; i++) {
      h ^= data[i];
      h = Math.imul(h, 0x01000193);
    }
  }
  return h >>> 0;
}
const PASSES = 1;

/**
 * Sorts a copy of `xs` into `out`, a Float64Array of the same length that the caller makes once,
 * and returns `out` (untouched between base and head): nothing is allocated while it is timed.
 */
export function sortInto(out, xs) {
  out.set(xs);
  return out.sort();
}
