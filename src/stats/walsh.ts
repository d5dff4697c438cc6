/**
 * Order statistics of the Walsh averages (x_i + x_j) / 2, i <= j, without listing them.
 *
 * n values have n(n+1)/2 Walsh averages: 5 * 10^9 for 100,000 pairs, far too many to sort. With x
 * sorted, the averages form an implicit matrix whose rows (fixed i, j = i..n-1) and columns are
 * sorted, so the number of averages below any value can be counted in O(n) by walking a staircase.
 * Selection keeps, per row, the range of columns still in play and narrows it around pivots drawn
 * from the remaining candidates: the selection of J. F. Monahan (1984), "Algorithm 616: Fast
 * computation of the Hodges-Lehmann location estimator", ACM TOMS 10(3), 265-270, after Johnson &
 * Mizoguchi (1978), "Selecting the k-th element in X + Y and X1 + X2 + ... + Xm", SIAM J. Comput.
 * 7, 147-153. Instead of one random pivot per pass we draw a random sample of the remaining
 * candidates and take two pivots that bracket the wanted rank with high probability (Floyd & Rivest
 * 1975, "Expected time bounds for selection", CACM 18, 165-172), which cuts the candidates by a
 * factor of about 40 per pass of a few O(n) walks: a handful of passes, O(n log n) in all with the
 * sort of x. Every pass removes at least one candidate, ties or not, so it always terminates.
 *
 * Averages are computed as `(x[i] + x[j]) / 2` in doubles everywhere, so the values returned are
 * bit-identical to the ones a full sort of all averages would put at those ranks.
 */
import { mulberry32 } from './prng.ts';

/** The sampling's generator; results do not depend on it. */
const rng = mulberry32;

const SAMPLE = 16384;

/** Whether some non-zero |x| is so small that sums of two could be subnormal. */
function hasTiny(x: Float64Array): boolean {
  for (let i = 0; i < x.length; i++) {
    const a = Math.abs(x[i] as number);
    if (a !== 0 && a < 1e-290) return true;
  }
  return false;
}

/**
 * Per row i of the implicit matrix, the first column j >= i (clamped to [lo[i], hi[i]]) whose
 * average is >= v (`strict` false) or > v (`strict` true), written to `out`; returns the number of
 * candidates before those columns. One staircase walk, O(n).
 */
function staircase(x: Float64Array, v: number, strict: boolean, lo: Int32Array, hi: Int32Array, out: Int32Array): number {
  // (a + b) / 2 >= v  <=>  a + b >= 2v exactly, as halving and doubling are exact in binary floating
  // point, except near the subnormal range: there (never with real log-ratios) compare the halves.
  const n = x.length;
  const exactHalving = !hasTiny(x);
  const v2 = 2 * v;
  let j = n;
  let count = 0;
  for (let i = 0; i < n; i++) {
    const xi = x[i] as number;
    if (!exactHalving) {
      if (strict) while (j > 0 && (xi + (x[j - 1] as number)) / 2 > v) j--;
      else while (j > 0 && (xi + (x[j - 1] as number)) / 2 >= v) j--;
    } else if (strict) while (j > 0 && xi + (x[j - 1] as number) > v2) j--;
    else while (j > 0 && xi + (x[j - 1] as number) >= v2) j--;
    const l = lo[i] as number;
    const h = hi[i] as number;
    let b = j > i ? j : i;
    if (b < l) b = l;
    if (b > h) b = h;
    out[i] = b;
    count += b - l;
  }
  return count;
}

/**
 * The k-th smallest (1-based) Walsh average of `x`, which must be sorted ascending. `bracket`, if
 * given, is a range of values known to hold it (it only saves work; a wrong one is ignored).
 * Throws a RangeError unless 1 <= k <= n(n+1)/2.
 */
