"""The statistics the papers report, with the variant each uses stated.

- Kendall's tau: tau-b (ties in either ranking are corrected for), ``scipy.stats.kendalltau``.
- Spearman's rho: Pearson on average ranks (ties get the mean rank), ``scipy.stats.spearmanr``.
- The headline of SE-Jury: the mean of tau and rho.
- Pearson's r, for reference.
- Cohen's kappa between two raters (unweighted; ``weights="linear"|"quadratic"`` for ordinal
  scales), scikit-learn's ``cohen_kappa_score``.
- Wilcoxon signed-rank between two metrics on the same samples (two-sided, zero differences
  dropped: scipy's "wilcox" zero method), with Bonferroni's correction for m comparisons.
- A correlation that is undefined (a constant input) is NaN, never 0.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from pydantic import BaseModel
from scipy import stats as sps


class Correlation(BaseModel):
    n: int
    tau: float  # Kendall tau-b
    rho: float  # Spearman
    r: float  # Pearson

    @property
    def mean(self) -> float:
        """SE-Jury's headline: (tau + rho) / 2."""
        return (self.tau + self.rho) / 2


def _finite(x: float) -> float:
    return float(x) if x is not None and math.isfinite(x) else math.nan


def _constant(xs: Sequence[float]) -> bool:
    return len(set(xs)) <= 1


def correlate(pred: Sequence[float], gold: Sequence[float]) -> Correlation:
    if len(pred) != len(gold):
        raise ValueError(f"{len(pred)} predictions but {len(gold)} labels")
    n = len(pred)
    if n < 2 or _constant(pred) or _constant(gold):
        return Correlation(n=n, tau=math.nan, rho=math.nan, r=math.nan)
    tau = sps.kendalltau(pred, gold, variant="b").statistic
    rho = sps.spearmanr(pred, gold).statistic
    r = sps.pearsonr(pred, gold).statistic
    return Correlation(n=n, tau=_finite(tau), rho=_finite(rho), r=_finite(r))


def cohen_kappa(a: Sequence[int], b: Sequence[int], *, weights: str | None = None) -> float:
    from sklearn.metrics import cohen_kappa_score

    if len(a) != len(b):
        raise ValueError("the two raters rated different numbers of items")
    if not a:
        return math.nan
    if _constant(a) and _constant(b) and a[0] == b[0]:
        return math.nan  # perfect agreement on one category: kappa is undefined (0/0)
    return _finite(cohen_kappa_score(a, b, weights=weights))


class WilcoxonResult(BaseModel):
    statistic: float
    p: float
    p_bonferroni: float  # min(1, p * comparisons)


def wilcoxon(x: Sequence[float], y: Sequence[float], *, comparisons: int = 1) -> WilcoxonResult:
    """Two-sided signed-rank test of paired samples (e.g. two metrics' absolute errors)."""
    if len(x) != len(y):
        raise ValueError("paired samples of different lengths")
    if all(a == b for a, b in zip(x, y, strict=True)):
        return WilcoxonResult(statistic=math.nan, p=1.0, p_bonferroni=1.0)
    res = sps.wilcoxon(x, y, zero_method="wilcox", alternative="two-sided")
    p = float(res.pvalue)
    return WilcoxonResult(statistic=float(res.statistic), p=p, p_bonferroni=min(1.0, p * comparisons))


class Interval(BaseModel):
    low: float
    high: float


def bootstrap_ci(pred: Sequence[float], gold: Sequence[float], metric: Callable[[Correlation], float], *,
                 resamples: int = 1000, level: float = 0.95, seed: int = 0) -> Interval:
    """Percentile bootstrap over samples (pairs resampled together); NaN resamples are dropped."""
    rng = random.Random(seed)
    n = len(pred)
    values = []
    for _ in range(resamples):
        idx = [rng.randrange(n) for _ in range(n)]
        v = metric(correlate([pred[i] for i in idx], [gold[i] for i in idx]))
        if math.isfinite(v):
            values.append(v)
    if not values:
        return Interval(low=math.nan, high=math.nan)
    values.sort()
    lo = values[int((1 - level) / 2 * (len(values) - 1))]
    hi = values[int((1 + level) / 2 * (len(values) - 1))]
    return Interval(low=lo, high=hi)
