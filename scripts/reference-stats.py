#!/usr/bin/env python3
"""Reference values for pairbench's statistics room (src/stats/), from R and scipy.

Writes tests/fixtures/stats/reference.json, which tests/stats/reference.test.ts compares against
(the tests need neither R nor Python). Re-run after changing a convention:

    apt-get install -y r-base-core     # R >= 4.2: wilcox.test, p.adjust, pnorm, qnorm
    pip install numpy scipy            # scipy >= 1.13
    python3 scripts/reference-stats.py

The reference for the signed-rank test, the Hodges-Lehmann estimate and its interval is R's
wilcox.test(d, conf.int = TRUE, conf.level = ...) with its defaults: zeros dropped (Wilcoxon's
convention, scipy's zero_method="wilcox"), exact distribution when fewer than 50 non-zero values
remain with no ties and no zeros, otherwise the normal approximation with tie correction and a 0.5
continuity correction. Every p-value is cross-checked against scipy.stats.wilcoxon called with the
same convention (correction=True, method="exact" or "asymptotic" as R decides); scipy's default call
(no continuity correction, exact up to n <= 50) is recorded for information only.

Exact p-values are also computed here as exact rationals (counts / 2^n, with integers), so the
tests can demand bit-for-bit equality. R's normal-approximation interval and estimate come from
uniroot() (tolerance 1e-4) on a step function whose jumps are Walsh averages; this script finds by
brute force (all Walsh averages, bisection on the step function evaluated exactly as R's W()) the
Walsh average each root-finding converges to, and checks that R's answer is within its tolerance.
Those brute-force values are the 1e-9 targets for the normal case.

Zeros: the p-value keeps R's convention (dropped). pairbench's estimate and interval count zeros as
values (Pratt 1959, JASA 54, 655-667; Lehmann 1975, Nonparametrics, ch. 4): every case with zeros
also gets `keepZeros`, whose R reference is wilcox.test(d + 1, conf.int = TRUE) minus 1 (with no
value at 0, R inverts the test over all n values) and whose 1e-9 targets are computed here from the
Walsh averages of all values.
"""

from __future__ import annotations

import json
import math
import os
import platform
import subprocess
import sys
import tempfile
from fractions import Fraction

import numpy as np
import scipy
from scipy import stats

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "fixtures", "stats", "reference.json")
SEED = 20240611


