"""The judge's own variance (issue 16; asked for in inspect_ai #4136): how much of a score is noise.

A run judged with ``sejury batch --repeats K --temperature T`` holds K verdicts per sample, each
sampled with its own seed.  For each juror (and the team), over the samples:

- test-retest agreement: Krippendorff's alpha (interval) with the repeats as the raters, and a
  95 % bootstrap interval over the samples (1: the repeats agree exactly; 0: no better than
  chance; undefined when every score is the same);
- the spread of one sample's scores: the mean standard deviation and the mean range (0-100);
- how often a sample's score changes at all between repeats, and how often its verdict flips
  (it passes in one repeat and fails in another, at the agent's threshold);
- the share of judgments the juror left unscored.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Mapping, Sequence

from pydantic import BaseModel

from sejury.agent import ReviewPolicy
from sejury.agreement import interval_alpha
from sejury.calibrate import Record, team_scores
from sejury.merge import MergeRule
from sejury.schema import Strategy

RESAMPLES = 500


class Repeatability(BaseModel):
    juror: str
    repeats: int  # K: judgments per sample
    samples: int  # samples with at least two scored repeats
    alpha: float  # test-retest: Krippendorff's alpha (interval), repeats as raters
    alpha_low: float
    alpha_high: float
    sd: float  # mean over samples of the standard deviation of its scores (0-100)
    range: float  # mean over samples of max - min
    changed: float  # share of samples whose score is not the same in every scored repeat
    flipped: float  # share whose verdict passes in one repeat and fails in another
    unscored: float  # share of the juror's judgments with no score
    threshold: float


def by_sample(records: Sequence[Record]) -> dict[str, dict[int, Record]]:
    """A run's records grouped by sample, then by repeat (an ordinary verdict is repeat 0)."""
    out: dict[str, dict[int, Record]] = {}
    for r in records:
        out.setdefault(r.sample_id, {})[r.repeat or 0] = r
    return out


def repeatability(records: Sequence[Record], named: Sequence[tuple[str, Sequence[Strategy]]], *,
                  threshold: float | None = None, seed: int = 0,
                  merges: Mapping[str, MergeRule] | None = None) -> list[Repeatability]:
    """One row per juror (or team) of ``named`` that was run on the repeated samples."""
    groups = [g for g in by_sample(records).values() if len(g) > 1]
    if not groups:
        return []
    k = max(len(g) for g in groups)
    repeats = sorted({rep for g in groups for rep in g})
    cut = ReviewPolicy().threshold if threshold is None else threshold
    out = []
    for name, members in named:
        run_on = [g for g in groups if any(m in r.scores or m in r.unscored for r in g.values() for m in members)]
        if not run_on:
            continue
        judged = sum(len(g) for g in run_on)
        table: list[list[float]] = []  # one row per sample, one column per repeat (nan: unscored)
        for g in run_on:
            scored = {rec.repeat or 0: s
                      for rec, s in team_scores(list(g.values()), members, merge=(merges or {}).get(name, "mean"))}
            table.append([scored.get(rep, math.nan) for rep in repeats])
        unscored = sum(math.isnan(x) for row in table for x in row) - sum(len(repeats) - len(g) for g in run_on)
        rows = [[x for x in row if not math.isnan(x)] for row in table]
        rows2 = [row for row in rows if len(row) >= 2]
        alpha = interval_alpha(_raters(table))
        low, high = _bootstrap(table, seed)
        out.append(Repeatability(
            juror=name, repeats=k, samples=len(rows2), alpha=alpha, alpha_low=low, alpha_high=high,
            sd=statistics.fmean(statistics.stdev(r) for r in rows2) if rows2 else math.nan,
            range=statistics.fmean(max(r) - min(r) for r in rows2) if rows2 else math.nan,
            changed=sum(len(set(r)) > 1 for r in rows2) / len(rows2) if rows2 else math.nan,
            flipped=sum(min(r) < cut <= max(r) for r in rows2) / len(rows2) if rows2 else math.nan,
            unscored=unscored / judged, threshold=cut))
    return out


def _raters(table: Sequence[Sequence[float]]) -> list[list[float]]:
    """Samples x repeats turned into krippendorff's shape: one row per rater (repeat)."""
    return [list(col) for col in zip(*table, strict=True)] if table else []


def _bootstrap(table: Sequence[Sequence[float]], seed: int) -> tuple[float, float]:
    if len(table) < 3:
        return math.nan, math.nan
    rng = random.Random(seed)
    got = []
    for _ in range(RESAMPLES):
        a = interval_alpha(_raters([table[rng.randrange(len(table))] for _ in table]))
        if math.isfinite(a):
            got.append(a)
    if len(got) < RESAMPLES // 2:
        return math.nan, math.nan
    got.sort()
    return got[int(0.025 * (len(got) - 1))], got[int(0.975 * (len(got) - 1))]
