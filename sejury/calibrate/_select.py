"""Team selection on a few human-labelled samples (SE-Jury's calibration), from recorded scores.

Each strategy runs once per labelled sample (a run file written by ``sejury batch`` keeps every
member's score); a team's score on a sample is the mean of its members' scores, so trying every
team costs no LLM call.

Default protocol:
- labelled set: ``random.Random(seed).sample(range(n), N)`` over the samples in file order;
- candidate teams: every non-empty combination of the members that scored on the labelled set
  (one juror alone, the evidence alone, or any mix; the paper's rule that every team contains an
  S1 variant holds under ``protocol="paper"``);
- team score on a sample: the mean of its scored members (a sample where none scored is left out);
- selection: the highest mean of Kendall's tau-b and Spearman's rho against the human scores;
  ties go to fewer LLM calls per sample, then fewer members;
- the chosen team is evaluated on the other samples (the labelled ones are excluded), with a
  bootstrap confidence interval.

``protocol="paper"`` follows the published replication scripts: teams of at least two members with
an S1 variant (``direct`` or ``direct_ref``) in each; each member's 0-100 score is
mapped to the human scale and rounded to an integer; the chosen team's mean is rounded before
correlating on the rest; whether team means are also rounded during selection is
``round_selection`` (the scripts differ between datasets).
"""

from __future__ import annotations

import itertools
import json
import math
import random
from collections.abc import Iterable, Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field

from sejury.calibrate._records import Record
from sejury.errors import InputError
from sejury.merge import MergeRule, merge_scores
from sejury.schema import Scale, Strategy, Task, TeamFile, team_mean
from sejury.stats import Correlation, Interval, bootstrap_ci, correlate

ACCEPT = 50.0  # the default pass mark: a score at or above it accepts the candidate
RULES: tuple[MergeRule, ...] = ("mean", "evidence_first")  # the merge rules calibration chooses among


class TeamScore(BaseModel):
    members: list[Strategy]
    n: int
    tau: float
    rho: float
    mean: float  # (tau + rho) / 2
    pearson: float = math.nan
    llm_calls: float  # per sample
    tokens: float  # per sample
    ci: Interval | None = None  # bootstrap interval of the mean
    # against pass/fail labels (every label 0 or 1, default protocol): a score at or above the pass mark accepts
    threshold: float | None = None  # the pass mark (in `calibrate`: the one with the best accuracy on the labelled set)
    wrong: int | None = None  # the candidates the label calls wrong
    merge: MergeRule = "mean"  # how the members' scores merge (``sejury.merge``)
    wrong_accepted: int | None = None  # of them, the ones the team accepts
    accuracy: float | None = None  # accepted == passed, over every scored candidate


class Share(BaseModel):
    """How often a team came first in bootstrap resamples of the labelled set."""

    members: list[Strategy]
    share: float
    merge: MergeRule = "mean"


class Calibration(BaseModel):
    protocol: Literal["default", "paper"]
    task: Task
    seed: int
    n_labelled: int
    labelled_ids: list[str]
    round_selection: bool = False
    chosen: TeamScore
    teams: list[TeamScore]  # every candidate team on the labelled set, best first
    strategies: list[TeamScore]  # each member alone on the labelled set
    evaluation: TeamScore | None  # the chosen team on the other samples
    evaluation_members: list[TeamScore] = Field(default_factory=list)  # each member alone, the rest
    all_members: TeamScore | None = None  # every member merged, on the rest (an ablation)
    # how settled the choice is: the teams that came first in resamples of the labelled set, most often first
    stability: list[Share] = Field(default_factory=list)
    stability_resamples: int = 0
    threshold: float | None = None  # pass/fail labels: the chosen team's pass mark, best accuracy on the labelled set
    model: str = ""
    prompt_version: str = ""

    def team_file(self) -> TeamFile:
        """The chosen team, with the calibration's record: seed, N, labelled ids, each member's and
        every candidate team's figures on the labelled set (compact: there can be thousands)."""
        record = json.loads(self.model_dump_json(exclude={"teams"}))
        record["teams"] = [{"members": [m.value for m in t.members], "merge": t.merge, "tau": _r(t.tau),
                            "rho": _r(t.rho),
                            "mean": _r(t.mean), "llm_calls": round(t.llm_calls, 2)} for t in self.teams]
        return TeamFile(task=self.task, strategies=self.chosen.members, calibration=record, threshold=self.threshold,
                        merge=self.chosen.merge)


