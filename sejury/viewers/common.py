"""What both trace viewers (the terminal tree and the HTML page) read out of a stored judgment:
each juror's executed tests as rows, the merge as rows, and small text helpers."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, Protocol

from sejury.execution.domain import outside_note
from sejury.execution.evidence import SuiteRun, TestExecution
from sejury.merge import merge, split_tiers
from sejury.schema import Status, StrategyResult, Verdict
from sejury.strategies import spec

SHOWN_ARTIFACTS_SKIP = frozenset({"execution", "tests"})  # shown as the tests table and the tests' code


def fmt_score(x: float | None) -> str:
    return "-" if x is None else f"{x:g}"


def fmt_time(created: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(created))


def abbreviate(text: str, limit: int) -> str:
    """``text`` cut to about ``limit`` characters: its head and tail, saying how much was left out."""
    if limit <= 0 or len(text) <= limit:
        return text
    head = _cut(text[: limit * 2 // 3], at_end=True)
    tail = _cut(text[-(limit // 3):], at_end=False)
    return f"{head}\n[... {len(text) - len(head) - len(tail)} characters left out ...]\n{tail}"


def _cut(text: str, *, at_end: bool) -> str:
    """``text`` without the partial word (or line) at the end where it was cut (``at_end``), or at
    its start."""
    if at_end:
        i = max(text.rfind("\n"), text.rfind(" "))
        return (text[:i] if i > len(text) // 2 else text).rstrip()
    i = min((j for j in (text.find("\n"), text.find(" ")) if j >= 0), default=-1)
    return (text[i + 1:] if 0 <= i < len(text) // 2 else text).lstrip()


class Counted(Protocol):
    prompt_tokens: int
    completion_tokens: int
    cached_prompt_tokens: int


def tokens(x: Counted) -> str:
    """``1200+80 tokens`` (a verdict's, juror's or call's), and how many of the prompt's the model
    server read from its cache."""
    reused = f" ({x.cached_prompt_tokens} of the prompt's from the server's cache)" if x.cached_prompt_tokens else ""
    return f"{x.prompt_tokens}+{x.completion_tokens} tokens{reused}"


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def label(result: StrategyResult) -> str:
    """``S5 generate_tests``: the paper's name and the value."""
    return f"{result.strategy.paper_name} {result.strategy.value}"


def artifact_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=str)


@dataclass(frozen=True)
class ExecutedTest:
    """One executed test: its outcome on the reference and on the candidate (None: not run there)."""

    test: str
    on_reference: bool | None
    on_candidate: bool | None
    why: str = ""  # why it failed (on the candidate, else on the reference)

    @property
    def outcome(self) -> str:
        if self.on_reference is False:
            return "invalid"  # failed on the reference: discarded, not run on the candidate
        if self.on_candidate is None:
            return "not run"
        return "pass" if self.on_candidate else "fail"


@dataclass(frozen=True)
class ExecutedSuite:
    """A juror's executed tests: rows, and what the rows cannot show (older traces kept failures only)."""

    title: str
    execution: TestExecution | None
    rows: list[ExecutedTest]
    note: str = ""


def _failure_rows(run: SuiteRun, *, reference: bool) -> list[ExecutedTest]:
    return [ExecutedTest(test=f.get("test", ""), on_reference=not reference,
                         on_candidate=None if reference else False, why=f.get("why", "")) for f in run.failures]


def suite_rows(reference: SuiteRun | None, candidate: SuiteRun | None) -> tuple[list[ExecutedTest], str]:
    """Rows for a suite run on the reference (optional) then, its passing units, on the candidate.
    The candidate ran exactly the units that passed on the reference, in the same order."""
    ref_out = reference.outcomes if reference is not None else []
    cand_out = candidate.outcomes if candidate is not None else []
    old = "this trace predates per-test outcomes: only the first failures were kept"
    rows: list[ExecutedTest] = []
    if reference is not None and reference.total and not ref_out:
        rows = _failure_rows(reference, reference=True)
        if candidate is not None:
            rows += [r for r in _failure_rows(candidate, reference=False) if r.test not in {x.test for x in rows}]
        return rows, old
    if reference is None and candidate is not None and candidate.total and not cand_out:
        return _failure_rows(candidate, reference=False), old
    if reference is None:
        rows = [ExecutedTest(test=o.test, on_reference=None, on_candidate=o.passed,  # a plain run's word too
                             why=o.why + (f" · with the tests in its own process: {o.plain}" if o.plain else ""))
                for o in cand_out]
    else:
        queue = iter(cand_out)
        for o in ref_out:
            if not o.passed:
                rows.append(ExecutedTest(test=o.test, on_reference=False, on_candidate=None, why=o.why))
                continue
            c = next(queue, None)
            rows.append(ExecutedTest(test=o.test, on_reference=True, on_candidate=None if c is None else c.passed,
                                why="" if c is None else c.why))
    note = ""
    total = max(reference.total if reference else 0, candidate.total if candidate else 0)
    if total > len(rows):
        note = f"the first {len(rows)} of {total} tests are shown"
    return rows, note


