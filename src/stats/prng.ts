/**
 * mulberry32 (Tommy Ettinger, public domain): a small, fast PRNG with a 32-bit state, uniform in
 * [0, 1). The one seeded generator of the project: the schedule's coins, the sampling inside the
 * Walsh selection, and the simulations of bench/ and the tests all draw from it.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
