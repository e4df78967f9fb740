"""Ordering attempts by their evidence (pure: the runs are in, nothing is called here).

Without a reference, CodeT's dual agreement (Chen et al., 2022): an attempt that behaves like many
others *and* passes many of the generated tests is likely right, since wrong attempts rarely agree
with each other while the tests, written once from the problem, are right more often than not.
Here an attempt's *support* is the number of loaded attempts that behave like it, each counted by
the share of probe inputs (the tests' calls, the problem's examples and their mutations) on which
they return the same values (itself included: 1).  A behaviour split by one out-of-domain input
thus keeps most of its weight, where CodeT's exact groups would split it in two.  The score is
``100 * support / loaded * passed``, where ``passed`` is the share of generated tests passed, or,
where the problem states the outputs of its examples (``iscube(2) ==> False``: ``stated``), the mean
of that share and the share of those examples the attempt returns: 100 when every attempt agrees
and passes every test and example.  A stated example no attempt returns is not counted (the
problem's example may be wrong, or misread).

With a reference, the tests are validated on it: the score is the mean of the share of valid
tests passed and the share of inputs on which the attempt returns the reference's value (S5-exec
and S5-diff); agreement among attempts breaks ties.

Either way the user's own tests come first (an attempt failing one ranks below every attempt that
passes them all), and an attempt that does not load ranks last with score 0."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sejury.execution.differential import as_compared, compare
from sejury.execution.reference import load_error_line
from sejury.execution.stated import matches
from sejury.rank.records import Behaviour, RankedCandidate, TieBreak

NO_REFERENCE_RULE = ("without a reference (CodeT's dual agreement): 100 x (attempts behaving alike / attempts "
                     "that load) x (generated tests passed / tests, averaged with the problem's stated examples "
                     "returned / examples where it states them); the tests are not validated")
REFERENCE_RULE = ("with a reference: the mean of the valid tests' pass ratio and the share of inputs on which "
                  "the attempt returns the reference's value; agreement among attempts breaks ties")
# programs that read stdin and print (``programs.py``): no test is written, the inputs are the evidence
PROGRAM_RULE = ("programs without a reference (CodeT's dual agreement): 100 x (attempts printing alike / attempts "
                "that load) x (the problem's examples whose stated output it prints in time / examples, where it "
                "states them); the mutated inputs have no known output: attempts are compared with each other")
PROGRAM_REFERENCE_RULE = ("programs with a reference: the share of inputs (the problem's examples, your tests, "
                          "mutations of the examples) on which the attempt prints the reference's output within "
                          "its time limit; agreement among attempts breaks ties")


@dataclass(frozen=True)
class Probe:
    """What the attempts ran: the probe suite's units (tests first, then example inputs)."""

    function: str | None  # the problem's function whose calls are recorded
    units: list[str]
    tests: int  # units[:tests] are the generated tests; the rest are example inputs
    typed_raises: bool = False  # the problem states what its function raises
    # the problem's examples with a stated output: (the example input's unit, the value, the example's text)
    stated: tuple[tuple[int, Any, str], ...] = ()
    # the generated tests left out, before they ran: each one's call outside the domain the problem's
    # examples show (``execution/domain.py``, as S5 leaves them out)
    outside_domain: tuple[str, ...] = ()
    # a program's inputs on stdin (``programs.py``): each unit's value is its output's label, compared
    # as such (the stated examples too), and the reasons say "prints"
    stdio: bool = False

    def returns(self, expected: Any, recorded: list[str]) -> bool | None:
        """Does an attempt's record of one unit give ``expected`` (None: nothing recorded)?"""
        if self.stdio:
            return recorded == [expected] if recorded else None
        return matches(expected, recorded)


def similarity(a: dict[int, list[str]], b: dict[int, list[str]], units: list[int]) -> float:
    """The share of ``units`` on which two attempts recorded the same values."""
    if not units:
        return 1.0
    return sum(1 for i in units if a.get(i, []) == b.get(i, [])) / len(units)


