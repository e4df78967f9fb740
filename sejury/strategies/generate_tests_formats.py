"""S5 in CodeScore's two other input formats: tests written from the problem alone (S5-nl), and
from the reference alone (S5-code); S5 itself sees both.  Everything else is S5's: the tests are
validated on the reference whenever the sample has one, run on the candidate with ``--execute``,
and predicted.  S5-nl also works without a reference: its tests then run unvalidated (a test the
model got wrong counts against the candidate), and its record says so.  Code generation only.
Both are opt-in: judged when named in a team (or ``sejury calibrate --also``), never by default.
"""

from __future__ import annotations

from sejury.schema import Sample, Task
from sejury.strategies import generate_tests as s5
from sejury.strategies._s5_lines import detail_lines
from sejury.strategies.base import Kind, StrategySpec, register


def nl_applies(sample: Sample) -> str | None:
    return None if sample.task is Task.CODE_GENERATION else "S5-nl is for code generation"


def code_applies(sample: Sample) -> str | None:
    if sample.task is not Task.CODE_GENERATION:
        return "S5-code is for code generation"
    return None if sample.reference else "no reference to derive tests from"


NL = register(StrategySpec(
    value="generate_tests_nl", paper_name="S5-nl", aliases=("s5_nl", "nl_tests"), kind=Kind.LLM,
    run=s5.make_run("generate_tests_nl", sees_reference=False), rank=55, steps=("write", "predict"),
    tasks=(Task.CODE_GENERATION,), partials=s5.PARTIALS, llm_calls=2, applies=nl_applies,
    opt_in=True,
    feed_digest=s5.feed_digest, cache_extra=s5.cache_extra, detail_lines=detail_lines,
    summary="S5 with tests written from the problem alone (CodeScore's NL-only); runs without a reference"))

CODE = register(StrategySpec(
    value="generate_tests_code", paper_name="S5-code", aliases=("s5_code", "code_tests"), kind=Kind.LLM,
    run=s5.make_run("generate_tests_code", sees_problem=False), rank=56, steps=("write", "predict"),
    tasks=(Task.CODE_GENERATION,), partials=s5.PARTIALS, llm_calls=2,
    applies=code_applies, opt_in=True, feed_digest=s5.feed_digest, cache_extra=s5.cache_extra,
    detail_lines=detail_lines,
    summary="S5 with tests written from the reference alone (CodeScore's Ref-only)"))