export function walshSelect(x: Float64Array, k: number, bracket?: [number, number]): number {
  const n = x.length;
  const total = (n * (n + 1)) / 2;
  if (!Number.isInteger(k) || k < 1 || k > total) throw new RangeError(`rank ${k} outside 1..${total}`);
  // Candidates of row i are columns [lo[i], hi[i]) (j >= i); `below` counts averages eliminated as smaller.
  const lo = new Int32Array(n);
  const hi = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    lo[i] = i;
    hi[i] = n;
  }
  const b1 = new Int32Array(n);
  const b3 = new Int32Array(n);
  const b4 = new Int32Array(n);
  const rowStart = new Float64Array(n + 1);
  let below = 0;
  let remaining = total;
  if (bracket) {
    // the caller knows the answer lies in [bracket[0], bracket[1]]: start from those candidates
    const c1 = staircase(x, bracket[0], false, lo, hi, b1);
    const c4 = staircase(x, bracket[1], true, lo, hi, b4);
    if (k > c1 && k <= c4) {
      below = c1;
      remaining = c4 - c1;
      lo.set(b1);
      hi.set(b4);
    } else {
      for (let i = 0; i < n; i++) {
        lo[i] = i;
        hi[i] = n;
      }
    }
  }
  const random = rng(0x9e3779b9 ^ n ^ k);
  const smallEnough = Math.max(n >> 2, 1024);
  for (;;) {
    const target = k - below;
    if (remaining <= smallEnough) {
      const buf = new Float64Array(remaining);
      let m = 0;
      for (let i = 0; i < n; i++) {
        const xi = x[i] as number;
        const h = hi[i] as number;
        for (let j = lo[i] as number; j < h; j++) buf[m++] = (xi + (x[j] as number)) / 2;
      }
      selectInPlace(buf, target - 1, 0, remaining);
      const v = buf[target - 1] as number;
      if (v !== 0) return v;
      // a sort puts -0 before +0, selection treats them alike: rank them as the sort would
      let before = 0;
      for (let i = 0; i < remaining; i++) {
        const w = buf[i] as number;
        if (w < 0 || Object.is(w, -0)) before++;
      }
      return target <= before ? -0 : 0;
    }
    // Sample candidates uniformly (with replacement) and bracket the wanted rank.
    rowStart[0] = 0;
    for (let i = 0; i < n; i++) rowStart[i + 1] = (rowStart[i] as number) + ((hi[i] as number) - (lo[i] as number));
    // about n samples (at least 128, at most SAMPLE): drawing one costs about as much as one row of
    // a staircase walk, so a pass costs O(n) whatever the sample, and cuts the candidates by a
    // factor of sqrt(m) / 6 or so
    const m = Math.min(SAMPLE, remaining, Math.max(128, n));
    // m random candidate positions, each found in its row by binary search on the row starts, and
    // the two pivots selected from the sample in O(m) (Hoare's FIND): no sorting at all, which
    // at n of a few hundred costs more than the O(n) staircase walks
    const sample = new Float64Array(m);
    for (let s = 0; s < m; s++) {
      const r = Math.floor(random() * remaining);
      let a = 0;
      let b = n - 1;
      while (a < b) {
        const mid = (a + b + 1) >> 1;
        if ((rowStart[mid] as number) <= r) a = mid;
        else b = mid - 1;
      }
      sample[s] = ((x[a] as number) + (x[(lo[a] as number) + (r - (rowStart[a] as number))] as number)) / 2;
    }
    const spread = 3 * Math.sqrt(m);
    const iLo = Math.max(0, Math.floor((target / remaining) * m - spread));
    const iHi = Math.min(m - 1, Math.ceil((target / remaining) * m + spread));
    selectInPlace(sample, iLo, 0, m);
    selectInPlace(sample, iHi, iLo, m);
    const pLo = sample[iLo] as number;
    const pHi = sample[iHi] as number;
    // Classes: < pLo, [pLo, pHi), = pHi, > pHi. The pivots are candidates, so whichever class
    // holds the rank, keeping only it removes at least one candidate.
    const c1 = staircase(x, pLo, false, lo, hi, b1);
    if (target <= c1) {
      hi.set(b1);
      remaining = c1;
      continue;
    }
    const c3 = staircase(x, pHi, false, lo, hi, b3);
    if (target <= c3) {
      below += c1;
      remaining = c3 - c1;
      lo.set(b1);
      hi.set(b3);
      continue;
    }
    const c4 = staircase(x, pHi, true, lo, hi, b4);
    if (target <= c4) return pHi;
    below += c4;
    remaining -= c4;
    lo.set(b4);
  }
}

/**
 * The Walsh averages of ranks k and k + 1 of sorted `x` (the two middle ones of an even count):
 * the (k+1)-th is the k-th again when that value repeats, else the smallest average above it,
 * found with one more staircase walk.
 */