def _signatures(behaviours: list[Behaviour], probe: Probe) -> tuple[list[dict[int, list[str]]], list[int]]:
    """Each attempt's behaviour as compared (values per unit; the pass vector where no call was
    recorded), and the units compared on."""
    sigs = [{i: as_compared(v, probe.typed_raises) for i, v in b.values.items()} for b in behaviours]
    units = sorted({i for b, s in zip(behaviours, sigs, strict=True) if b.loaded for i, v in s.items() if v})
    if units:
        return sigs, units
    passes = [{i: ["pass" if ok else "fail"] for i, ok in enumerate(b.passed)} for b in behaviours]
    return passes, list(range(probe.tests))


def _supports(behaviours: list[Behaviour], sigs: list[dict[int, list[str]]], units: list[int]) -> list[float]:
    loaded = [j for j, b in enumerate(behaviours) if b.loaded]
    return [sum(similarity(sigs[i], sigs[j], units) for j in loaded) if b.loaded else 0.0
            for i, b in enumerate(behaviours)]


def _user_failed(b: Behaviour) -> int:
    return sum(1 for ok in b.user_passed or [] if not ok)


def stated_checks(behaviours: list[Behaviour], probe: Probe) -> list[tuple[int, Any, str]]:
    """The problem's stated examples that count: those some attempt that loads returns."""
    return [s for s in probe.stated
            if any(b.loaded and probe.returns(s[1], b.values.get(s[0], [])) for b in behaviours)]


def _stated_passed(b: Behaviour, checks: list[tuple[int, Any, str]], probe: Probe) -> list[bool]:
    return [b.loaded and bool(probe.returns(expected, b.values.get(unit, []))) for unit, expected, _ in checks]


def rank(behaviours: list[Behaviour], probe: Probe, *, reference: Behaviour | None = None,
         ids: list[str | None] | None = None, use_stated: bool = True,
         notes: list[list[str]] | None = None) -> list[RankedCandidate]:
    """The attempts, best first (see the module's rules); ``use_stated`` False leaves the
    problem's stated examples out (to measure what they add); ``notes``: per attempt, what its runs
    showed beyond its values (a program's slow, hung or failing inputs), added to its reasons."""
    sigs, units = _signatures(behaviours, probe)
    checks = stated_checks(behaviours, probe) if reference is None and use_stated else []
    support = _supports(behaviours, sigs, units)
    n_loaded = sum(1 for b in behaviours if b.loaded)
    valid = list(range(probe.tests)) if reference is None else \
        [i for i, ok in enumerate(reference.passed[:probe.tests]) if ok]
    scored: list[RankedCandidate] = []
    for i, b in enumerate(behaviours):
        passed = sum(1 for t in valid if t < len(b.passed) and b.passed[t]) if b.loaded else 0
        c = RankedCandidate(index=i, id=(ids or [None] * len(behaviours))[i], rank=0, score=0.0, group=0,
                            support=round(support[i], 3), loaded=b.loaded, tests_passed=passed,
                            tests_total=len(valid))
        if b.user_passed is not None:
            c.user_tests_passed, c.user_tests_total = sum(b.user_passed), len(b.user_passed)
        stated = _stated_passed(b, checks, probe)
        if checks:
            c.examples_passed, c.examples_total = sum(stated), len(checks)
        if b.loaded:
            ratios = [passed / len(valid)] if valid else []
            if checks:
                ratios.append(sum(stated) / len(checks))
            c.score = _with_reference(c, b, reference, probe, valid) if reference is not None else \
                round(100 * support[i] / n_loaded * (sum(ratios) / len(ratios) if ratios else 1.0), 2)
        c.reasons = _evidence(c, b, reference is not None, n_loaded, _stated_line(checks, stated, probe.stdio),
                              probe.stdio, (notes or [])[i] if i < len(notes or []) else [])
        scored.append(c)
    scored.sort(key=lambda c: (not c.loaded, _user_failed(behaviours[c.index]), -c.score, -c.support, c.index))
    groups: dict[str, int] = {}
    for n, c in enumerate(scored, 1):
        c.rank = n
        key = repr(sorted(sigs[c.index].items())) + repr(behaviours[c.index].passed) if c.loaded else f"x{c.index}"
        c.group = groups.setdefault(key, len(groups) + 1)
    return scored