def _r(x: float) -> float | None:
    return round(x, 4) if math.isfinite(x) else None


def _paper_map(score: float, scale: Scale | None) -> float:
    if scale is None:
        raise InputError("the paper protocol maps scores to the human scale, but the verdicts' metadata has no "
                         "'scale' (e.g. \"0-4\")", field="metadata.scale")
    return float(round(scale.map(score)))


def team_scores(records: Sequence[Record], members: Sequence[Strategy], *, protocol: str = "default",
                round_mean: bool = False, merge: MergeRule = "mean",
                mark: float = ACCEPT) -> list[tuple[Record, float]]:
    """Each record's team score: the mean of the members that scored it, each by its weight, as
    the supervisor merges them (records where none did are left out), or by the evidence-first rule
    at the pass mark ``mark`` (the rule places its scores around the mark the judge will use).  The
    paper protocol maps and rounds each member first, and the mean if asked."""
    out = []
    for r in records:
        got = [r.scores[m] for m in members if m in r.scores]
        if not got:
            continue
        if merge == "evidence_first" and protocol == "default":
            pairs = {m: (r.scores[m], r.weights.get(m, 1.0)) for m in members if m in r.scores}
            graded = [sw for m, sw in pairs.items() if m.is_evidence]
            opinion = [sw for m, sw in pairs.items() if not m.is_evidence]
            ran = set(members) | {m.feeder for m in members if m.feeder is not None}
            against = [s.value for s in r.against if s in ran]
            merged = merge_scores(graded, opinion, against, rule="evidence_first", pass_mark=mark).score
            assert merged is not None
            out.append((r, merged))
            continue
        if protocol == "paper":
            got = [_paper_map(x, r.scale) for x in got]
        value = team_mean(got, [r.weights.get(m, 1.0) for m in members if m in r.scores])
        assert value is not None
        if protocol == "paper" and round_mean:
            value = float(round(value))
        out.append((r, value))
    return out


def binary_labels(records: Sequence[Record]) -> bool:
    """Every label is 0 or 1 (a pass/fail outcome, e.g. ``--label test_passed``)."""
    return bool(records) and all(r.human in (0.0, 1.0) for r in records)


def best_threshold(scored: Sequence[tuple[float, bool]]) -> float:
    """The pass mark with the best accuracy on ``scored`` (score, right) pairs, a score at or above it
    passing (ties: the lowest); ``ACCEPT`` without data."""
    if not scored:
        return ACCEPT
    cuts = sorted({s for s, _ in scored})
    return max(cuts, key=lambda t: (sum((s >= t) == ok for s, ok in scored), -t))


def pass_mark(records: Sequence[Record], members: Sequence[Strategy], *, protocol: str = "default",
              merge: MergeRule = "mean") -> float | None:
    """The team's pass mark chosen on ``records`` with pass/fail labels (None otherwise)."""
    if protocol != "default" or not binary_labels(records):
        return None
    if merge == "evidence_first":
        # the mark moves the scores themselves (evidence is placed around it): try each candidate mark,
        # merging at it, as the judge will; only where no evidence ran does the mark decide
        cuts = sorted({s for _, s in team_scores(records, members)} | {ACCEPT})

        def accuracy(t: float) -> int:
            return sum((s >= t) == (r.human == 1.0) for r, s in team_scores(records, members, merge=merge, mark=t))

        return max(cuts, key=lambda t: (accuracy(t), -abs(t - ACCEPT)))
    return best_threshold([(s, r.human == 1.0) for r, s in team_scores(records, members, merge=merge)])


