"""Ex-fuzz without a reference: the candidate on the problem's examples whose output the problem
states (``execution/stated.py``: ``iscube(2) ==> False``), the stated values the expected ones.

With no reference nothing answers mutated inputs, so only the examples themselves run; the score
is ``100 * returned as stated / examples read back``.  A stated example may be wrong (HumanEval's
``median`` states 15.0 where its own tests want 8.0), and nothing here can tell: the record says
the expected values are the problem's, not validated on a reference."""

from __future__ import annotations

from typing import Any

from sejury.context import JudgeContext
from sejury.execution.calls import call_writer, reads_literals
from sejury.execution.differential import bare, record_calls, recorded_function
from sejury.execution.evidence import SuiteRun
from sejury.execution.languages import Suite
from sejury.execution.programs import programs
from sejury.execution.reference import load_error_line
from sejury.execution.runner import run_suite
from sejury.execution.stated import Stated, matches, stated_examples
from sejury.sandbox.libraries import missing_library, missing_note
from sejury.schema import Sample, StrategyResult
from sejury.scoring import ParsedReply
from sejury.strategies._calls import Recorder
from sejury.strategies.base import Outcome

MAX_SHOWN = 3
MAX_EXAMPLES = 30  # a problem's text may be hostile: at most this many examples run (the first ones)


def examples_of(sample: Sample) -> tuple[str, list[tuple[str, Stated]]] | None:
    """The function and its stated examples, each with its call written in the sample's language
    (None: the problem declares no function returning a value, or its language is not read)."""
    function = recorded_function(sample.problem)
    if function is None or not reads_literals(sample.language):
        return None
    write = call_writer(sample.problem, function, sample.language)
    if write is None:
        return None
    return function, [(call, s) for s in stated_examples(sample.problem, function, sample.language)
                      if (call := write(s.call)) is not None][:MAX_EXAMPLES]


async def run(sample: Sample, ctx: JudgeContext, rec: Recorder, reference_failed: str = "",
              found: tuple[str, list[tuple[str, Stated]]] | None = None) -> Outcome:
    """The candidate on the stated examples.  ``reference_failed``: the sample has a reference, but it
    does not load or compile (why): a candidate that does not load either is no evidence then (the
    harness may be at fault for both; S5 reads the candidate's own compile errors)."""
    found = found or examples_of(sample)  # ``found``: the caller's own reading of them
    if found is None or not found[1]:
        return Outcome(None, detail="no reference, and the problem states no example's output to check")
    assert ctx.sandbox is not None
    function, examples = found
    _, candidate, _ = programs(sample.task.value, sample.language, sample.problem, "", sample.candidate,
                               sample.metadata)
    units = [record_calls(call, i, function) for i, (call, _) in enumerate(examples)]
    # the language's own time limit for a run (compiling included); each call has the harness's own
    suite = Suite("", units, tested=frozenset({function}))
    report = await run_suite(ctx.sandbox, sample.language, candidate or "", suite)
    rec.sandbox_event("run_candidate_on_stated_examples", SuiteRun.of(report, units))
    artifacts: dict[str, Any] = {"function": function, "stated": len(examples), "no_reference": True}
    if reference_failed:
        artifacts["reference_failed"] = reference_failed[:300]
    if not report.loaded and (module := missing_library(report.load_error)) is not None:
        return Outcome(None, detail=missing_note(module), artifacts=artifacts)
    if not report.loaded and reference_failed:
        return Outcome(None, artifacts=artifacts, detail=f"{reference_failed}; the candidate does not load or "
                       f"compile either: {load_error_line(report.load_error)[:200]}")
    if not report.loaded:
        return Outcome(ParsedReply(score=0.0), artifacts={**artifacts, "inputs": 0, "agreed": 0},
                       detail="the candidate does not load or compile: " + load_error_line(report.load_error)[:200])
    counted = []  # (the example, returned as stated, the candidate's value) where the value reads back
    for i, (_, s) in enumerate(examples):
        ok = matches(s.expected, report.values.get(i, []))
        if ok is not None:
            counted.append((s, ok, bare(report.values.get(i, [""])[0])))
    agreed = sum(1 for _, ok, _ in counted if ok)
    artifacts |= {"inputs": len(counted), "agreed": agreed,
                  "differs": [{"example": s.text[:200], "candidate": v[:200]}
                              for s, ok, v in counted if not ok][:MAX_SHOWN]}
    if report.tampering:
        artifacts["tampering"] = report.tampering
    if not counted:
        return Outcome(None, artifacts=artifacts,
                       detail=f"the candidate's values on the problem's {len(examples)} stated examples could not "
                              "be read back (nothing recorded, or a value shown in a form not read)")
    return Outcome(ParsedReply(score=round(100 * agreed / len(counted), 2)), artifacts=artifacts,
                   against="tampering suspected: " + "; ".join(report.tampering) if report.tampering else None)


def detail_lines(result: StrategyResult) -> list[str]:
    a = result.artifacts
    why = ("the reference does not load or compile" if a.get("reference_failed") else "no reference")
    lines = [f"{why}: the candidate returned the output the problem states on {a['agreed']}/{a['inputs']} "
             f"of its examples of {a['function']} (the stated values, not validated on a reference)"]
    return lines + [f"differs: {d['example']}, candidate {d['candidate']}" for d in a.get("differs", [])]