def _with_reference(c: RankedCandidate, b: Behaviour, reference: Behaviour, probe: Probe, valid: list[int]) -> float:
    ratios = [c.tests_passed / len(valid)] if valid else []
    if probe.function is not None and reference.values:
        diff = compare(probe.function, probe.units, reference.values, b.values, set(valid), {}, probe.typed_raises)
        c.agreed, c.inputs = diff.agreed, diff.inputs
        if diff.ratio is not None:
            ratios.append(diff.ratio)
    return round(100 * sum(ratios) / len(ratios), 2) if ratios else 0.0


def _stated_line(checks: list[tuple[int, Any, str]], stated: list[bool], stdio: bool = False) -> str | None:
    if not checks:
        return None
    what = "prints the stated output of {} the problem's examples in time" if stdio else \
        "returns {} the problem's stated examples"
    if all(stated):
        return what.format(f"all {len(checks)} of")
    failed = [text[:80] for (_, _, text), ok in zip(checks, stated, strict=True) if not ok]
    return what.format(f"{sum(stated)}/{len(checks)} of") + f" (not: {'; '.join(failed[:2])})"


def _evidence(c: RankedCandidate, b: Behaviour, validated: bool, n_loaded: int, stated: str | None,
              stdio: bool = False, notes: list[str] | None = None) -> list[str]:
    if not c.loaded:
        return [f"does not load or compile: {load_error_line(b.load_error)[:200]}"]
    out = []
    if c.user_tests_total:
        out.append(f"passes {c.user_tests_passed}/{c.user_tests_total} of your tests")
    if stated is not None:
        out.append(stated)
    if c.tests_total:
        out.append(f"passes {c.tests_passed}/{c.tests_total} generated tests"
                   + (" (validated on the reference)" if validated else " (not validated: no reference)"))
    if c.inputs:
        out.append(f"prints the reference's output in time on {c.agreed}/{c.inputs} inputs" if stdio else
                   f"returns the reference's value on {c.agreed}/{c.inputs} inputs")
    out.append(f"behaves like {c.support:.3g} of the {n_loaded} attempts that load (by the share of inputs agreed)")
    out.extend(notes or [])
    if b.tampering:
        out.append("tampering suspected: " + "; ".join(b.tampering))
    return out


def _tied(c: RankedCandidate, top: RankedCandidate, behaviours: list[Behaviour]) -> bool:
    """``c`` ties with ``top`` on the evidence: it loads, fails as many of the user's tests and has
    the same score (scores are rounded to 0.01: that is the tolerance)."""
    return c.loaded and c.score == top.score and _user_failed(behaviours[c.index]) == _user_failed(
        behaviours[top.index])


def tied_behaviours(ranked: list[RankedCandidate], behaviours: list[Behaviour]) -> list[RankedCandidate]:
    """The first attempt of each behaviour (``group``) that shares the top score, in the ranking's
    order: two or more are a tie the evidence cannot break."""
    if not ranked or not ranked[0].loaded:
        return []
    seen: set[int] = set()
    out = []
    for c in ranked:
        if _tied(c, ranked[0], behaviours) and c.group not in seen:
            seen.add(c.group)
            out.append(c)
    return out