def score_team(records: Sequence[Record], members: Sequence[Strategy], *, protocol: str = "default",
               round_mean: bool = False, ci: bool = False, resamples: int = 1000, seed: int = 0,
               threshold: float | None = ACCEPT, merge: MergeRule = "mean") -> TeamScore:
    """A team's agreement with the labels on ``records``; against pass/fail labels also the wrong
    candidates it accepts and its accuracy, a score of ``threshold`` or more passing (None: not asked)."""
    mark = threshold if threshold is not None and merge == "evidence_first" else ACCEPT  # as the judge merges
    pairs = team_scores(records, members, protocol=protocol, round_mean=round_mean, merge=merge, mark=mark)
    pred, gold = [s for _, s in pairs], [r.human for r, _ in pairs]
    c = correlate(pred, gold) if len(pred) >= 2 else Correlation(n=len(pred), tau=math.nan, rho=math.nan, r=math.nan)
    n = max(1, len(records))
    # a member's feeder runs even when it is not in the team (S5-exec needs S5's calls, or S5-nl's)
    paid = [_paid(r, members) for r in records]
    calls = sum(r.calls.get(m, 0) for r, ms in zip(records, paid, strict=True) for m in ms) / n
    tokens = sum(r.tokens.get(m, 0) for r, ms in zip(records, paid, strict=True) for m in ms) / n
    interval = bootstrap_ci(pred, gold, lambda x: x.mean, resamples=resamples, seed=seed) \
        if ci and pred and resamples > 0 else None
    verdicts: dict[str, Any] = {}
    if threshold is not None and protocol == "default" and gold and all(g in (0.0, 1.0) for g in gold):
        accepted = [p >= threshold for p in pred]
        verdicts = {"threshold": threshold, "wrong": gold.count(0.0),
                    "wrong_accepted": sum(a for a, g in zip(accepted, gold, strict=True) if g == 0.0),
                    "accuracy": sum(a == (g == 1.0) for a, g in zip(accepted, gold, strict=True)) / len(gold)}
    return TeamScore(members=list(members), n=c.n, tau=c.tau, rho=c.rho, mean=c.mean, pearson=c.r, llm_calls=calls,
                     tokens=tokens, ci=interval, merge=merge, **verdicts)


def _paid(r: Record, members: Sequence[Strategy]) -> list[Strategy]:
    """The members and the feeders that ran for them on ``r``: the one feeder, or, for a member with
    several (S5-exec: S5, else S5-nl), the first that ran on that sample."""
    fed: set[Strategy] = set()
    for m in members:
        if m.feeder is not None:
            fed.add(m.feeder)
        elif m.is_evidence:
            ran = [Strategy(f) for f in m.spec.feeders if Strategy(f) in r.calls]
            fed.update(ran[:1])
    return [*members, *(f for f in fed if f not in members)]


def candidate_teams(members: Iterable[Strategy], *, protocol: str = "paper") -> list[list[Strategy]]:
    """The teams calibration tries (members kept in enum order; baselines are never members): under
    the paper protocol every combination of >= 2 members that contains an S1 variant; under the
    default protocol every non-empty combination (so the evidence or one juror alone may win)."""
    pool = [s for s in Strategy if s in set(members) and not s.is_baseline]
    paper = protocol == "paper"
    teams = []
    for k in range(2 if paper else 1, len(pool) + 1):
        for combo in itertools.combinations(pool, k):
            if not paper or any(s.is_s1 for s in combo):
                teams.append(list(combo))
    return teams


def labelled_indices(n: int, size: int, seed: int) -> list[int]:
    """The paper's draw: ``random.seed(seed); random.sample(range(n), size)``."""
    if size >= n:
        raise InputError(f"{size} labelled samples leave none of the {n} to evaluate on", field="n")
    return random.Random(seed).sample(range(n), size)


def _rank_key(t: TeamScore) -> tuple[float, float, int]:
    mean = t.mean if math.isfinite(t.mean) else -math.inf
    return (-mean, t.llm_calls, len(t.members))


STABILITY_TOP = 12  # the best teams on the labelled set that the resamples re-rank
STABILITY_RESAMPLES = 200