def r_version() -> str:
    out = subprocess.run(["Rscript", "-e", "cat(R.version.string)"], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def run_r(script: str) -> str:
    with tempfile.NamedTemporaryFile("w", suffix=".R", delete=False) as f:
        f.write(script)
        path = f.name
    try:
        out = subprocess.run(["Rscript", "--vanilla", path], capture_output=True, text=True, check=True)
    finally:
        os.unlink(path)
    return out.stdout


def fmt(x: float) -> str:
    return repr(float(x))


# ---------------------------------------------------------------------------------------------
# Cases for the signed-rank test and Hodges-Lehmann interval
# ---------------------------------------------------------------------------------------------

def make_cases() -> list[dict]:
    rng = np.random.default_rng(SEED)
    cases: list[dict] = []

    def add(name: str, d, conf: float = 0.95):
        cases.append({"name": name, "d": [float(v) for v in d], "confLevel": conf})

    # tiny n, continuous
    for n in range(1, 6):
        add(f"tiny-n{n}", rng.normal(0.02, 0.05, n))
    # n = 1..60 exact/normal boundary, continuous, several shifts
    for n in range(1, 61):
        shift = [0.0, 0.01, 0.03][n % 3]
        add(f"continuous-n{n}", rng.normal(shift, 0.03, n))
    # several confidence levels
    for conf in (0.8, 0.9, 0.99):
        for n in (7, 20, 49, 50, 120):
            add(f"conf{conf}-n{n}", rng.normal(0.01, 0.02, n), conf)
    # ties (quantized log-ratios) at several n, including ties between +v and -v
    for n in (6, 8, 12, 15, 30, 49, 70, 150):
        add(f"ties-n{n}", np.round(rng.normal(0.01, 0.03, n), 2))
    add("ties-plusminus", [0.01, -0.01, 0.02, -0.02, 0.03, 0.01, 0.05, -0.04, 0.02, 0.06])
    # zeros (head == base), with and without other ties
    for n in (5, 10, 25, 60):
        d = rng.normal(0.02, 0.04, n)
        d[rng.choice(n, size=max(1, n // 5), replace=False)] = 0.0
        add(f"zeros-n{n}", d)
    add("zeros-and-ties", [0, 0, 0.01, 0.01, 0.02, -0.01, 0.03, 0.03, 0.0, 0.05, 0.04, -0.02])
    # skewed and heavy-tailed
    for n in (12, 40, 80, 300):
        add(f"skewed-n{n}", rng.exponential(0.03, n) - 0.01)
        add(f"heavy-n{n}", 0.01 + 0.02 * rng.standard_t(2, n))
        add(f"cauchy-n{n}", 0.005 * rng.standard_cauchy(n))
    # all one sign (smallest p), tiny spread
    add("all-positive-n12", np.abs(rng.normal(0.05, 0.01, 12)))
    add("all-negative-n60", -np.abs(rng.normal(0.05, 0.01, 60)))
    # large n
    for n in (500, 2000, 5000):
        add(f"large-n{n}", rng.normal(0.004, 0.02, n))
    add("large-ties-n3000", np.round(rng.normal(0.002, 0.01, 3000), 3))
    # mostly zeros (counts and sizes): Go's B/op, 26 of 30 pairs equal, 4 one byte apart; and more
    grid = lambda v: np.sign(v) * np.round(np.abs(v) / 1e-12) * 1e-12  # noqa: E731 (analysis.ts logRatios)
    go = [0.0] * 26 + [math.log(8193 / 8192), math.log(8192 / 8193), math.log(8194 / 8193), math.log(8193 / 8194)]
    add("zeros-mostly-go-bytes-n30", grid(np.array(go)))
    add("zeros-one-n20", np.concatenate([[0.0], rng.normal(0.01, 0.02, 19)]))
    add("zeros-mostly-n60", np.concatenate([np.zeros(45), np.round(rng.normal(0.001, 0.002, 15), 4)]))
    add("zeros-half-n200", np.concatenate([np.zeros(100), rng.normal(0.01, 0.01, 100)]))
    # the levels of several benchmarks judged together (judge.ts, intervalAlpha: 1 - alpha/k for
    # Holm, 1 - R alpha/m for BH), also halved again after an early stop; small n cannot reach
    # the highest levels and R lowers them (the achieved level is recorded)
    for conf in (0.975, 0.99, 0.995, 0.9975, 0.999, 0.9995, 0.99975):
        for n in (6, 11, 20, 49, 50, 200):
            add(f"multi{conf}-n{n}", rng.normal(0.01, 0.02, n), conf)
    add("multi0.999-zeros-n40", np.concatenate([np.zeros(8), rng.normal(0.01, 0.02, 32)]), 0.999)
    add("multi0.995-ties-n30", np.round(rng.normal(0.01, 0.03, 30), 2), 0.995)
    # kept zeros tied at one end of the data, where R lowers the confidence and pairbench departs
    # (hodges-lehmann.ts): equal pairs with an excess on one side, as counts of 0 and one-sided pairs
    add("zeros-tied-end-n82", [0.0] * 80 + [-0.05, -0.02])
    add("zeros-tied-end-n24-high", [0.0] * 22 + [0.03, 0.07], 0.9997)
    add("zeros-tied-end-n200", [0.0] * 190 + [0.01 * (k + 1) for k in range(10)], 0.999)
    add("zeros-tied-end-n6", [0.0] * 4 + [0.01, 0.02], 0.95)
    return cases


R_WILCOX = r"""
lines <- readLines("%s")
for (line in lines) {
  parts <- strsplit(line, " ")[[1]]
  conf <- as.numeric(parts[1])
  d <- as.numeric(parts[-1])
  res <- suppressWarnings(wilcox.test(d, conf.int = TRUE, conf.level = conf))
  ci <- res$conf.int
  cl <- attr(ci, "conf.level")
  exact <- grepl("exact", res$method)
  cat(sprintf("%%.17g %%.17g %%.17g %%.17g %%.17g %%s\n", res$p.value, res$estimate, ci[1], ci[2], cl, if (exact) "exact" else "normal"))
}
"""


def r_wilcox(cases: list[dict]) -> list[dict]:
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        for c in cases:
            f.write(" ".join([fmt(c["confLevel"])] + [fmt(v) for v in c["d"]]) + "\n")
        path = f.name
    try:
        out = run_r(R_WILCOX % path)
    finally:
        os.unlink(path)
    results = []
    for line in out.strip().split("\n"):
        p, est, lo, hi, cl, method = line.split()
        results.append({
            "p": float(p), "estimate": float(est), "lower": float(lo), "upper": float(hi),
            "confLevel": float(cl), "method": method,
        })
    assert len(results) == len(cases)
    return results


def signrank_counts(n: int) -> list[int]:
    total = n * (n + 1) // 2
    w = [0] * (total + 1)
    w[0] = 1
    for i in range(1, n + 1):
        for v in range(i * (i + 1) // 2, i - 1, -1):
            w[v] += w[v - i]
    return w


def signrank_counts_any(n: int) -> np.ndarray:
    """P(V = v) under the untied null of n values: exact integer counts over 2^n up to n = 600
    (numpy object arrays), a float recursion halving at each step beyond."""
    total = n * (n + 1) // 2
    if n <= 600:
        w = np.zeros(total + 1, dtype=object)
        w[0] = 1
        for i in range(1, n + 1):
            top = i * (i + 1) // 2
            w[i : top + 1] = w[i : top + 1] + w[0 : top + 1 - i]
        return np.array([Fraction(int(c), 2**n) for c in w], dtype=float)
    w = np.zeros(total + 1)
    w[0] = 1.0
    for i in range(1, n + 1):
        top = i * (i + 1) // 2
        w[i : top + 1] = w[i : top + 1] + w[0 : top + 1 - i]
        w[: top + 1] /= 2
    return w


def exact_p(x: np.ndarray) -> float:
    """Exact two-sided p (R's rule: the tail on V's side, doubled, capped at 1) as a rational."""
    n = len(x)
    ranks = stats.rankdata(np.abs(x))
    v = int(round(float(np.sum(ranks[x > 0]))))
    counts = signrank_counts(n)
    if v > n * (n + 1) / 4:
        tail = sum(counts[v:])
    else:
        tail = sum(counts[: v + 1])
    p = Fraction(2 * tail, 2 ** n)
    return float(min(p, Fraction(1)))


def r_w(x: np.ndarray, mu: float, correct: bool) -> float:
    """R's W(d) inside wilcox.test: standardized signed-rank statistic of x - mu (zeros dropped)."""
    xd = x - mu
    xd = xd[xd != 0]
    nx = len(xd)
    dr = stats.rankdata(np.abs(xd))
    zd = float(np.sum(dr[xd > 0])) - nx * (nx + 1) / 4
    _, t = np.unique(dr, return_counts=True)
    sigma = math.sqrt(nx * (nx + 1) * (2 * nx + 1) / 24 - float(np.sum(t.astype(float) ** 3 - t)) / 48)
    corr = (np.sign(zd) * 0.5) if correct else 0.0
    return (zd - corr) / sigma


def walsh(x: np.ndarray) -> np.ndarray:
    i, j = np.triu_indices(len(x))
    return np.sort((x[i] + x[j]) / 2)


def crossing(x: np.ndarray, uniq: np.ndarray, zq: float) -> float:
    """The Walsh average at which the non-increasing step function W(mu) - zq changes sign."""
    # W evaluated between uniq[k-1] and uniq[k] (k = 0: below all); find the first k with W - zq < 0.
    def w_between(k: int) -> float:
        if k == 0:
            mu = uniq[0] - 1.0
        elif k == len(uniq):
            mu = uniq[-1] + 1.0
        else:
            mu = (uniq[k - 1] + uniq[k]) / 2
        return r_w(x, mu, True) - zq

    lo, hi = 0, len(uniq)  # w_between(lo) >= 0 > w_between(hi) expected
    if w_between(0) < 0:
        return float(uniq[0])
    if w_between(len(uniq)) >= 0:
        return float(uniq[-1])
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if w_between(mid) >= 0:
            lo = mid
        else:
            hi = mid
    return float(uniq[hi - 1])


def targets(case: dict, r: dict) -> dict:
    d = np.array(case["d"], dtype=float)
    x = d[d != 0]
    n = len(x)
    out: dict = {"n": n, "zeros": int(len(d) - n)}
    if n == 0:
        return out
    w = walsh(x)
    total = len(w)
    est = float(w[total // 2]) if total % 2 == 1 else float((w[total // 2 - 1] + w[total // 2]) / 2)
    out["estimate"] = est
    out["walshMiddle"] = [float(w[(total - 1) // 2]), float(w[total // 2])]
    ties = len(np.unique(np.abs(x))) != n
    if n < 50 and not ties and len(d) == n:
        out["pExact"] = exact_p(x)
        out["lower"], out["upper"] = r["lower"], r["upper"]
        return out
    if np.all(x == x[0]):
        return out
    if r["confLevel"] < case["confLevel"] - 1e-9:
        # R lowered the confidence (values tied at an end): pairbench's closed interval at the ranks
        # of the UNTIED signed-rank null of the n non-zero values (Noether 1967), when that reaches
        # the level, as targets_keep does for kept zeros
        a = 1 - case["confLevel"]
        cum = np.cumsum(signrank_counts_any(n))
        q = max(next(i for i in range(len(cum)) if cum[i] >= a / 2 - 10 * np.finfo(float).eps), 1)
        tail = float(cum[q - 1])
        if 1 - 2 * tail >= case["confLevel"] - 1e-12:
            out["lower"], out["upper"] = float(w[q - 1]), float(w[total - q])
            out["tiedEnd"] = {"rank": q, "confidence": 1 - 2 * tail}
            return out
    uniq = np.unique(w)
    alpha = 1 - r["confLevel"]
    if alpha >= 1:
        out["lower"] = out["upper"] = float(np.median(x))
        return out
    zq = stats.norm.isf(alpha / 2)
    out["lower"] = crossing(x, uniq, zq)
    out["upper"] = crossing(x, uniq, -zq)
    out["alphaUsed"] = alpha
    return out


R_WILCOX_SHIFTED = r"""
lines <- readLines("%s")
for (line in lines) {
  parts <- strsplit(line, " ")[[1]]
  conf <- as.numeric(parts[1])
  d <- as.numeric(parts[-1])
  res <- suppressWarnings(wilcox.test(d + 1, conf.int = TRUE, conf.level = conf))
  ci <- res$conf.int
  exact <- grepl("exact", res$method)
  cat(sprintf("%%.17g %%.17g %%.17g %%.17g %%s\n", res$estimate - 1, ci[1] - 1, ci[2] - 1, attr(ci, "conf.level"), if (exact) "exact" else "normal"))
}
"""


def r_wilcox_shifted(cases: list[dict]) -> list[dict]:
    """Zeros kept: R's wilcox.test on d + 1 (no value is 0 then, ties = duplicated values), minus 1."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        for c in cases:
            f.write(" ".join([fmt(c["confLevel"])] + [fmt(v) for v in c["d"]]) + "\n")
        path = f.name
    try:
        out = run_r(R_WILCOX_SHIFTED % path)
    finally:
        os.unlink(path)
    res = []
    for line in out.strip().split("\n"):
        est, lo, hi, cl, method = line.split()
        res.append({"estimate": float(est), "lower": float(lo), "upper": float(hi), "confLevel": float(cl), "method": method})
    return res


def targets_keep(case: dict, rk: dict) -> dict:
    """Zeros kept, from the definition: order statistics of the Walsh averages of ALL values, at the
    ranks of the signed-rank test over all n values (exact counts with no two values equal, else the
    normal approximation with the tie correction of the duplicated values, as R on shifted data)."""
    x = np.sort(np.array(case["d"], dtype=float))
    n = len(x)
    w = walsh(x)
    total = len(w)
    out: dict = {"n": n, "method": rk["method"]}
    out["estimate"] = float(w[total // 2]) if total % 2 == 1 else float((w[total // 2 - 1] + w[total // 2]) / 2)
    alpha = 1 - case["confLevel"]
    if n < 50 and len(np.unique(x)) == n:
        counts = signrank_counts(n)
        cum = np.cumsum(counts)
        q = next(i for i in range(len(cum)) if cum[i] / 2 ** n >= alpha / 2 - 10 * np.finfo(float).eps)
        q = max(q, 1)
        out["lower"], out["upper"] = float(w[q - 1]), float(w[total - q])
        out["method"] = "exact"
        return out
    if rk["confLevel"] < case["confLevel"] - 1e-9:
        # R lowered the confidence (values tied at an end): pairbench's closed interval at the ranks
        # of the UNTIED signed-rank null over all n values (Noether 1967), when that reaches the level
        cum = np.cumsum(signrank_counts_any(n))
        q = next(i for i in range(len(cum)) if cum[i] >= alpha / 2 - 10 * np.finfo(float).eps)
        q = max(q, 1)
        tail = float(cum[q - 1]) if q >= 1 else 0.0
        if 1 - 2 * tail >= case["confLevel"] - 1e-12:
            out["lower"], out["upper"] = float(w[q - 1]), float(w[total - q])
            out["method"] = "normal"
            out["tiedEnd"] = {"rank": q, "confidence": 1 - 2 * tail}
            return out
    a = 1 - rk["confLevel"]
    zq = stats.norm.isf(a / 2)
    uniq = np.unique(w)
    out["lower"] = crossing(x, uniq, zq)
    out["upper"] = crossing(x, uniq, -zq)
    out["method"] = "normal"
    return out


def scipy_p(d: np.ndarray, method: str) -> dict:
    matching = stats.wilcoxon(d, correction=True, method="exact" if method == "exact" else "asymptotic", zero_method="wilcox")
    default = stats.wilcoxon(d)
    return {"pMatching": float(matching.pvalue), "pDefault": float(default.pvalue)}


# ---------------------------------------------------------------------------------------------
# Other references: p.adjust, pnorm/qnorm, rank-sum, binomial test and upper tail (p = 1/3), quantiles
# ---------------------------------------------------------------------------------------------

R_OTHER = r"""
fmt <- function(v) paste(sprintf("%%.17g", v), collapse = " ")
pv <- readLines("%s")
for (line in pv) {
  p <- as.numeric(strsplit(line, " ")[[1]])
  cat("holm", fmt(p.adjust(p, "holm")), "\n")
  cat("bh", fmt(p.adjust(p, "BH")), "\n")
}
z <- c(-40, -38, -37.5, -30, -20, -10, -8.3, -8, -6, -5.7, -5.6, -3, -1.96, -1, -0.6744, -0.5, -1e-10, 0, 1e-10, 0.3, 0.6745, 1, 1.5, 2.5, 5, 5.66, 7, 9, 15, 36, 38)
cat("pnormz", fmt(z), "\n")
cat("pnorm", fmt(pnorm(z)), "\n")
cat("pnormu", fmt(pnorm(z, lower.tail = FALSE)), "\n")
p <- c(1e-300, 1e-100, 1e-20, 1e-11, 1e-8, 0.0001, 0.001, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.2, 0.3, 0.5, 0.6, 0.8, 0.9, 0.925, 0.95, 0.975, 0.99, 0.999999)
cat("qnormp", fmt(p), "\n")
cat("qnorm", fmt(qnorm(p)), "\n")
cat("qnormu", fmt(qnorm(p, lower.tail = FALSE)), "\n")
rs <- readLines("%s")
for (i in seq(1, length(rs), by = 2)) {
  x <- as.numeric(strsplit(rs[i], " ")[[1]])
  y <- as.numeric(strsplit(rs[i + 1], " ")[[1]])
  cat("ranksum", fmt(suppressWarnings(wilcox.test(x, y, exact = FALSE))$p.value), "\n")
}
for (k in 0:12) cat("binom", k, fmt(binom.test(k, 12)$p.value), "\n")
for (k in c(0, 3, 10, 40, 47, 50)) cat("binom100", k, fmt(binom.test(k, 100)$p.value), "\n")
for (km in list(c(0, 20), c(7, 20), c(11, 20), c(15, 20), c(20, 20), c(21, 40), c(3, 4), c(1, 1))) cat("binomthird", km[1], km[2], fmt(pbinom(km[1] - 1, km[2], 1/3, lower.tail = FALSE)), "\n")
q <- readLines("%s")
for (line in q) {
  v <- as.numeric(strsplit(line, " ")[[1]])
  cat("quantile", fmt(quantile(v, c(0, 0.1, 0.25, 0.5, 0.75, 0.9, 1), type = 7, names = FALSE)), fmt(IQR(v)), fmt(mad(v, constant = 1)), fmt(sd(v)), "\n")
}
"""


def other_references(rng: np.random.Generator) -> dict:
    pvecs = [
        [0.01, 0.04, 0.03, 0.005, 0.5, 0.2],
        [0.001, 0.001, 0.02, 0.02, 0.9, 1.0, 0.04],
        list(rng.uniform(0, 0.2, 25)),
        [0.3],
        [1e-12, 0.049, 0.051],
    ]
    ranksum = []
    for nx, ny, shift in ((5, 7, 0.0), (10, 10, 0.5), (30, 25, 0.2), (8, 12, 1.0)):
        x = np.round(rng.normal(0, 1, nx), 1)
        y = np.round(rng.normal(shift, 1, ny), 1)
        ranksum.append((list(x), list(y)))
    qvecs = [list(rng.normal(0, 1, n)) for n in (3, 4, 10, 33)] + [[1.0, 1.0, 2.0, 2.0, 2.0, 5.0]]
    files = []
    for content in (
        "\n".join(" ".join(fmt(v) for v in p) for p in pvecs),
        "\n".join(" ".join(fmt(v) for v in side) for pair in ranksum for side in pair),
        "\n".join(" ".join(fmt(v) for v in q) for q in qvecs),
    ):
        f = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
        f.write(content + "\n")
        f.close()
        files.append(f.name)
    try:
        out = run_r(R_OTHER % tuple(files))
    finally:
        for path in files:
            os.unlink(path)
    lines = [line.split() for line in out.strip().split("\n")]
    res: dict = {"pAdjust": [], "ranksum": [], "binom": [], "quantile": []}
    holm_vals = [l for l in lines if l[0] == "holm"]
    bh_vals = [l for l in lines if l[0] == "bh"]
    for p, h, b in zip(pvecs, holm_vals, bh_vals):
        res["pAdjust"].append({"p": [float(v) for v in p], "holm": [float(v) for v in h[1:]], "bh": [float(v) for v in b[1:]]})
    get = {l[0]: [float(v) for v in l[1:]] for l in lines if l[0] in ("pnormz", "pnorm", "pnormu", "qnormp", "qnorm", "qnormu")}
    res["pnorm"] = {"z": get["pnormz"], "lower": get["pnorm"], "upper": get["pnormu"]}
    res["qnorm"] = {"p": get["qnormp"], "lower": get["qnorm"], "upper": get["qnormu"]}
    for (x, y), l in zip(ranksum, [l for l in lines if l[0] == "ranksum"]):
        res["ranksum"].append({"x": [float(v) for v in x], "y": [float(v) for v in y], "p": float(l[1])})
    for l in lines:
        if l[0] == "binom":
            res["binom"].append({"k": int(l[1]), "m": 12, "p": float(l[2])})
        if l[0] == "binom100":
            res["binom"].append({"k": int(l[1]), "m": 100, "p": float(l[2])})
        if l[0] == "binomthird":
            res.setdefault("binomUpperThird", []).append({"k": int(l[1]), "m": int(l[2]), "p": float(l[3])})
    for v, l in zip(qvecs, [l for l in lines if l[0] == "quantile"]):
        vals = [float(t) for t in l[1:]]
        res["quantile"].append({"v": [float(t) for t in v], "probs": [0, 0.1, 0.25, 0.5, 0.75, 0.9, 1], "q": vals[:7], "iqr": vals[7], "mad": vals[8], "sd": vals[9]})
    return res


def order_statistics() -> dict:
    """k times the variance of the least (and, for odd k, the median) of k standard normal values,
    by numerical integration of the order statistic's density: the e_k of src/stats/design-model.ts
    (`minEfficiency`, `medianEfficiency`)."""
    from scipy import integrate

    def moment(k: int, r: int, m: int) -> float:
        # density of the r-th smallest of k: k!/((r-1)!(k-r)!) F^(r-1) (1-F)^(k-r) f
        c = math.factorial(k) / (math.factorial(r - 1) * math.factorial(k - r))
        f = lambda x: x**m * c * stats.norm.cdf(x) ** (r - 1) * stats.norm.sf(x) ** (k - r) * stats.norm.pdf(x)
        return integrate.quad(f, -np.inf, np.inf, epsabs=1e-13, epsrel=1e-12)[0]

    def efficiency(k: int, r: int) -> float:
        m1 = moment(k, r, 1)
        return k * (moment(k, r, 2) - m1 * m1)

    ks = list(range(1, 17))
    return {
        "k": ks,
        "minEfficiency": [efficiency(k, 1) for k in ks],
        "medianK": [1, 3, 5, 7, 9],
        "medianEfficiency": [efficiency(k, (k + 1) // 2) for k in (1, 3, 5, 7, 9)],
    }


def main() -> None:
    cases = make_cases()
    r = r_wilcox(cases)
    problems = []
    out_cases = []
    for c, rr in zip(cases, r):
        d = np.array(c["d"], dtype=float)
        t = targets(c, rr)
        sp = scipy_p(d, rr["method"]) if t["n"] > 0 else None
        if sp and not math.isclose(sp["pMatching"], rr["p"], rel_tol=1e-9, abs_tol=1e-300):
            problems.append(f"{c['name']}: scipy {sp['pMatching']} vs R {rr['p']}")
        if "pExact" in t and not math.isclose(t["pExact"], rr["p"], rel_tol=1e-12):
            problems.append(f"{c['name']}: exact {t['pExact']} vs R {rr['p']}")
        if rr["method"] == "normal" and "lower" in t and "tiedEnd" not in t:
            # R's uniroot tolerance is 1e-4 on the root
            for key in ("lower", "upper"):
                if abs(t[key] - rr[key]) > 2e-4:
                    problems.append(f"{c['name']}: {key} target {t[key]} vs R {rr[key]}")
            lo, hi = t["walshMiddle"]
            if not (lo - 2e-4 <= rr["estimate"] <= hi + 2e-4):
                problems.append(f"{c['name']}: estimate R {rr['estimate']} outside [{lo}, {hi}]")
        out_cases.append({**c, "r": rr, "scipy": sp, "target": t})
    if problems:
        print("\n".join(problems), file=sys.stderr)
        sys.exit(1)
    zero_cases = [c for c in out_cases if c["target"]["zeros"] > 0]
    for c, rk in zip(zero_cases, r_wilcox_shifted(zero_cases)):
        tk = targets_keep(c, rk)
        if tk["method"] != rk["method"]:
            problems.append(f"{c['name']}: keep-zeros method {tk['method']} vs R shifted {rk['method']}")
        tol = 1e-12 if rk["method"] == "exact" else 2e-4
        if "tiedEnd" in tk:
            # the documented departure: R's interval is at a lowered confidence, pairbench's at the
            # level asked; nothing of R's to match
            c["keepZeros"] = {"r": rk, "target": tk}
            continue
        for key in ("lower", "upper"):
            if abs(tk[key] - rk[key]) > tol:
                problems.append(f"{c['name']}: keep-zeros {key} {tk[key]} vs R shifted {rk[key]}")
        if rk["method"] == "exact" and abs(tk["estimate"] - rk["estimate"]) > tol:
            problems.append(f"{c['name']}: keep-zeros estimate {tk['estimate']} vs R shifted {rk['estimate']}")
        c["keepZeros"] = {"r": rk, "target": tk}
    if problems:
        print("\n".join(problems), file=sys.stderr)
        sys.exit(1)
    rng = np.random.default_rng(SEED + 1)
    doc = {
        "generatedBy": "scripts/reference-stats.py",
        "seed": SEED,
        "r": r_version(),
        "scipy": scipy.__version__,
        "numpy": np.__version__,
        "python": platform.python_version(),
        "conventions": {
            "reference": "R wilcox.test(d, conf.int = TRUE, conf.level)",
            "zeros": "dropped before ranking (zero_method='wilcox')",
            "exact": "fewer than 50 non-zero values, no ties, no zeros",
            "continuity": "0.5 towards the mean in the normal approximation (R correct = TRUE; scipy correction=True)",
            "normalInterval": "target = the Walsh average where R's uniroot converges (R within 2e-4)",
            "keepZeros": "cases with zeros also carry keepZeros: pairbench's estimate and interval with zeros kept as values (hodgesLehmann zeros: 'keep', used by judge and stopCheck): R wilcox.test(d + 1, conf.int = TRUE) minus 1 (no zero then; ties = duplicated values), targets from the Walsh averages of all values; the p-value stays R's (zeros dropped)",
        },
        "signedRank": out_cases,
        "other": other_references(rng),
        "orderStatistics": order_statistics(),
    }
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump(doc, f, indent=None, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {OUT}: {len(out_cases)} signed-rank cases")


if __name__ == "__main__":
    main()