def reorder(ranked: list[RankedCandidate], behaviours: list[Behaviour], first: list[int]) -> list[RankedCandidate]:
    """``ranked`` with the tied behaviours of the attempts ``first`` in that order at the top, each
    behaviour's attempts together (in their order), then the other tied ones, then the rest as they
    were; ranks and groups renumbered (group 1: the top one's)."""
    n = sum(1 for c in ranked if _tied(c, ranked[0], behaviours)) if ranked and ranked[0].loaded else 0
    block, rest = ranked[:n], ranked[n:]
    lead = [next(c.group for c in block if c.index == i) for i in first]
    moved = [c for g in lead for c in block if c.group == g] + [c for c in block if c.group not in lead]
    out = moved + rest
    groups: dict[int, int] = {}
    for k, c in enumerate(out, 1):
        c.rank, c.group = k, groups.setdefault(c.group, len(groups) + 1)
    return out


def _tie_reason(top: RankedCandidate, tied: list[RankedCandidate], tie: TieBreak | None) -> str:
    """Why a tie of different behaviours needs review: the model's choice where it settled it."""
    beyond = (f"; {len(tie.not_asked)} more tied behaviour(s) not asked (at most {len(tie.attempts)} are): "
              + ", ".join(map(str, tie.not_asked[:5]))) if tie is not None and tie.not_asked else ""
    if tie is not None and tie.chosen == top.index:
        won = [p.outcome for p in tie.pairs if top.index in (p.a, p.b)]
        return (f"the model chose attempt {top.index} among attempts that behave differently and score the same "
                f"({top.score:g}), asked in both orders: {'; '.join(won)}{beyond}; an opinion, not evidence")
    said = "; the model did not settle it: " + "; ".join(p.outcome for p in tie.pairs) if tie is not None else ""
    return (f"attempts that behave differently score the same ({top.score:g}): "
            + ", ".join(str(c.index) for c in [top, *tied][:5]) + said + beyond)


def review(ranked: list[RankedCandidate], behaviours: list[Behaviour], probe: Probe, validated: bool,
           tie: TieBreak | None = None) -> list[str]:
    """Why the choice needs a human's look ([] when the evidence settles it); marks the candidates.
    ``tie``: the model's tie-break, already applied to the order (``reorder``)."""
    if not ranked or not ranked[0].loaded:
        return ["no attempt loads or compiles"]
    top = ranked[0]
    why = []
    if not probe.units:
        why.append("no test or input ran: the attempts are in the order given")
    elif not probe.tests and top.user_tests_total is None and not top.examples_total and not (
            probe.stdio and validated):
        why.append("no input's output is known (no stated example, no test of yours, no reference): the order "
                   "rests on agreement on the inputs alone" if probe.stdio else
                   "no generated test could be read or run: the order rests on agreement on the inputs alone")
    if _user_failed(behaviours[top.index]):
        why.append("every attempt fails at least one of your tests")
    tied = [c for c in ranked[1:] if c.group != top.group and _tied(c, top, behaviours)]
    if tied:
        why.append(_tie_reason(top, tied, tie))
        for c in tied:
            c.needs_review = True
    n_loaded = sum(1 for c in ranked if c.loaded)
    if validated:
        if top.score < 100:
            why.append(f"even the best attempt scores {top.score:g}: it fails valid tests or differs from the "
                       "reference")
    else:
        if n_loaded >= 3 and top.support < n_loaded / 2:
            why.append(f"the chosen behaviour is shared by {top.support:.3g} of the {n_loaded} attempts that load")
        if top.tests_total and top.tests_passed < top.tests_total / 2:
            why.append(f"the chosen attempt passes only {top.tests_passed}/{top.tests_total} of the generated tests")
        if top.examples_total and top.examples_passed != top.examples_total:
            why.append(f"the chosen attempt returns only {top.examples_passed}/{top.examples_total} of the "
                       "problem's stated examples")
    top.needs_review = bool(why)
    if why:
        top.reasons = [*top.reasons, *(f"review: {w}" for w in why)]
    return why
