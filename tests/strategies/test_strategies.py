"""Adding a juror or a language is one module (and its prompt files): a toy strategy and a toy
language defined here, registered, judged through the real graph with a scripted model."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from langchain_core.messages import BaseMessage

from sejury import Judge, Sample, Status, Strategy
from sejury.context import JudgeContext
from sejury.execution import languages
from sejury.execution.languages import Harness, Language, Suite
from sejury.execution.runner import split_tests
from sejury.graph import build_graph
from sejury.schema import StrategyResult, Task, parse_strategy
from sejury.scoring import ParsedReply
from sejury.strategies import Kind, Outcome, Recorder, StrategySpec, register, unregister
from sejury.strategies.base import ask_score
from tests.helpers.fakes import ScriptedChatModel

# ---- the toy strategy: everything about it is here and in its one prompt file ----------------


def toy_specs(prompt_root: Path) -> tuple[StrategySpec, StrategySpec]:
    async def run(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
        user = terse.render(sample.task, problem=sample.problem, candidate=sample.candidate)
        parsed, error = await ask_score(ctx, rec, "assess", user)
        return Outcome(parsed, detail=error or None)

    async def doubt(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
        if feed is None or feed.score is None:
            return Outcome(None, detail="nothing to doubt")
        return Outcome(ParsedReply(score=100 - feed.score), artifacts={"doubted": feed.strategy.value})

    terse = StrategySpec(value="terse", paper_name="T1", aliases=("toy",), kind=Kind.LLM, run=run, rank=100,
                         steps=(None,), tasks=(Task.CODE_GENERATION,), llm_calls=1, prompt_root=str(prompt_root))
    contrarian = StrategySpec(value="contrarian", paper_name="T2", kind=Kind.EVIDENCE, run=doubt, rank=101,
                              feeders=("terse",), version=lambda: "toy-1")
    return terse, contrarian


@pytest.fixture
def toy(tmp_path: Path) -> Iterator[None]:
    folder = tmp_path / "prompts" / "terse"
    folder.mkdir(parents=True)
    (folder / "code_generation.md").write_text(
        "TERSE: is this right?\n[BEGIN PROBLEM]\n{{problem}}\n[END PROBLEM]\n"
        "[BEGIN GENERATED CODE]\n{{candidate}}\n[END GENERATED CODE]\n{{> score_format}}\n")
    for spec in toy_specs(tmp_path / "prompts"):
        register(spec)
    yield
    unregister("contrarian")
    unregister("terse")


def terse_script(messages: list[BaseMessage]) -> str:
    assert str(messages[1].content).startswith("TERSE"), messages
    return "Reasons:\n- looks fine\nScore: 40"


def make(script: Callable[[list[BaseMessage]], str], **kwargs: object) -> tuple[Judge, ScriptedChatModel]:
    model = ScriptedChatModel(script=script)
    return Judge(model, cache=False, **kwargs), model  # type: ignore[arg-type]


async def test_a_toy_strategy_is_one_spec_and_one_prompt_file(toy: None, codegen: Sample) -> None:
    assert Strategy("terse") is parse_strategy("toy") is parse_strategy("T1")  # value, alias and paper name
    judge, model = make(terse_script, team="contrarian", merge="mean")  # the verdict is the one member's score
    v = await judge.ajudge(codegen)
    # the follower ran after its feeder, which ran once, outside the team
    assert v.team == [Strategy("contrarian")]
    assert v.strategies["terse"].in_team is False and v.strategies["terse"].score == 40
    assert v.strategies["contrarian"].score == 60 and v.score == 60
    assert v.strategies["contrarian"].artifacts == {"doubted": "terse"}
    assert model.calls == 1 and v.llm_calls == 1
    call = v.strategies["terse"].trace[0]
    assert call.kind == "llm_call" and call.reasons == ["looks fine"]
    assert "Score: <one integer from 0 to 100>" in call.messages[1]["content"]  # type: ignore[index]


async def test_a_toy_strategy_without_a_prompt_for_the_task_is_skipped(toy: None) -> None:
    judge, model = make(terse_script, team="terse,direct")
    summary = Sample(id="s", task="code_summarization", problem="code", candidate="adds two numbers")
    judge_direct_only = await judge.ajudge(summary, team=["terse"])
    r = judge_direct_only.strategies["terse"]
    assert r.status is Status.SKIPPED and r.detail == "T1 has no prompt for code_summarization"
    assert model.calls == 0


def test_the_graph_gets_a_node_and_the_feeder_edge_for_a_toy_strategy(toy: None) -> None:
    graph = build_graph().get_graph()
    assert {"terse", "contrarian"} <= set(graph.nodes)
    assert any(e.source == "terse" and e.target == "contrarian" for e in graph.edges)


def test_toys_are_gone_after_unregistering() -> None:
    assert "terse" not in {s.value for s in Strategy}
    with pytest.raises(ValueError):
        Strategy("terse")


def test_the_graph_declares_its_input_and_output() -> None:
    graph = build_graph()
    assert set(graph.get_input_jsonschema()["properties"]) == {"sample", "team"}
    assert set(graph.get_output_jsonschema()["properties"]) == {"verdict"}


# ---- the toy language: aliases, splitting and a harness in one object ------------------------

def _toy_harness(program: str, suite: Suite, active: dict[int, str], per_test: int) -> Harness:
    return Harness({"prog.toy": program}, "true")


@pytest.fixture
def toy_language() -> Iterator[Language]:
    import re

    lang = languages.register(Language(
        name="toylang", aliases=("tl",), split=lambda tests, names: Suite("", tests.split(";")),
        defined_names=lambda program: set(), harness=_toy_harness, test_line=re.compile(r"check")))
    yield lang
    languages.unregister("toylang")


def test_a_language_is_one_object_and_its_alias_is_normalised_once(toy_language: Language) -> None:
    s = Sample(id="x", task="code_generation", language="TL", problem="p", candidate="c")
    assert s.language == "toylang"
    assert split_tests("tl", "check 1;check 2").units == ["check 1", "check 2"]
    assert languages.get("tl") is toy_language


def test_builtin_aliases_agree_everywhere() -> None:
    from sejury import prompts

    js = Sample(id="x", task="code_generation", language="js", problem="p", candidate="c")
    assert js.language == "javascript"
    assert prompts.test_style(js.language) == prompts.test_style("javascript") != prompts.test_style("any")
    assert languages.get("c++") is languages.get("cpp") and languages.get("golang") is languages.get("go")


def test_sejury_strategies_lists_a_toy_strategy_from_its_spec(toy: None) -> None:
    import json

    from typer.testing import CliRunner

    from sejury.cli import app

    res = CliRunner().invoke(app, ["strategies", "--json"])
    assert res.exit_code == 0, res.output
    rows = {r["value"]: r for r in map(json.loads, res.stdout.splitlines())}
    assert list(rows)[:3] == ["sample_tests", "direct", "direct_ref"] and list(rows)[-2:] == ["terse", "contrarian"]
    assert rows["terse"]["paper_name"] == "T1" and rows["terse"]["tasks"] == ["code_generation"]
    assert rows["contrarian"]["feeders"] == ["terse"] and rows["equivalence"]["needs_reference"] is True
    assert rows["test_pass"]["needs_execute"] is True and rows["direct"]["needs_reference"] is False


def test_s5_exec_cache_key_follows_s5s_reason_when_there_is_no_ratio() -> None:
    """A juror fed S5's record must not keep a stale result from the cache when any of the record
    changes (an unscored S5-exec once kept a stale reason; S5-exec once missed a new field)."""
    from sejury.strategies.generate_tests import feed_digest

    def s5(**execution: object) -> StrategyResult:
        return StrategyResult(strategy=Strategy("generate_tests"), status=Status.SCORED, score=50,
                              artifacts={"execution": execution})

    no_tests = s5(status="skipped", reason="no test could be read from the generated tests", pass_ratio=None)
    no_ref = s5(status="skipped", reason="the reference does not load or compile", pass_ratio=None)
    assert feed_digest(no_tests) != feed_digest(no_ref)
    assert feed_digest(s5(status="ran", reason="", pass_ratio=0.5)) == feed_digest(s5(status="ran", pass_ratio=0.5))
    diff = {"function": "f", "inputs": 0, "agreed": 0}
    vacuous = s5(status="ran", pass_ratio=1.0, differential={**diff, "valid_without_calls": True})
    assert feed_digest(vacuous) != feed_digest(s5(status="ran", pass_ratio=1.0, differential=diff))  # any field read
    run = {"loaded": True, "total": 1, "passed": 1, "status": "passed"}
    assert feed_digest(s5(status="ran", pass_ratio=1.0, reference={**run, "seconds": 1.0})) == \
        feed_digest(s5(status="ran", pass_ratio=1.0, reference={**run, "seconds": 2.5}))  # not the timings


def test_jurors_that_run_code_themselves_are_keyed_on_the_harness_version() -> None:
    """A cached result of a juror that runs the candidate itself is not reused after the harness
    changed (sealing it, say): its version carries RUNNERS_VERSION.  The jurors that only read S5's
    runs are keyed on S5's result, which carries it."""
    from sejury.execution.runner import RUNNERS_VERSION
    from sejury.strategies import spec

    for name in ("sample_tests", "example_fuzz", "test_fuzz", "generate_tests"):
        s = spec(name)
        key = s.version_id() + (s.cache_extra(_ExecCtx()) if s.cache_extra else "")  # type: ignore[arg-type]
        assert f"runners:{RUNNERS_VERSION}" in key, name


