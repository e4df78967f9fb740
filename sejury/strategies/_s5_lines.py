"""S5's lines in the verdict's table: the tests generated, checked and passed, the repair round,
the mutation check and its second rounds."""

from __future__ import annotations

from sejury.execution.domain import outside_note
from sejury.execution.evidence import SecondRound, TestExecution
from sejury.schema import StrategyResult


def detail_lines(result: StrategyResult) -> list[str]:
    art = result.artifacts
    if "n_tests" not in art:
        return []
    ex = TestExecution.from_artifact(art.get("execution"))
    if ex is None or ex.status == "not_requested":
        return [f"{art['n_tests']} tests generated; not run: {ex.reason if ex else 'no record'}"]
    if ex.status != "ran":
        return [f"{art['n_tests']} tests generated; not run: {ex.reason}"]
    cand = ex.candidate
    checked = (f"{ex.invalid_on_reference} invalid on the reference, {ex.valid} valid" if ex.validated
               else "none checked (no reference)")
    if ex.out_of_domain:
        checked = f"{outside_note(ex.out_of_domain, ex.outside_domain)}, {checked}"
    line = (f"{ex.generated} tests generated, {checked}; candidate passed {cand.passed if cand else 0}/{ex.valid}"
            f"{'' if ex.executable else ' (does not load)'}; score = {art.get('score_rule')}")
    if ex.sample_tests:
        line += f"; sample's own tests: {ex.sample_tests.passed}/{ex.sample_tests.total} passed"
    return [line, *repair_lines(ex), *mutation_lines(ex)]


def repair_lines(ex: TestExecution) -> list[str]:
    """What the rounds that mend a suite did, for the verdict's table."""
    return files_lines(ex) + _rewrite_lines(ex)


def files_lines(ex: TestExecution) -> list[str]:
    f = ex.files
    if f is None:
        return []
    wrote = f"the model wrote {', '.join(f.files)}" if f.files else "the model's reply gave none of them"
    did = (f"the tests then ran, {f.valid} of {f.generated} valid on the reference" if f.saved
           else "still no test valid on the reference" if f.files else "the first suite's record stands")
    return [f"the tests read files they never wrote ({f.errors}): {wrote}; {did}"]


def _rewrite_lines(ex: TestExecution) -> list[str]:
    r = ex.repair
    if r is None:
        return []
    first = r.errors.splitlines()[0][:120] if r.errors else ""
    did = (f"wrote {r.generated} tests again, {r.valid} valid on the reference: they replace the first suite"
           if r.saved else f"wrote {r.generated} tests again, none valid: the first suite's record stands")
    return [f"the first suite did not compile or load on the reference ({first}); the repair round {did}"]


def mutation_lines(ex: TestExecution) -> list[str]:
    """What ``--mutation-check`` found, for the verdict's table."""
    m = ex.mutation
    if m is None or m.score is None:
        return []
    line = f"the valid tests kill {m.killed}/{m.run} mutants of the reference (mutation score {m.score:.2f})"
    if m.survivors:
        line += "; surviving: " + "; ".join(m.survivors)
    return [line, *(round_line(n, r) for n, r in enumerate(m.rounds, 2))]


def round_line(n: int, r: SecondRound) -> str:
    """One second round, for the verdict's table."""
    head = f"round {n}, shown {r.shown}: "
    if not r.valid:
        return head + (r.reason or "no new test")
    return head + (f"{r.valid} of {r.generated} new tests valid on the reference, killing {r.killed} survivor(s)"
                   f"{'' if r.kills_shown else ' (not the one shown)'}; mutation score before {r.score_before:.2f}")
