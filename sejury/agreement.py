"""Agreement beyond correlation, for `sejury evaluate` (issue 16): when to trust the judge.

- Krippendorff's alpha (the ``krippendorff`` package) between the judge, mapped to the human
  scale, and the human label (interval and ordinal), and among the human raters;
- against binary outcomes (the benchmark's tests, or a 0/1 human label): ROC-AUC, the accuracy at
  a threshold chosen on the labelled (calibration) samples, the confusion matrix read as "accepts
  N % of wrong code" and "rejects N % of right code", Cohen's kappa of the binarised verdict, and
  the expected calibration error of score/100 read as the probability of being right;
- the unscored rate of each juror (unscored or failed, over the samples it was run on).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Literal

import numpy as np
from pydantic import BaseModel

from sejury.agent import ReviewPolicy
from sejury.calibrate import Record, best_threshold, team_scores
from sejury.merge import MergeRule
from sejury.schema import Scale, Strategy
from sejury.stats import cohen_kappa

ECE_BINS = 10


class Alpha(BaseModel):
    name: str
    n: int
    interval: float
    ordinal: float


class Binary(BaseModel):
    """One juror or team against binary outcomes, on the samples not used to choose the threshold."""

    name: str
    n: int
    auc: float
    threshold: float  # 0-100: a score at or above it is "correct"
    accuracy: float
    tp: int
    fp: int
    tn: int
    fn: int
    kappa: float
    ece: float

    @property
    def accepts_wrong(self) -> float:
        return self.fp / (self.fp + self.tn) if self.fp + self.tn else math.nan

    @property
    def rejects_right(self) -> float:
        return self.fn / (self.fn + self.tp) if self.fn + self.tp else math.nan


class Unscored(BaseModel):
    juror: str
    run_on: int
    unscored: int

    @property
    def rate(self) -> float:
        return self.unscored / self.run_on if self.run_on else math.nan


def _alpha(rows: Sequence[Sequence[float]], level: Literal["interval", "ordinal"]) -> float:
    data = np.array(rows, dtype=float)
    if data.shape[1] < 2 or np.all(np.isnan(data)):
        return math.nan
    import krippendorff

    values = data[~np.isnan(data)]
    if len(set(values.tolist())) < 2:
        return math.nan  # one value only: alpha is undefined
    try:
        return float(krippendorff.alpha(reliability_data=data, level_of_measurement=level))
    except (ValueError, ZeroDivisionError):
        return math.nan


def interval_alpha(rows: Sequence[Sequence[float]]) -> float:
    """Krippendorff's alpha (interval) of ``rows`` (one per rater; nan: not rated); nan if undefined."""
    return _alpha(rows, "interval")


def alpha_with_humans(name: str, records: Sequence[Record], members: Sequence[Strategy], scale: Scale, *,
                      merge: MergeRule = "mean") -> Alpha:
    pairs = [((r.scale or scale).map(s), r.human) for r, s in team_scores(records, members, merge=merge)]
    rows = [[p[0] for p in pairs], [p[1] for p in pairs]]
    ordinal = [[float(round(x)) for x in rows[0]], rows[1]]
    return Alpha(name=name, n=len(pairs), interval=_alpha(rows, "interval"), ordinal=_alpha(ordinal, "ordinal"))


def alpha_among_humans(records: Sequence[Record]) -> Alpha | None:
    raters = sorted({a for r in records for a in r.annotations})
    if len(raters) < 2:
        return None
    rows = [[r.annotations.get(a, math.nan) for r in records] for a in raters]
    n = sum(1 for r in records if sum(a in r.annotations for a in raters) >= 2)
    return Alpha(name="human raters", n=n, interval=_alpha(rows, "interval"), ordinal=_alpha(rows, "ordinal"))


def outcome(r: Record) -> bool | None:
    """The binary truth of a record: the benchmark's test outcome, else a 0/1 human label."""
    if r.test_passed is not None:
        return r.test_passed
    if r.scale is not None and (r.scale.low, r.scale.high) == (0, 1):
        return r.human >= 0.5
    return None


def _ece(scored: Sequence[tuple[float, bool]]) -> float:
    total, n = 0.0, len(scored)
    for b in range(ECE_BINS):
        lo, hi = b / ECE_BINS, (b + 1) / ECE_BINS
        inside = [(s / 100, ok) for s, ok in scored if lo <= s / 100 < hi or (b == ECE_BINS - 1 and s / 100 == 1.0)]
        if inside:
            conf = sum(p for p, _ in inside) / len(inside)
            acc = sum(ok for _, ok in inside) / len(inside)
            total += abs(acc - conf) * len(inside) / n
    return total