def executed_tests(result: StrategyResult) -> list[ExecutedSuite]:
    """The tests a juror ran: S5's generated tests (and the sample's own tests on the candidate),
    or the sample's own tests (Sample-tests)."""
    ex = TestExecution.from_artifact(result.artifacts.get("execution"))
    if ex is None:
        return []
    if ex.status == "not_requested":
        return [ExecutedSuite(title="tests not run", execution=None, rows=[], note=ex.reason)]
    tables: list[ExecutedSuite] = []
    if ex.reference is not None or ex.candidate is not None:
        rows, note = suite_rows(ex.reference, ex.candidate)
        title = ("executed tests: the sample's own" if result.strategy.value == "sample_tests"
                 else f"executed tests: written by {result.strategy.paper_name}")
        tables.append(ExecutedSuite(title=title, execution=ex, rows=rows, note=note))
    elif ex.status == "skipped":
        tables.append(ExecutedSuite(title="tests not run", execution=ex, rows=[]))
    if ex.sample_tests is not None:
        rows, note = suite_rows(None, ex.sample_tests)
        tables.append(ExecutedSuite(title="the sample's own tests on the candidate (ground truth, not scored)",
                                execution=None, rows=rows, note=note))
    return tables


def execution_summary(ex: TestExecution) -> str:
    if ex.status != "ran":
        return f"{ex.generated} tests; not run: {ex.reason}" if ex.generated else f"not run: {ex.reason}"
    cand = ex.candidate
    parts = [f"{ex.generated} tests", *([outside_note(ex.out_of_domain, [])] if ex.out_of_domain else []),
             f"{ex.invalid_on_reference} invalid on the reference" if ex.reference else
             "not checked on a reference", f"{ex.valid} valid",
             f"candidate passed {cand.passed if cand else 0}/{ex.valid}"]
    if ex.executable is False:
        parts.append("the candidate does not load")
    return ", ".join(parts)


@dataclass(frozen=True)
class MergeRow:
    name: str  # strategy value
    label: str  # paper name + value
    status: Status
    score: float | None
    counted: bool  # averaged into the verdict's score
    note: str = ""


def merge_rows(v: Verdict) -> list[MergeRow]:
    """Every member of the judgment: the team's scored members are averaged; the rest say why not."""
    team = {s.value for s in v.team}
    rows = []
    for name, r in v.strategies.items():
        in_team = name in team
        counted = in_team and r.status is Status.SCORED and r.score is not None
        if counted:
            note = "averaged"
        elif not in_team or not r.in_team:
            fed = [v.strategies[f].strategy.paper_name for f in v.strategies if name in spec(f).feeders]
            note = f"not in the team (ran to feed {', '.join(fed) or 'another member'})"
        elif r.status is Status.SKIPPED:
            note = f"skipped: {r.detail}" if r.detail else "skipped"
        else:
            note = f"{r.status.value}: {r.detail}" if r.detail else r.status.value
        rows.append(MergeRow(name=name, label=label(r), status=r.status, score=r.score, counted=counted, note=note))
    return rows


def merge_formula(v: Verdict) -> str:
    """``mean(80, 75, 90) = 81.67``, the evidence-first rule's two tiers and its outcome, or why
    there is no score."""
    scores = [fmt_score(r.score) for r in merge_rows(v) if r.counted]
    if v.status != "scored" or not scores:
        return "no team member produced a score: the verdict is unscored (never 0)"
    if v.merge == "evidence_first":
        team = {s.value for s in v.team}
        graded, opinion = split_tiers([r for n, r in v.strategies.items() if n in team and r.in_team])
        m = merge(graded + opinion, v.strategies.values(), rule="evidence_first", pass_mark=v.pass_mark or 50)
        parts = [f"{what} mean({', '.join(fmt_score(r.score) for r in rs)}) = {fmt_score(round(x, 2))}"
                 for what, rs, x in (("executed checks", graded, m.evidence), ("opinion", opinion, m.opinion))
                 if rs and x is not None]
        text = "evidence first: " + "; ".join(parts) + f"  →  {fmt_score(v.score)}"
        if v.against:
            text += f" (kept below the pass mark {v.pass_mark:g}: definitive evidence against it)"
        elif v.passed is not None and v.pass_mark is not None:
            text += f" ({'passes' if v.passed else 'fails'} at {v.pass_mark:g})"
    else:
        text = f"mean({', '.join(scores)}) = {fmt_score(v.score)}"
    if v.scale is not None and v.scaled_score is not None:
        text += f"  →  {fmt_score(v.scaled_score)} on {v.scale.low:g}-{v.scale.high:g}"
    return text


def spread_text(v: Verdict) -> str:
    if v.spread is None:
        return "-"
    return f"{v.spread.min:g}–{v.spread.max:g} (std {v.spread.std:.1f})"
