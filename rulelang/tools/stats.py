"""Small statistics toolkit (no numpy / scipy): intervals and tests for the simulator."""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion; (0, 1) when n == 0."""
    if n <= 0:
        return (0.0, 1.0)
    if successes < 0 or successes > n:
        raise ValueError("successes must be within 0..n")
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return (min(lo, p), max(hi, p))


def mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else float("nan")


def variance(xs: Sequence[float]) -> float:
    """Sample variance (n - 1 denominator); nan below two values."""
    n = len(xs)
    if n < 2:
        return float("nan")
    m = mean(xs)
    return sum((x - m) ** 2 for x in xs) / (n - 1)


def stdev(xs: Sequence[float]) -> float:
    v = variance(xs)
    return math.sqrt(v) if v == v else float("nan")


def normal_cdf(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2))


def two_sided_normal_p(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


@dataclass(frozen=True)
class TestResult:
    statistic: float
    p_value: float
    test: str

    def significant(self, alpha: float = 0.05) -> bool:
        return self.p_value == self.p_value and self.p_value < alpha


def two_proportion_z(x1: int, n1: int, x2: int, n2: int) -> TestResult:
    """Two-sided two-proportion z-test with the pooled variance."""
    if n1 <= 0 or n2 <= 0:
        return TestResult(float("nan"), float("nan"), "z")
    p1, p2 = x1 / n1, x2 / n2
    pooled = (x1 + x2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return TestResult(0.0, 1.0, "z")
    z = (p1 - p2) / se
    return TestResult(z, two_sided_normal_p(z), "z")


# --- Student t distribution through the regularized incomplete beta function ---

def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction for the incomplete beta function (Numerical Recipes)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1) < 3e-14:
            break
    return h


def regularized_beta(a: float, b: float, x: float) -> float:
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    lbeta = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
    front = math.exp(lbeta + a * math.log(x) + b * math.log(1 - x))
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1 - front * _betacf(b, a, 1 - x) / b


def t_two_sided_p(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's t with df degrees of freedom."""
    if df != df or df <= 0:
        return float("nan")
    if math.isinf(t):
        return 0.0
    return regularized_beta(df / 2, 0.5, df / (df + t * t))


def welch_t(xs: Sequence[float], ys: Sequence[float]) -> TestResult:
    """Welch's unequal-variance t-test, two-sided."""
    n1, n2 = len(xs), len(ys)
    if n1 < 2 or n2 < 2:
        return TestResult(float("nan"), float("nan"), "welch")
    v1, v2 = variance(xs), variance(ys)
    se2 = v1 / n1 + v2 / n2
    diff = mean(xs) - mean(ys)
    if se2 == 0:
        return TestResult(0.0 if diff == 0 else math.copysign(math.inf, diff),
                          1.0 if diff == 0 else 0.0, "welch")
    t = diff / math.sqrt(se2)
    df = se2 * se2 / ((v1 / n1) ** 2 / (n1 - 1) + (v2 / n2) ** 2 / (n2 - 1)) if v1 or v2 else n1 + n2 - 2
    return TestResult(t, t_two_sided_p(t, df), "welch")


@dataclass(frozen=True)
class Summary:
    n: int
    mean: float
    sd: float
    minimum: float
    maximum: float

    def fmt(self, digits: int = 2) -> str:
        if self.n == 0:
            return "-"
        sd = "-" if self.sd != self.sd else f"{self.sd:.{digits}f}"
        return f"{self.mean:.{digits}f} ± {sd}"


def summarize(xs: Sequence[float]) -> Summary:
    if not xs:
        return Summary(0, float("nan"), float("nan"), float("nan"), float("nan"))
    return Summary(len(xs), mean(xs), stdev(xs), min(xs), max(xs))


# --- Paired and clustered statistics (balance studies: one value per match, paired by seed) ---

def t_quantile(q: float, df: float) -> float:
    """The t value with P(|T| <= t) = q (two-sided), by bisection on `t_two_sided_p`."""
    if df != df or df <= 0:
        return float("nan")
    lo, hi = 0.0, 1.0
    while t_two_sided_p(hi, df) > 1 - q:
        hi *= 2
    for _ in range(100):
        mid = (lo + hi) / 2
        if t_two_sided_p(mid, df) > 1 - q:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