def selection_stability(labelled: Sequence[Record], teams: Sequence[TeamScore], *, resamples: int, seed: int,
                        **kw: Any) -> list[Share]:
    """Re-run the choice on ``resamples`` bootstrap resamples of the labelled records (among the
    best ``STABILITY_TOP`` teams): the share of resamples each team came first in, most often first.
    A chosen team that wins only a minority says the labels do not settle the choice."""
    top = list(teams[:STABILITY_TOP])
    if resamples <= 0 or len(labelled) < 3 or not top:
        return []
    rng = random.Random(seed)
    wins: dict[tuple[tuple[Strategy, ...], MergeRule], int] = {}
    for _ in range(resamples):
        sample = [labelled[rng.randrange(len(labelled))] for _ in labelled]
        best = min((score_team(sample, t.members, threshold=None, merge=t.merge, **kw) for t in top), key=_rank_key)
        key = (tuple(best.members), best.merge)
        wins[key] = wins.get(key, 0) + 1
    ranked = sorted(wins.items(), key=lambda kv: -kv[1])
    return [Share(members=list(m), share=k / resamples, merge=rule) for (m, rule), k in ranked]


def calibrate(records: Sequence[Record], *, n_labelled: int = 20, seed: int = 0,
              protocol: Literal["default", "paper"] = "default", round_selection: bool = False,
              resamples: int = 1000, labelled: Sequence[int] | None = None) -> Calibration:
    """Choose the team on the labelled records and evaluate it on the others.  ``labelled``
    (positions in ``records``) overrides the seeded draw, when the records are a subset."""
    tasks = {r.task for r in records}
    if len(tasks) != 1:
        raise InputError(f"a run file for one task is calibrated at a time; this one has {sorted(tasks)}")
    idx = set(labelled) if labelled is not None else set(labelled_indices(len(records), n_labelled, seed))
    chosen_set = [records[i] for i in sorted(idx)]
    rest = [r for i, r in enumerate(records) if i not in idx]
    # baselines (vanilla, ICE-Score) are reported by `sejury evaluate`, never chosen into a team
    members = sorted({s for r in chosen_set for s in r.scores if not s.is_baseline}, key=list(Strategy).index)
    if protocol == "paper" and not any(s.is_s1 for s in members):
        raise InputError("no S1 variant (direct or direct_ref) scored on the labelled set: under the paper "
                         "protocol every candidate team must contain S1", field="strategies")
    kw: dict[str, Any] = {"protocol": protocol}
    # on the labelled set the pass mark is chosen, not tested: no pass/fail figures there
    # each team under the papers' mean and, when it holds an evidence juror, evidence first: the rule is chosen too
    teams = [score_team(chosen_set, t, round_mean=round_selection, threshold=None, merge=rule, **kw)
             for t in candidate_teams(members, protocol=protocol)
             for rule in RULES if rule == "mean" or (protocol == "default" and any(m.is_evidence for m in t))]
    if not teams:
        raise InputError("no juror scored on the labelled set: nothing to choose from" if protocol == "default"
                         else "fewer than two members scored on the labelled set: nothing to choose from")
    teams.sort(key=_rank_key)
    chosen = teams[0]
    singles = [score_team(chosen_set, [m], round_mean=round_selection, threshold=None, **kw) for m in members]
    def mark(ms: Sequence[Strategy], rule: MergeRule = "mean") -> float:  # chosen on the labelled set (pass/fail)
        t = pass_mark(chosen_set, ms, protocol=protocol, merge=rule)
        return ACCEPT if t is None else t

    evaluation = score_team(rest, chosen.members, round_mean=True, ci=True, resamples=resamples, seed=seed,
                            threshold=mark(chosen.members, chosen.merge), merge=chosen.merge, **kw) if rest else None
    first = records[0]
    return Calibration(
        protocol=protocol, task=first.task, seed=seed, n_labelled=len(chosen_set),
        labelled_ids=[r.sample_id for r in chosen_set], round_selection=round_selection, chosen=chosen,
        teams=teams, strategies=singles, evaluation=evaluation,
        evaluation_members=[score_team(rest, [m], round_mean=True, ci=True, resamples=resamples, seed=seed,
                                       threshold=mark([m]), **kw) for m in members] if rest else [],
        all_members=score_team(rest, members, round_mean=True, threshold=mark(members), **kw) if rest else None,
        threshold=pass_mark(chosen_set, chosen.members, protocol=protocol, merge=chosen.merge),
        stability=selection_stability(chosen_set, teams, resamples=min(resamples, STABILITY_RESAMPLES), seed=seed,
                                      round_mean=round_selection, **kw),
        stability_resamples=min(resamples, STABILITY_RESAMPLES),
        model=first.model, prompt_version=first.prompt_version,
    )
