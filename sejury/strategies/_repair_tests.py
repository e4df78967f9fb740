"""One repair round for S5's tests that do not compile or load on the reference, or read a file
they never wrote: the model is shown the compiler's or interpreter's errors
(``_partials/repair_tests.md``) and writes the suite again, which is validated again.  Small models
call helpers they never define (Go's ``equalSlices``), misspell the standard library or read
``data.csv`` without writing it; without this round the whole suite is lost."""

from __future__ import annotations

import re

from sejury import prompts
from sejury.context import JudgeContext
from sejury.execution.evidence import TestExecution, TestRepair
from sejury.sandbox.libraries import sample_profile
from sejury.schema import Sample
from sejury.strategies._tests_text import read_tests
from sejury.strategies.base import Recorder, ask_text

# a unit's failure that is the suite's fault, not a wrong expectation
_BROKEN = re.compile(r"compile|is not defined|NameError|ReferenceError|ImportError|SyntaxError|cannot find symbol|"
                     r"undefined|not declared|was not declared|no member named|cannot be resolved|"
                     r"FileNotFoundError|No such file", re.I)  # the last: a file the tests never wrote
_DIAGNOSTIC = re.compile(r"error|undefined|cannot find|not declared|is not defined|NameError|ReferenceError|"
                         r"^\S+\.\w+:\d+(?::\d+)?:", re.I)  # the last: a compiler's file:line: message
MAX_ERRORS = 1500


def suite_errors(ex: TestExecution) -> str | None:
    """What to show the model when its suite does not compile or load on the reference: no test
    passed there and most failed for the suite's own fault (a compile error, an undefined name).
    None when the suite ran (a wrong expected value is S5-diff's business, not a repair's)."""
    ref = ex.reference
    if ref is None or not ref.loaded or ex.valid or not ref.outcomes:
        return None
    reasons = [o.why for o in ref.outcomes]
    broken = [r for r in reasons if _BROKEN.search(r)]
    if len(broken) * 2 < len(reasons):
        return None
    lines = [ln.strip() for ln in ref.stdout_tail.splitlines() if _DIAGNOSTIC.search(ln) and "@@" not in ln]
    return "\n".join(dict.fromkeys([*lines, *(r.strip() for r in broken)]))[:MAX_ERRORS]


async def rewrite(sample: Sample, ctx: JudgeContext, rec: Recorder, tests: str, errors: str) -> tuple[str, int]:
    """The model's suite written again after seeing ``errors``: (tests, how many)."""
    reply = await ask_text(ctx, rec, "repair_tests", prompts.render_partial(
        "repair_tests", language=sample.language, problem=sample.problem, reference=sample.reference or "",
        tests=tests, errors=errors, test_style=prompts.test_style(sample.language, sample_profile(sample))))
    return read_tests(reply.text, sample.language, reply.finish_reason == "length")


def outcome(errors: str, again: TestExecution | None, generated: int) -> TestRepair:
    """The record of the round: what was shown, what came back, whether it saved the suite."""
    valid = again.valid if again is not None else 0
    return TestRepair(errors=errors, generated=generated, valid=valid, saved=valid > 0)