@dataclass(frozen=True)
class Estimate:
    """A figure with its 95% interval (`lo`, `hi`) from `n` independent units (matches)."""

    value: float
    lo: float
    hi: float
    n: int

    def to_dict(self) -> dict[str, object]:
        return {"value": self.value, "ci95": [self.lo, self.hi], "n": self.n}


def mean_interval(xs: Sequence[float], level: float = 0.95) -> Estimate:
    """The mean with its Student t interval (nan bounds below two values)."""
    n = len(xs)
    m = mean(xs)
    if n < 2:
        return Estimate(m, float("nan"), float("nan"), n)
    half = t_quantile(level, n - 1) * stdev(xs) / math.sqrt(n)
    return Estimate(m, m - half, m + half, n)


def proportion(successes: int, n: int) -> Estimate:
    """A proportion with its Wilson interval."""
    lo, hi = wilson_interval(successes, n)
    return Estimate(successes / n if n else float("nan"), lo, hi, n)


def ratio_interval(nums: Sequence[float], dens: Sequence[float], z: float = Z95) -> Estimate:
    """sum(nums) / sum(dens) over clusters (matches), with a cluster-robust (delta method) interval.

    For rates over rounds, which are not independent within a match: each match is one unit."""
    n = len(nums)
    tn, td = sum(nums), sum(dens)
    if n == 0 or td == 0:
        return Estimate(float("nan"), float("nan"), float("nan"), n)
    r = tn / td
    if n < 2:
        return Estimate(r, float("nan"), float("nan"), n)
    dbar = td / n
    var = sum((a - r * b) ** 2 for a, b in zip(nums, dens)) / (n - 1) / (n * dbar * dbar)
    half = z * math.sqrt(var)
    return Estimate(r, r - half, r + half, n)


def binomial_two_sided(k: int, n: int) -> float:
    """Exact two-sided p of k successes in n fair trials (twice the smaller tail, at most 1)."""
    if n <= 0:
        return 1.0
    k = min(k, n - k)
    # log-space sum of the tail: exact and safe for large n
    logs = [math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) - n * math.log(2) for i in range(k + 1)]
    top = max(logs)
    tail = math.exp(top) * sum(math.exp(x - top) for x in logs)
    return min(1.0, 2 * tail)


def mcnemar_exact(a_only: int, b_only: int) -> TestResult:
    """McNemar's exact test for paired binary outcomes: discordant pairs (A yes B no, A no B yes)."""
    n = a_only + b_only
    return TestResult(float(a_only - b_only), binomial_two_sided(a_only, n) if n else 1.0, "mcnemar")


def paired_t(xs: Sequence[float], ys: Sequence[float]) -> TestResult:
    """Two-sided paired t-test on the per-pair differences x - y."""
    if len(xs) != len(ys):
        raise ValueError("paired samples must have the same length")
    d = [x - y for x, y in zip(xs, ys)]
    n = len(d)
    if n < 2:
        return TestResult(float("nan"), float("nan"), "paired t")
    m, sd = mean(d), stdev(d)
    if sd == 0:
        return TestResult(0.0 if m == 0 else math.copysign(math.inf, m), 1.0 if m == 0 else 0.0, "paired t")
    t = m / (sd / math.sqrt(n))
    return TestResult(t, t_two_sided_p(t, n - 1), "paired t")


def holm(p_values: Sequence[float], alpha: float = 0.05) -> list[bool]:
    """Holm-Bonferroni: which of a family of p-values stay significant at family-wise level alpha."""
    order = sorted((p, i) for i, p in enumerate(p_values) if p == p)
    out = [False] * len(p_values)
    m = len(order)
    for rank, (p, i) in enumerate(order):
        if p < alpha / (m - rank):
            out[i] = True
        else:
            break
    return out


def format_p(p: float) -> str:
    """A p-value as people write it: three decimals, '< 0.001' below (never 'p = 0'); '-' when undefined."""
    if p != p:
        return "-"
    if p < 0.001:
        return "< 0.001"
    return f"{p:.3f}"
