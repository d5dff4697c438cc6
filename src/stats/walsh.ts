/**
 * Order statistics of the Walsh averages (x_i + x_j) / 2, i <= j, without listing them.
 *
 * n values have n(n+1)/2 Walsh averages: 5 * 10^9 for 100,000 pairs, far too many to sort. With x
 * sorted, the averages form an implicit matrix whose rows (fixed i, j = i..n-1) and columns are
 * sorted, so the number of averages below any value can be counted in O(n) by walking a staircase,
 * and the k-th smallest found by repeatedly partitioning the remaining candidates around a random
 * one of them. This is the selection algorithm of J. F. Monahan (1984), "Algorithm 616: Fast
 * computation of the Hodges-Lehmann location estimator", ACM TOMS 10(3), 265-270 (itself after
 * Johnson & Mizoguchi 1978, "Selecting the k-th element in X + Y and X1 + X2 + ... + Xm",
 * SIAM J. Comput. 7, 147-153): expected O(log n) partitions of O(n) each, O(n log n) in all.
 *
 * Averages are computed as `(x[i] + x[j]) / 2` in doubles everywhere, so the value returned is
 * bit-identical to the one a full sort of all averages would put at rank k.
 */

/** A small deterministic generator (mulberry32) for pivot choice; results do not depend on it. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The k-th smallest (1-based) Walsh average of `x`, which must be sorted ascending.
 * Throws a RangeError unless 1 <= k <= n(n+1)/2.
 */
export function walshSelect(x: Float64Array, k: number): number {
  const n = x.length;
  const total = (n * (n + 1)) / 2;
  if (!Number.isInteger(k) || k < 1 || k > total) throw new RangeError(`k = ${k} outside 1..${total}`);
  // Candidates of row i are columns [lo[i], hi[i]) (j >= i); `below` counts averages eliminated as smaller.
  const lo = new Int32Array(n);
  const hi = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    lo[i] = i;
    hi[i] = n;
  }
  let below = 0;
  let remaining = total;
  const random = rng(0x9e3779b9 ^ n ^ k);
  const smallEnough = Math.max(n, 256);
  for (;;) {
    if (remaining <= smallEnough) {
      const buf = new Float64Array(remaining);
      let m = 0;
      for (let i = 0; i < n; i++) {
        const xi = x[i] as number;
        for (let j = lo[i] as number; j < (hi[i] as number); j++) buf[m++] = (xi + (x[j] as number)) / 2;
      }
      buf.sort();
      return buf[k - below - 1] as number;
    }
    // A random remaining candidate as the pivot.
    let r = Math.floor(random() * remaining);
    let pivot = NaN;
    for (let i = 0; i < n; i++) {
      const len = (hi[i] as number) - (lo[i] as number);
      if (r < len) {
        pivot = ((x[i] as number) + (x[(lo[i] as number) + r] as number)) / 2;
        break;
      }
      r -= len;
    }
    // Staircase walks: for each row, the first column whose average is >= pivot (lt) and > pivot (le).
    let countLess = 0;
    let countLessEq = 0;
    let jl = n;
    let je = n;
    for (let i = 0; i < n; i++) {
      const xi = x[i] as number;
      while (jl > 0 && (xi + (x[jl - 1] as number)) / 2 >= pivot) jl--;
      while (je > 0 && (xi + (x[je - 1] as number)) / 2 > pivot) je--;
      const l = lo[i] as number;
      const h = hi[i] as number;
      const bl = Math.min(Math.max(jl, i, l), h);
      const be = Math.min(Math.max(je, i, l), h);
      countLess += bl - l;
      countLessEq += be - l;
    }
    const target = k - below;
    if (target <= countLess) {
      // the answer is below the pivot: keep only candidates < pivot
      jl = n;
      remaining = 0;
      for (let i = 0; i < n; i++) {
        const xi = x[i] as number;
        while (jl > 0 && (xi + (x[jl - 1] as number)) / 2 >= pivot) jl--;
        const l = lo[i] as number;
        const h = Math.min(Math.max(jl, i, l), hi[i] as number);
        hi[i] = h;
        remaining += h - l;
      }
    } else if (target <= countLessEq) {
      return pivot;
    } else {
      // the answer is above the pivot: drop candidates <= pivot
      below += countLessEq;
      je = n;
      remaining = 0;
      for (let i = 0; i < n; i++) {
        const xi = x[i] as number;
        while (je > 0 && (xi + (x[je - 1] as number)) / 2 > pivot) je--;
        const h = hi[i] as number;
        const l = Math.min(Math.max(je, i, lo[i] as number), h);
        lo[i] = l;
        remaining += h - l;
      }
    }
  }
}

/** All Walsh averages, sorted: the O(n²) definition, for tests and tiny n only. */
export function walshAveragesNaive(x: ArrayLike<number>): Float64Array {
  const n = x.length;
  const out = new Float64Array((n * (n + 1)) / 2);
  let m = 0;
  for (let i = 0; i < n; i++) for (let j = i; j < n; j++) out[m++] = ((x[i] as number) + (x[j] as number)) / 2;
  out.sort();
  return out;
}