export function walshSelectPair(x: Float64Array, k: number): [number, number] {
  const n = x.length;
  if (k + 1 > (n * (n + 1)) / 2) throw new RangeError(`rank ${k + 1} outside 1..${(n * (n + 1)) / 2}`);
  const a = walshSelect(x, k);
  return [a, walshSuccessor(x, a, k)];
}

/** Given a = the k-th Walsh average of sorted x, the (k+1)-th: a again if it repeats, else the next larger. */
function walshSuccessor(x: Float64Array, a: number, k: number): number {
  const n = x.length;
  const lo = new Int32Array(n);
  const hi = new Int32Array(n).fill(n);
  for (let i = 0; i < n; i++) lo[i] = i;
  const cols = new Int32Array(n);
  const atMost = staircase(x, a, true, lo, hi, cols);
  if (atMost >= k + 1) return a;
  let next = Infinity;
  for (let i = 0; i < n; i++) {
    const j = cols[i] as number;
    if (j < n) next = Math.min(next, ((x[i] as number) + (x[j] as number)) / 2);
  }
  return next;
}

/**
 * Moves the element of sorted rank k (0-based) of a[lo, hi) into a[k], smaller ones before it and
 * larger ones after (Hoare's FIND with a median-of-three pivot: C. A. R. Hoare 1961, "Algorithm 65:
 * Find", CACM 4, 321). Expected O(hi - lo).
 */
function selectInPlace(a: Float64Array, k: number, lo: number, hi: number): void {
  let l = lo;
  let r = hi - 1;
  while (r > l) {
    const mid = (l + r) >> 1;
    // median of three as the pivot value
    const x = a[l] as number;
    const y = a[mid] as number;
    const z = a[r] as number;
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = l;
    let j = r;
    while (i <= j) {
      while ((a[i] as number) < pivot) i++;
      while ((a[j] as number) > pivot) j--;
      if (i <= j) {
        const t = a[i] as number;
        a[i] = a[j] as number;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) r = j;
    else if (k >= i) l = i;
    else return;
  }
}

/** Up to this many Walsh averages are listed and selected directly; above, the implicit matrix. */
const DIRECT_WALSH_LIMIT = 1 << 11;

/**
 * Walsh averages at several ranks (1-based) of sorted x, in the order asked. With few averages
 * (n up to about 60) they are listed once and selected in place; beyond, each rank is selected on
 * the implicit matrix (`walshSelect`), O(n log n). (Listing up to n = 500, as before, cost 3 ms at
 * n = 300 in `stopCheck`, which the scheduler calls after every round.)
 */
export function walshOrderStatistics(x: Float64Array, ranks: readonly number[]): number[] {
  const n = x.length;
  const total = (n * (n + 1)) / 2;
  for (const k of ranks) if (!Number.isInteger(k) || k < 1 || k > total) throw new RangeError(`rank ${k} outside 1..${total}`);
  if (total > DIRECT_WALSH_LIMIT) {
    // outermost ranks first; each later rank inside them starts from their bracket, and a rank
    // right after one already found is its successor (one staircase walk)
    const order = ranks.map((k, i) => [k, i] as const).sort((a, b) => Math.abs(b[0] - (total + 1) / 2) - Math.abs(a[0] - (total + 1) / 2));
    const found = new Map<number, number>();
    const out = new Array<number>(ranks.length);
    for (const [k, i] of order) {
      let v = found.get(k);
      if (v === undefined) {
        const prev = found.get(k - 1);
        if (prev !== undefined) v = walshSuccessor(x, prev, k - 1);
        else {
          let below = -Infinity;
          let above = Infinity;
          let kb = 0;
          let ka = total + 1;
          for (const [kk, vv] of found) {
            if (kk < k && kk > kb) [kb, below] = [kk, vv];
            if (kk > k && kk < ka) [ka, above] = [kk, vv];
          }
          v = walshSelect(x, k, Number.isFinite(below) && Number.isFinite(above) ? [below, above] : undefined);
        }
        found.set(k, v);
      }
      out[i] = v;
    }
    return out;
  }
  const all = new Float64Array(total);
  let m = 0;
  for (let i = 0; i < n; i++) {
    const xi = x[i] as number;
    for (let j = i; j < n; j++) all[m++] = (xi + (x[j] as number)) / 2;
  }
  const order = ranks.map((k, i) => [k - 1, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(ranks.length);
  let lo = 0;
  for (const [k, i] of order) {
    selectInPlace(all, k, lo, total);
    out[i] = all[k] as number;
    lo = k;
  }
  return out;
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
