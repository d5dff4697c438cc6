/* eslint-disable no-loss-of-precision -- the published coefficients are kept digit for digit as printed */
/**
 * The standard normal distribution, to the precision of R's `pnorm` and `qnorm`.
 *
 * The p-values of the signed-rank test's normal approximation are compared with R to 1e-9 relative,
 * far into the tails (100,000 pairs give z of several hundred), so an erf approximation will not do.
 */

const CODY_A = [2.2352520354606839287, 161.02823106855587881, 1067.6894854603709582, 18154.981253343561249, 0.065682337918207449113];
const CODY_B = [47.20258190468824187, 976.09855173777669322, 10260.932208618978205, 45507.789335026729956];
const CODY_C = [
  0.39894151208813466764, 8.8831497943883759412, 93.506656132177855979, 597.27027639480026226, 2494.5375852903726711,
  6848.1904505362823326, 11602.651437647350124, 9842.7148383839780218, 1.0765576773720192317e-8,
];
const CODY_D = [
  22.266688044328115691, 235.38790178262499861, 1519.377599407554805, 6485.558298266760755, 18615.571640885098091,
  34900.952721145977266, 38912.003286093271411, 19685.429676859990727,
];
const CODY_P = [0.21589853405795699, 0.1274011611602473639, 0.022235277870649807, 0.001421619193227893466, 2.9112874951168792e-5, 0.02307344176494017303];
const CODY_Q = [1.28426009614491121, 0.468238212480865118, 0.0659881378689285515, 0.00378239633202758244, 7.29751555083966205e-5];
const M_1_SQRT_2PI = 0.398942280401432677939946059934;
const M_SQRT_32 = 5.656854249492380195206754896838;

function c(a: readonly number[], i: number): number {
  return a[i] as number;
}

/**
 * Lower and upper tail of the standard normal at `x`: [P(X <= x), P(X > x)].
 *
 * Reference: W. J. Cody (1969), "Rational Chebyshev approximations for the error function",
 * Math. Comp. 23, 631-637, as implemented in R's `pnorm_both` (nmath/pnorm.c, R 4.2), including its
 * splitting of x² for accuracy in the tails and its cut-offs where a tail underflows to 0.
 * Agrees with R's `pnorm` to the last bit or two.
 */
function pnormBoth(x: number): [number, number] {
  if (Number.isNaN(x)) return [NaN, NaN];
  const y = Math.abs(x);
  let cum: number;
  let ccum: number;
  if (y <= 0.67448975) {
    let xnum = 0;
    let xden = 0;
    if (y > Number.EPSILON * 0.5) {
      const xsq = x * x;
      xnum = c(CODY_A, 4) * xsq;
      xden = xsq;
      for (let i = 0; i < 3; i++) {
        xnum = (xnum + c(CODY_A, i)) * xsq;
        xden = (xden + c(CODY_B, i)) * xsq;
      }
    }
    const temp = (x * (xnum + c(CODY_A, 3))) / (xden + c(CODY_B, 3));
    return [0.5 + temp, 0.5 - temp];
  }
  const tail = (xx: number, temp: number): void => {
    const xsq = Math.trunc(xx * 16) / 16;
    const del = (xx - xsq) * (xx + xsq);
    cum = Math.exp(-xsq * xsq * 0.5) * Math.exp(-del * 0.5) * temp;
    ccum = 1.0 - cum;
  };
  cum = 0;
  ccum = 0;
  if (y <= M_SQRT_32) {
    let xnum = c(CODY_C, 8) * y;
    let xden = y;
    for (let i = 0; i < 7; i++) {
      xnum = (xnum + c(CODY_C, i)) * y;
      xden = (xden + c(CODY_D, i)) * y;
    }
    tail(y, (xnum + c(CODY_C, 7)) / (xden + c(CODY_D, 7)));
  } else if (y < 37.5193) {
    // R evaluates this branch per tail; in (8.29, 37.5) the far tail is computed and the near one is 1.
    const xsq = 1.0 / (x * x);
    let xnum = c(CODY_P, 5) * xsq;
    let xden = xsq;
    for (let i = 0; i < 4; i++) {
      xnum = (xnum + c(CODY_P, i)) * xsq;
      xden = (xden + c(CODY_Q, i)) * xsq;
    }
    let temp = (xsq * (xnum + c(CODY_P, 4))) / (xden + c(CODY_Q, 4));
    temp = (M_1_SQRT_2PI - temp) / y;
    tail(x, temp);
  } else {
    return x > 0 ? [1, 0] : [0, 1];
  }
  // cum holds the tail beyond |x|, on the side of x's sign
  return x > 0 ? [ccum, cum] : [cum, ccum];
}

