/**
 * Multiple-comparison corrections across benchmarks, as R's `p.adjust` (values that are not finite
 * numbers are left as they are and not counted, like R's NA).
 */

function finiteIndices(p: readonly number[]): number[] {
  const idx: number[] = [];
  p.forEach((v, i) => {
    if (Number.isFinite(v)) idx.push(i);
  });
  return idx;
}

/**
 * Holm's step-down adjustment (Holm 1979, "A simple sequentially rejective multiple test
 * procedure", Scand. J. Statist. 6, 65-70): controls the family-wise error at alpha for any
 * dependence. R: `p.adjust(p, "holm")` = cummax((m + 1 - i) p_(i)) capped at 1, in input order.
 */
export function holm(p: readonly number[]): number[] {
  const out = p.slice();
  const idx = finiteIndices(p).sort((a, b) => (p[a] as number) - (p[b] as number) || a - b);
  const m = idx.length;
  let run = 0;
  idx.forEach((j, i) => {
    run = Math.max(run, (m - i) * (p[j] as number));
    out[j] = Math.min(1, run);
  });
  return out;
}

/**
 * Benjamini–Hochberg step-up adjustment (Benjamini & Hochberg 1995, "Controlling the false
 * discovery rate", JRSS B 57, 289-300): controls the expected share of false findings. R:
 * `p.adjust(p, "BH")` = cummin(m / i p_(i)) from the largest down, capped at 1.
 */
export function benjaminiHochberg(p: readonly number[]): number[] {
  const out = p.slice();
  const idx = finiteIndices(p).sort((a, b) => (p[a] as number) - (p[b] as number) || a - b);
  const m = idx.length;
  let run = Infinity;
  for (let i = m - 1; i >= 0; i--) {
    const j = idx[i] as number;
    run = Math.min(run, (m / (i + 1)) * (p[j] as number));
    out[j] = Math.min(1, run);
  }
  return out;
}
