"""The SE-Jury paper's experiments on recorded scores (a ``sejury batch`` run over a labelled set).

- RQ1: correlation with human scores of every juror alone, all LLM strategies merged, and the
  calibrated team, with bootstrap intervals; Wilcoxon signed-rank tests of the team's absolute
  errors against each other row's (scores mapped to the human scale), Bonferroni-corrected.
- RQ2: Cohen's kappa between human raters (H-H) and between each rater and the tool (H-T), from
  the individual annotations.
- RQ3: ablations (calibrated team, all merged, each juror alone) and the N study: calibration
  repeated with N labelled samples over several seeds, evaluated on the rest.
- RQ4: correlation with the benchmark's own binary test outcomes, where the samples carry them.
- Agreement beyond correlation (``agreement.py``): Krippendorff's alpha with the humans and among
  them; against binary outcomes ROC-AUC, accuracy at a threshold chosen on the labelled samples,
  the confusion matrix, kappa and calibration error; each juror's unscored rate.

The labelled samples of the calibrated team are excluded from every figure.  Nothing here calls
a model.  The outputs (one markdown report, one CSV per table, two plots) are ``evaluate_report``'s.
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections import Counter
from collections.abc import Collection, Sequence
from typing import NamedTuple

from pydantic import BaseModel

from sejury import agreement, variance
from sejury.agreement import Alpha, Bias, Binary, Levels, ReviewFlag, Unscored
from sejury.calibrate import Calibration, Record, calibrate, score_team, team_scores
from sejury.config import DEFAULT_MERGE
from sejury.errors import InputError
from sejury.merge import MergeRule
from sejury.schema import Scale, Strategy, TeamFile
from sejury.stats import cohen_kappa, wilcoxon
from sejury.variance import Repeatability

DEFAULT_NS = (2, 6, 18, 20, 50)
# the papers' RQ1 comparators a run should hold: the LLM-judge baselines, then the similarity metrics
_RQ1_BASELINES = ("vanilla", "ice_score", "ice_score_ref", "bleu", "chrf", "rouge_l", "meteor", "codebleu")


class Row(BaseModel):
    name: str
    members: list[Strategy]
    n: int
    tau: float
    rho: float
    mean: float
    pearson: float
    ci_low: float
    ci_high: float
    llm_calls: float
    p_vs_team: float | None = None  # Wilcoxon on absolute errors, Bonferroni-corrected


class Evaluation(BaseModel):
    n_samples: int
    excluded_labelled: int
    team_source: str
    rq1: list[Row]
    rq2: dict[str, list[float]]  # "H-H" / "H-T" -> kappas
    rq2_pairs: list[dict[str, object]]
    rq3_n: list[dict[str, object]]
    rq4: list[Row]
    alpha: list[Alpha] = []
    alpha_humans: Alpha | None = None
    binary: list[Binary] = []
    unscored: list[Unscored] = []
    review: ReviewFlag | None = None  # does the calibrated team's needs-review flag earn its place?
    bias: list[Bias] = []  # per juror x generator (metadata.system), author, self-preference
    repeatability: list[Repeatability] = []  # the judge's own variance (a run with --repeats)
    levels: list[Levels] = []  # corpus- vs example-level correlation
    notes: list[str]


def _scale(records: Sequence[Record]) -> Scale:
    for r in records:
        if r.scale is not None:
            return r.scale
    lo, hi = min(r.human for r in records), max(r.human for r in records)
    return Scale(low=lo, high=hi if hi > lo else lo + 1)


def _row(name: str, records: Sequence[Record], members: list[Strategy], resamples: int, seed: int, *,
         merge: MergeRule = "mean") -> Row:
    t = score_team(records, members, ci=True, resamples=resamples, seed=seed, merge=merge)
    return Row(name=name, members=members, n=t.n, tau=t.tau, rho=t.rho, mean=t.mean, pearson=t.pearson,
               ci_low=t.ci.low if t.ci else math.nan, ci_high=t.ci.high if t.ci else math.nan,
               llm_calls=t.llm_calls)


def _abs_errors(records: Sequence[Record], members: Sequence[Strategy], scale: Scale, *,
                merge: MergeRule = "mean") -> dict[str, float]:
    """Per sample: |score mapped to the human scale - human score|."""
    scored = team_scores(records, members, merge=merge)
    return {r.sample_id: abs((r.scale or scale).map(s) - r.human) for r, s in scored}


def evaluate(records: Sequence[Record], *, team: TeamFile | None = None, n_labelled: int = 20, seed: int = 0,
             ns: Sequence[int] = DEFAULT_NS, seeds: int = 5, resamples: int = 1000,
             kappa_weights: str | None = None, self_systems: Collection[str] = ()) -> Evaluation:
    """The tables, from ``records`` (``read_run``).  A run judged with ``--repeats`` may be passed
    whole (``read_run(..., repeats=True)``): every table reads the first judgment of each sample,
    and the repeats give the judge's own variance.  ``self_systems``: the generators
    (``metadata.system``) that are the judge's own model, for self-preference (default: a
    generator whose name is part of the model's).  The team's scores merge by its own rule (a team
    file's ``merge``, or the one calibration chose), as the judge would merge them."""
    notes: list[str] = []
    repeated = list(records)
    records = [r for r in records if not r.repeat]
    if team is not None:
        labelled_ids = set(team.calibration.get("labelled_ids", []))
        team_members = list(team.strategies)
        rule: MergeRule = team.merge_rule(DEFAULT_MERGE)
        source = f"team file ({', '.join(s.value for s in team_members)})"
    else:
        cal: Calibration = calibrate(records, n_labelled=n_labelled, seed=seed, resamples=0)
        labelled_ids = set(cal.labelled_ids)
        team_members, rule = cal.chosen.members, cal.chosen.merge
        source = f"calibrated here on {n_labelled} samples, seed {seed}"
    if rule == "evidence_first":
        source += ", merged evidence first"
    rest = [r for r in records if r.sample_id not in labelled_ids]
    members = sorted({s for r in rest for s in r.scores}, key=list(Strategy).index)
    scale = _scale(records)
    chosen = _Team(team_members, rule)

    rows = _rq1(rest, chosen, members, scale, resamples, seed)
    missing = [s.paper_name for s in map(Strategy, _RQ1_BASELINES) if s not in members]
    if missing:
        notes.append(f"Not in this run (judge them with `sejury batch --team ...`): {', '.join(missing)}.")
    hh, ht, pairs = _rq2(rest, chosen, scale, kappa_weights)
    if not any(r.annotations for r in rest):
        notes.append("RQ2 needs individual annotations (metadata.human_scores); this run has none.")
    try:
        n_study = _n_study(records, ns, seeds)
    except InputError as exc:  # e.g. no S1 in the run: calibration cannot choose a team
        n_study = []
        notes.append(f"RQ3's N study skipped: {exc.message}.")
    rq4 = _rq4(rest, chosen, members, resamples, seed)
    # agreement beyond correlation
    labelled = [r for r in records if r.sample_id in labelled_ids]
    named = [("calibrated team", team_members), *((label_of(m), [m]) for m in members)]
    merges = {"calibrated team": rule}
    alpha = [agreement.alpha_with_humans(n, rest, ms, scale, merge=merges.get(n, "mean")) for n, ms in named]
    binary = [got for n, ms in named
              if (got := agreement.binary(n, labelled, rest, ms, merge=merges.get(n, "mean"))) is not None]
    return Evaluation(n_samples=len(records), excluded_labelled=len(records) - len(rest), team_source=source,
                      rq1=rows, rq2={"H-H": hh, "H-T": ht}, rq2_pairs=pairs, rq3_n=n_study, rq4=rq4,
                      alpha=alpha, alpha_humans=agreement.alpha_among_humans(rest), binary=binary,
                      unscored=agreement.unscored_rates(records),
                      review=agreement.review_flag(labelled, rest, team_members, scale, merge=rule),
                      bias=agreement.bias(rest, named, scale, self_systems=self_systems, merges=merges),
                      levels=agreement.levels(rest, named, merges=merges),
                      repeatability=variance.repeatability(repeated, named, seed=seed, merges=merges), notes=notes)


class _Team(NamedTuple):
    members: list[Strategy]
    merge: MergeRule


def _rq1(rest: Sequence[Record], team: _Team, members: list[Strategy], scale: Scale, resamples: int,
         seed: int) -> list[Row]:
    """Correlation with the human scores: the team, all LLM strategies merged, each juror alone; the
    team's absolute errors against each other row's (Wilcoxon, Bonferroni-corrected)."""
    llm = [m for m in members if m.is_llm and not m.is_baseline]
    rows = [_row("calibrated team", rest, team.members, resamples, seed, merge=team.merge)]
    if llm:
        rows.append(_row("all LLM strategies merged", rest, llm, resamples, seed))
    rows += [_row(label_of(m), rest, [m], resamples, seed) for m in members]
    team_err = _abs_errors(rest, team.members, scale, merge=team.merge)
    others = rows[1:]
    for row in others:
        err = _abs_errors(rest, row.members, scale)
        common = sorted(set(team_err) & set(err))
        if len(common) >= 2:
            row.p_vs_team = wilcoxon([team_err[i] for i in common], [err[i] for i in common],
                                     comparisons=len(others)).p_bonferroni
    return rows


def _rq2(rest: Sequence[Record], team: _Team, scale: Scale,
         kappa_weights: str | None) -> tuple[list[float], list[float], list[dict[str, object]]]:
    """Cohen's kappa between human raters (H-H) and between each rater and the tool (H-T)."""
    tool = {r.sample_id: round((r.scale or scale).map(s)) for r, s in team_scores(rest, team.members, merge=team.merge)}
    raters = sorted({a for r in rest for a in r.annotations})
    by_rater = {a: {r.sample_id: r.annotations[a] for r in rest if a in r.annotations} for a in raters}
    hh: list[float] = []
    ht: list[float] = []
    pairs: list[dict[str, object]] = []
    for a, b in itertools.combinations(raters, 2):
        common = sorted(set(by_rater[a]) & set(by_rater[b]))
        if len(common) >= 2:
            k = cohen_kappa([int(by_rater[a][i]) for i in common], [int(by_rater[b][i]) for i in common],
                            weights=kappa_weights)
            if math.isfinite(k):
                hh.append(k)
                pairs.append({"kind": "H-H", "a": a, "b": b, "n": len(common), "kappa": k})
    for a in raters:
        common = sorted(set(by_rater[a]) & set(tool))
        if len(common) >= 2:
            k = cohen_kappa([int(by_rater[a][i]) for i in common], [int(tool[i]) for i in common],
                            weights=kappa_weights)
            if math.isfinite(k):
                ht.append(k)
                pairs.append({"kind": "H-T", "a": a, "b": "tool", "n": len(common), "kappa": k})
    return hh, ht, pairs


def _rq4(rest: Sequence[Record], team: _Team, members: list[Strategy], resamples: int, seed: int) -> list[Row]:
    """Correlation with the benchmark's own binary test outcomes, where the samples carry them."""
    outcome = [r for r in rest if r.test_passed is not None]
    if not outcome:
        return []
    as_labels = [r.model_copy(update={"human": float(bool(r.test_passed))}) for r in outcome]
    rows = [_row("calibrated team", as_labels, team.members, resamples, seed, merge=team.merge)]
    return rows + [_row(label_of(m), as_labels, [m], resamples, seed) for m in members]


def label_of(m: Strategy) -> str:
    """A juror's name in the tables."""
    return m.paper_name + (" (baseline)" if m.is_baseline else "")


def _n_study(records: Sequence[Record], ns: Sequence[int], seeds: int) -> list[dict[str, object]]:
    n_study: list[dict[str, object]] = []
    for n in ns:
        if n >= len(records) - 1:
            continue
        means: list[float] = []
        chosen: Counter[str] = Counter()
        for s in range(seeds):
            c = calibrate(records, n_labelled=n, seed=s, resamples=0)
            if c.evaluation is not None and math.isfinite(c.evaluation.mean):
                means.append(c.evaluation.mean)
            chosen[" + ".join(m.paper_name for m in c.chosen.members)] += 1
        if means:
            n_study.append({"N": n, "seeds": len(means), "mean": statistics.fmean(means),
                            "sd": statistics.pstdev(means), "most_chosen": chosen.most_common(1)[0][0]})
    return n_study