def binary(name: str, labelled: Sequence[Record], rest: Sequence[Record], members: Sequence[Strategy], *,
           merge: MergeRule = "mean") -> Binary | None:
    """``members``' merged score against binary outcomes on ``rest``, thresholded where accuracy is
    best on ``labelled``."""
    from sklearn.metrics import roc_auc_score

    def scored(records: Sequence[Record]) -> list[tuple[float, bool]]:
        return [(s, o) for r, s in team_scores(records, members, merge=merge) if (o := outcome(r)) is not None]

    test = scored(rest)
    if not test:
        return None
    threshold = best_threshold(scored(labelled))
    tp = sum(s >= threshold and ok for s, ok in test)
    fp = sum(s >= threshold and not ok for s, ok in test)
    tn = sum(s < threshold and not ok for s, ok in test)
    fn = sum(s < threshold and ok for s, ok in test)
    truth = [int(ok) for _, ok in test]
    auc = float(roc_auc_score(truth, [s for s, _ in test])) if len(set(truth)) == 2 else math.nan
    kappa = cohen_kappa(truth, [int(s >= threshold) for s, _ in test])
    return Binary(name=name, n=len(test), auc=auc, threshold=threshold, accuracy=(tp + tn) / len(test), tp=tp, fp=fp,
                  tn=tn, fn=fn, kappa=kappa, ece=_ece(test))


def unscored_rates(records: Sequence[Record]) -> list[Unscored]:
    jurors = sorted({s for r in records for s in r.calls} | {s for r in records for s in r.unscored},
                    key=list(Strategy).index)
    out = []
    for j in jurors:
        run_on = sum(1 for r in records if j in r.scores or j in r.unscored)
        if run_on:
            out.append(Unscored(juror=j.paper_name, run_on=run_on, unscored=sum(1 for r in records if j in r.unscored)))
    return out


class ReviewFlag(BaseModel):
    """Does the needs-review flag earn its place?  A verdict is flagged when fewer than
    ``min_scored`` of the team's jurors scored it, or their scores span more than ``max_spread``
    (the agent tool's ``ReviewPolicy`` defaults).  It is wrong when its thresholded verdict
    contradicts the binary outcome, or, on a graded scale, when it is off by more than a quarter
    of the scale."""

    n: int
    flagged: int
    flagged_wrong: int
    unflagged_wrong: int
    unscored: int  # no juror of the team scored: flagged, neither right nor wrong
    p_value: float  # Fisher's exact test: flagged verdicts are wrong more often (one-sided)
    rule: str

    @property
    def flagged_error(self) -> float:
        return self.flagged_wrong / self.flagged if self.flagged else math.nan

    @property
    def unflagged_error(self) -> float:
        unflagged = self.n - self.flagged
        return self.unflagged_wrong / unflagged if unflagged else math.nan


def review_flag(labelled: Sequence[Record], rest: Sequence[Record], members: Sequence[Strategy], scale: Scale, *,
                policy: ReviewPolicy | None = None, merge: MergeRule = "mean") -> ReviewFlag | None:
    """The needs-review rule of ``policy`` (the agent tool's, default ``ReviewPolicy()``) on the
    team's recorded scores, against the outcomes."""
    from scipy.stats import fisher_exact

    p = policy or ReviewPolicy()
    need = min(p.min_scored, len(members))
    graded = all(outcome(r) is None for r in rest)
    threshold = best_threshold([(s, o) for r, s in team_scores(labelled, members, merge=merge)
                                if (o := outcome(r)) is not None])
    n = flagged = flagged_wrong = unflagged_wrong = unscored = 0
    for r in rest:
        got = [r.scores[m] for m in members if m in r.scores]
        if not got:
            unscored += 1
            continue
        score = sum(got) / len(got)
        truth = outcome(r)
        if graded:
            s = r.scale or scale
            wrong = abs(s.map(score) - r.human) > (s.high - s.low) / 4
        elif truth is None:
            continue
        else:
            wrong = (score >= threshold) != truth
        flag = len(got) < need or max(got) - min(got) > p.max_spread
        n += 1
        flagged += flag
        flagged_wrong += flag and wrong
        unflagged_wrong += (not flag) and wrong
    if not n:
        return None
    table = [[flagged_wrong, flagged - flagged_wrong], [unflagged_wrong, n - flagged - unflagged_wrong]]
    p_value = float(fisher_exact(table, alternative="greater")[1]) if flagged and n - flagged else math.nan
    rule = (f"fewer than {need} jurors scored, or their scores span more than {p.max_spread:g}; wrong = "
            + ("off by more than a quarter of the scale" if graded else f"thresholded at {threshold:g}, "
               "contradicts the outcome"))
    return ReviewFlag(n=n, flagged=flagged, flagged_wrong=flagged_wrong, unflagged_wrong=unflagged_wrong,
                      unscored=unscored, p_value=p_value, rule=rule)


class Bias(BaseModel):
    """Crupi et al.'s bias coefficient of one juror on one group of candidates: the mean of
    verdict - oracle, both read on [0, 1] (in [-1, 1]: above 0, the juror is too kind to them).
    Groups: the generator (``metadata.system``), the author (``metadata.author``: human or model),
    and self-preference (candidates the judge's own model wrote, against the others)."""

    juror: str
    system: str  # the group: a generator, an author, or "self: NAME" / "others"
    n: int
    coefficient: float
    p_value: float  # Wilcoxon signed-rank test of the differences against 0
    effect: float  # mean / standard deviation of the differences (Cohen's d for paired data)
    kind: Literal["generator", "author", "self"] = "generator"
    vs_others_p: float = math.nan  # Mann-Whitney U: this group's differences against the other groups'


