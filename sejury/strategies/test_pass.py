"""S5-exec: the pass ratio of S5's own tests, as a juror of its own (0-100, no extra LLM call).

S5 writes tests from the problem and the reference; with ``--execute`` they run on the reference
(wrong ones are discarded) and then on the candidate.  This juror is ``100 * passed / valid``: the
evidence alone, without S5's LLM prediction, so calibration can weigh it on its own.  It reads S5's
result through a graph edge (S5 runs as its feeder even when S5 itself is not in the team).
"""

from __future__ import annotations

from sejury.context import JudgeContext
from sejury.execution.differential import ONLY_ERROR_PATHS
from sejury.execution.domain import edge_only
from sejury.execution.evidence import TestExecution, suite_weight
from sejury.schema import Sample, StrategyResult
from sejury.scoring import ParsedReply
from sejury.strategies import _io, generate_tests, generate_tests_formats
from sejury.strategies.base import Kind, Outcome, Recorder, StrategySpec, register


async def run(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
    if feed is None:
        return Outcome(None, detail="S5 did not run, so there are no tests to count")
    ex = TestExecution.from_artifact(feed.artifacts.get("execution"))
    if ex is None:
        return Outcome(None, detail=f"S5's tests did not run: {feed.detail or f'S5 is {feed.status.value}'}")
    if ex.status != "ran" or ex.pass_ratio is None:
        return Outcome(None, detail=f"S5's tests did not run: {ex.reason or 'no pass ratio'}")
    diff = ex.differential
    if diff is not None and diff.valid_only_error_paths and ex.pass_ratio == 1:
        return Outcome(None, detail=ONLY_ERROR_PATHS.format(function=diff.function))
    if diff is not None and diff.valid_without_calls:
        return Outcome(None, detail=f"no valid test calls {diff.function} (they would pass on any program)")
    artifacts: dict[str, object] = {"pass_ratio": ex.pass_ratio, "generated": ex.generated, "valid": ex.valid,
                 "invalid_on_reference": ex.invalid_on_reference,
                 "passed": ex.candidate.passed if ex.candidate else None, "executable": ex.executable,
                 "validated": ex.validated, "tests_from": feed.strategy.paper_name,
                 "mutation_score": ex.mutation.score if ex.mutation else None}
    if ex.out_of_domain:
        artifacts["out_of_domain"], artifacts["outside_domain"] = ex.out_of_domain, ex.outside_domain
    run = ex.candidate
    if run is not None and run.loaded and (edge := edge_only(ex.edge_tests, [f.get("test", "") for f in run.failures],
                                                               run.total - run.passed)):
        artifacts["edge_only"] = edge  # every test it fails gives an empty input the problem does not show
    weight = suite_weight(ex)
    if weight < 1:
        artifacts["weight"] = weight
    return Outcome(ParsedReply(score=round(100 * ex.pass_ratio, 2)), artifacts=artifacts, weight=weight,
                   detail=None if ex.validated else ex.reason, against=ex.against() if ex.validated else None)


def detail_lines(result: StrategyResult) -> list[str]:
    a = result.artifacts
    if "pass_ratio" not in a:
        return []
    if a.get("mutation_score") is not None:
        extra = [f"the tests' mutation score on the reference: {a['mutation_score']:.2f}"
                 + (f" (counts with weight {a['weight']:g} in the team's mean)" if "weight" in a else "")]
    else:
        extra = []
    if a.get("validated") is False:
        return [f"candidate passed {a['passed']}/{a['valid']} of the tests, unvalidated (no reference to check "
                "them on)"]
    return [f"candidate passed {a['passed']}/{a['valid']} valid tests ({a['invalid_on_reference']} "
            f"of {a['generated']} discarded on the reference{_left_out_note(a)})", *extra]


def _left_out_note(a: dict[str, object]) -> str:
    """The tests left out for calling the function outside the problem's domain, if any."""
    n, shown = a.get("out_of_domain"), a.get("outside_domain")
    if not n:
        return ""
    first = f", e.g. {shown[0][:80]}" if isinstance(shown, list) and shown else ""
    return f"; {n} left out: outside the domain the problem's examples show{first}"


def applies(sample: Sample) -> str | None:
    """S5's tests when the sample has a reference; S5-nl's (from the problem alone) otherwise."""
    why = generate_tests.applies(sample)
    return None if why is None or generate_tests_formats.nl_applies(sample) is None else why


SPEC = register(StrategySpec(
    value="test_pass", paper_name="S5-exec", aliases=("exec",), kind=Kind.EVIDENCE, run=run, rank=51,
    version=lambda: "exec-6", applies=applies, needs_execute=True,
    joins_default=_io.model_inputs_join(applies), feeders=("generate_tests", "generate_tests_nl"),
    detail_lines=detail_lines, summary="the share of S5's tests, validated on the reference, the candidate passes"))