class _ExecCtx:
    execute = True
    execution_weight = 0.75
    mutation_check = 0
    mutation_rounds = 1


def test_a_toy_languages_fields_decide_its_literals_its_stdin_and_its_comments(toy_language: Language) -> None:
    """Which languages the fuzzers read, how a program reading standard input is told and how a
    comment starts are the ``Language``'s: a sixth language gets them by setting its fields, and
    without them it is left out, with no edit of ``calls``, ``stdio`` or the probe's variants."""
    import re

    from sejury.checks.variants import injected
    from sejury.execution import calls, stdio

    assert not calls.reads_literals("toylang")
    assert not calls.typed_calls("toylang") and not stdio.reads_stdin("tl", "n = read_stdin()")
    assert all(v.candidate.startswith("// ") for v in injected("toylang", "x"))
    languages.register(Language(
        name="toylit", aliases=(), split=lambda tests, names: Suite("", tests.split(";")),
        defined_names=lambda program: set(), harness=_toy_harness, test_line=re.compile(r"check"),
        literals=True, reads_stdin=re.compile(r"\bread_stdin\("), line_comment="--",
        parameters=lambda problem, function: None))
    try:
        assert calls.reads_literals("toylit") and "toylit" in calls.literal_languages()
        assert calls.typed_calls("toylit") and calls.call_writer("toy(1)", "toy", "toylit") is None  # no types read
        assert calls.example_calls("shows toy([1, 2], 'a')", "toy", "toylit") == [(([1, 2], "a"), ())]
        assert stdio.reads_stdin("toylit", "n = read_stdin()") and not stdio.reads_stdin("toylit", "input()")
        assert all(v.candidate.startswith("-- ") for v in injected("toylit", "x"))
    finally:
        languages.unregister("toylit")
    assert "toylit" not in calls.literal_languages() and not calls.reads_literals("toylit")


async def test_the_fuzzers_say_a_language_whose_literals_are_not_read(toy_language: Language) -> None:
    from sejury.strategies import example_fuzz

    sample = Sample(id="x", task="code_generation", language="tl", problem="p", candidate="c", reference="r")
    out = await example_fuzz.run(sample, None, None, None)  # type: ignore[arg-type]  # it stops before using them
    assert out.parsed is None and out.detail == ("examples are read and written in cpp, go, java, javascript, "
                                                 "python only so far, not toylang")


def test_each_builtin_language_sets_its_literal_stdin_and_comment_facts() -> None:
    from sejury.execution import calls, stdio

    assert set(calls.literal_languages()) == set(languages.names()) == {"python", "javascript", "java", "cpp", "go"}
    assert {name for name in languages.names() if calls.typed_calls(name)} == {"java", "cpp", "go"}
    for name in languages.names():
        lang = languages.get(name)
        assert lang is not None and lang.reads_stdin is not None and lang.stdio is not None, name
        assert lang.line_comment == ("#" if name == "python" else "//"), name
    assert not stdio.reads_stdin("python", "std::cin >> n;") and stdio.reads_stdin("c++", "std::cin >> n;")