def _squash(name: str) -> str:
    return "".join(c for c in name.lower() if c.isalnum())


def is_self(r: Record, self_systems: Collection[str] = ()) -> bool:
    """Whether the judge's own model wrote ``r``'s candidate: its generator is one of
    ``self_systems``, or (none given) its name, letters and digits only, is part of the model's."""
    if r.system is None:
        return False
    if self_systems:
        return _squash(r.system) in {_squash(s) for s in self_systems}
    name = _squash(r.system)
    return len(name) >= 6 and name in _squash(r.model)


def bias(records: Sequence[Record], named: Sequence[tuple[str, Sequence[Strategy]]], scale: Scale, *,
         self_systems: Collection[str] = (), merges: Mapping[str, MergeRule] | None = None) -> list[Bias]:
    """Per juror (or team) and group, for each grouping with two or more groups in the run: generator,
    author, and self-preference."""
    groupings: list[tuple[Literal["generator", "author", "self"], Callable[[Record], str | None]]] = [
        ("generator", lambda r: r.system),
        ("author", lambda r: r.author),
        ("self", lambda r: None if r.system is None else f"self: {r.system}" if is_self(r, self_systems) else "others"),
    ]
    out: list[Bias] = []
    for kind, group_of in groupings:
        out += _bias_by(records, named, scale, kind, group_of, merges or {})
    return out


def _bias_by(records: Sequence[Record], named: Sequence[tuple[str, Sequence[Strategy]]], scale: Scale,
             kind: Literal["generator", "author", "self"], group_of: Callable[[Record], str | None],
             merges: Mapping[str, MergeRule]) -> list[Bias]:
    from scipy.stats import mannwhitneyu, wilcoxon

    groups = sorted({g for r in records if (g := group_of(r)) is not None})
    if len(groups) < 2:
        return []
    if kind == "self":
        groups = sorted(groups, key=lambda g: g == "others")  # the self groups first
    out = []
    grouped = [r for r in records if group_of(r) is not None]
    for name, members in named:
        diffs: dict[str, list[float]] = {g: [] for g in groups}
        for r, score in team_scores(grouped, members, merge=merges.get(name, "mean")):
            s = r.scale or scale
            span = (s.high - s.low) or 1.0
            diffs[group_of(r) or ""].append(score / 100 - (r.human - s.low) / span)
        for group in groups:
            d = diffs[group]
            if not d:
                continue
            mean = sum(d) / len(d)
            sd = float(np.std(d, ddof=1)) if len(d) > 1 else math.nan
            p = math.nan
            if len(d) > 1 and any(x != 0 for x in d):
                p = float(wilcoxon(d).pvalue)
            rest = [x for g in groups if g != group for x in diffs[g]]
            vs = float(mannwhitneyu(d, rest).pvalue) if len(d) > 1 and len(rest) > 1 and set(d) | set(rest) != {0.0} \
                else math.nan
            out.append(Bias(juror=name, system=group, n=len(d), coefficient=mean, p_value=p,
                            effect=mean / sd if sd and math.isfinite(sd) else math.nan, kind=kind, vs_others_p=vs))
    return out


class Levels(BaseModel):
    """ICE-Score's two readings of correlation: over every sample at once (corpus level), and
    within each problem's candidates, averaged over the problems (example level, where at least
    three candidates of a problem were scored and their labels differ)."""

    juror: str
    corpus_n: int
    corpus: float  # (tau + rho) / 2 over every sample
    problems: int
    example: float  # mean over the problems of (tau + rho) / 2 within a problem


def levels(records: Sequence[Record], named: Sequence[tuple[str, Sequence[Strategy]]], *,
           merges: Mapping[str, MergeRule] | None = None) -> list[Levels]:
    from sejury.stats import correlate

    if not any(r.problem for r in records):
        return []
    out = []
    for name, members in named:
        pairs = team_scores(records, members, merge=(merges or {}).get(name, "mean"))
        corpus = correlate([s for _, s in pairs], [r.human for r, _ in pairs]).mean if len(pairs) > 2 else math.nan
        groups: dict[str, list[tuple[float, float]]] = {}
        for r, s in pairs:
            if r.problem:
                groups.setdefault(r.problem, []).append((s, r.human))
        within = [c for g in groups.values() if len(g) >= 3 and len({h for _, h in g}) > 1
                  and math.isfinite(c := correlate([s for s, _ in g], [h for _, h in g]).mean)]
        out.append(Levels(juror=name, corpus_n=len(pairs), corpus=corpus, problems=len(within),
                          example=sum(within) / len(within) if within else math.nan))
    return out