/** P(X <= x) for the standard normal (Cody 1969, as R's `pnorm`). */
export function pnorm(x: number): number {
  return pnormBoth(x)[0];
}

/** P(X > x) for the standard normal (Cody 1969, as R's `pnorm(x, lower.tail = FALSE)`). */
export function pnormUpper(x: number): number {
  return pnormBoth(x)[1];
}

/**
 * The standard normal quantile: x with P(X <= x) = p (or P(X > x) = p when `lowerTail` is false).
 *
 * Reference: M. J. Wichura (1988), "Algorithm AS 241: The percentage points of the normal
 * distribution", Applied Statistics 37, 477-484 (PPND16, about 16 digits), as R's `qnorm` (R 4.2).
 */
export function qnorm(p: number, lowerTail = true): number {
  if (Number.isNaN(p) || p < 0 || p > 1) return NaN;
  if (p === 0) return lowerTail ? -Infinity : Infinity;
  if (p === 1) return lowerTail ? Infinity : -Infinity;
  const pLower = lowerTail ? p : 0.5 - p + 0.5;
  const q = pLower - 0.5;
  let val: number;
  if (Math.abs(q) <= 0.425) {
    const r = 0.180625 - q * q;
    val =
      (q *
        (((((((r * 2509.0809287301226727 + 33430.575583588128105) * r + 67265.770927008700853) * r + 45921.953931549871457) * r +
          13731.693765509461125) *
          r +
          1971.5909503065514427) *
          r +
          133.14166789178437745) *
          r +
          3.387132872796366608)) /
      (((((((r * 5226.495278852854561 + 28729.085735721942674) * r + 39307.89580009271061) * r + 21213.794301586595867) * r +
        5394.1960214247511077) *
        r +
        687.1870074920579083) *
        r +
        42.313330701600911252) *
        r +
        1.0);
    return val;
  }
  let r = q > 0 ? (lowerTail ? 0.5 - p + 0.5 : p) : pLower;
  r = Math.sqrt(-Math.log(r));
  if (r <= 5) {
    r -= 1.6;
    val =
      (((((((r * 7.7454501427834140764e-4 + 0.0227238449892691845833) * r + 0.24178072517745061177) * r + 1.27045825245236838258) * r +
        3.64784832476320460504) *
        r +
        5.7694972214606914055) *
        r +
        4.6303378461565452959) *
        r +
        1.42343711074968357734) /
      (((((((r * 1.05075007164441684324e-9 + 5.475938084995344946e-4) * r + 0.0151986665636164571966) * r + 0.14810397642748007459) * r +
        0.68976733498510000455) *
        r +
        1.6763848301838038494) *
        r +
        2.05319162663775882187) *
        r +
        1.0);
  } else {
    r -= 5;
    val =
      (((((((r * 2.01033439929228813265e-7 + 2.71155556874348757815e-5) * r + 0.0012426609473880784386) * r + 0.026532189526576123093) * r +
        0.29656057182850489123) *
        r +
        1.7848265399172913358) *
        r +
        5.4637849111641143699) *
        r +
        6.6579046435011037772) /
      (((((((r * 2.04426310338993978564e-15 + 1.4215117583164458887e-7) * r + 1.8463183175100546818e-5) * r + 7.868691311456132591e-4) * r +
        0.0148753612908506148525) *
        r +
        0.13692988092273580531) *
        r +
        0.59983220655588793769) *
        r +
        1.0);
  }
  return q < 0 ? -val : val;
}
