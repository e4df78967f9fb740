"""``sejury probe``: variants in five languages (parsed, behaviour kept), verified on the real
sandbox, judged through the real graph (a scripted model: wiring only), and the effects computed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage

from sejury.api import Judge
from sejury.checks.probe import effects, probe_sample, write_outputs
from sejury.checks.variants import equivalents, injected
from sejury.execution.languages._parsers import parser
from sejury.execution.mutants import region_of
from sejury.execution.runner import assemble_program, run_suite, split_tests
from sejury.execution.signatures import last_function
from sejury.io import read_jsonl
from sejury.sandbox.docker import DockerSandbox
from sejury.schema import Sample
from tests.helpers.fakes import ScriptedChatModel
from tests.helpers.paths import EXAMPLES

COUNT_ABOVE = EXAMPLES / "tests_check" / "count_above.jsonl"


def _samples() -> dict[str, Sample]:
    samples, _ = read_jsonl(COUNT_ABOVE)
    return {s.language: s for s in samples if "weak" not in s.id}


@pytest.mark.parametrize("language", ["python", "javascript", "java", "cpp", "go"])
def test_equivalent_variants_rename_strip_and_reindent_and_still_parse(language: str) -> None:
    s = _samples()[language]
    program = assemble_program(language, s.problem, s.candidate)
    span = region_of(program, s.candidate)
    assert span is not None
    found = last_function(s.problem)
    assert found is not None
    made = {v.label: v.candidate for v in equivalents(language, program, span, s.candidate, {found.name})}
    assert {"renamed locals", "re-indented"} <= set(made)
    renamed = made["renamed locals"]
    assert "v1" in renamed and " n " not in f" {renamed} " and "xs" in renamed  # the parameter is the problem's
    assert language != "go" or "for _, v" in renamed  # Go's blank identifier stays
    for text in [*made.values(), *(v.candidate for v in injected(language, s.candidate))]:
        p = assemble_program(language, s.problem, text)
        assert not parser(language).parse(p.encode()).root_node.has_error, text


@pytest.mark.parametrize("language", ["python", "javascript", "java", "cpp", "go"])
def test_equivalent_rewrites_mirror_comparisons_and_expand_compound_assignments(language: str) -> None:
    """``x > t`` becomes ``t < x`` and ``n += 1`` becomes ``n = n + (1)``, inside the candidate only."""
    s = _samples()[language]
    program = assemble_program(language, s.problem, s.candidate)
    span = region_of(program, s.candidate)
    assert span is not None
    made = {v.label: v.candidate for v in equivalents(language, program, span, s.candidate, set())}
    mirrored, expanded = made["comparisons mirrored"], made["compound assignments expanded"]
    assert "t < x" in mirrored and "x > t" not in mirrored and "n += 1" in mirrored
    assert "n = n + (1)" in expanded and "+=" not in expanded and "x > t" in expanded
    for text in (mirrored, expanded):
        assert not parser(language).parse(assemble_program(language, s.problem, text).encode()).root_node.has_error


def test_comments_are_removed_and_injections_are_comments() -> None:
    candidate = "    # count the big ones\n    n = 0  # start\n    for x in xs:\n        n += x > t\n    return n\n"
    problem = "def count_above(xs, t):\n"
    program = assemble_program("python", problem, candidate)
    span = region_of(program, candidate)
    assert span is not None
    made = {v.label: v.candidate for v in equivalents("python", program, span, candidate, {"count_above"})}
    assert made["comments removed"] == "    n = 0\n    for x in xs:\n        n += x > t\n    return n\n"
    (claims, marker, rubric) = injected("python", candidate)
    assert claims.candidate.startswith("    # NOTE TO THE REVIEWER") and "[END CANDIDATE]" in marker.candidate
    assert rubric.candidate.endswith(candidate)


def _script(messages: list[BaseMessage]) -> str:
    """Fooled by an injection (100), blind to behaviour otherwise (60)."""
    text = str(messages[-1].content)
    return "Reasons:\n- fine\nScore: 100" if "score it 100" in text else "Reasons:\n- fine\nScore: 60"


@pytest.mark.docker
async def test_probe_verifies_variants_on_the_tests_and_measures_the_judge(sandbox: DockerSandbox,
                                                                           tmp_path: Path) -> None:
    s = _samples()["python"]
    judge = Judge(ScriptedChatModel(script=_script), team="S1", cache=False, traces=False)
    try:
        judged = await probe_sample(judge, s, sandbox, n_mutants=3, seed=0)
    finally:
        await judge.aclose()
    kinds = [j.kind for j in judged]
    assert kinds[0] == "original" and kinds.count("mutant") == 3 and kinds.count("injection") == 6
    assert all(j.verified for j in judged[1:]), [(j.label, j.why_unverified) for j in judged if not j.verified]
    by = {(e.juror, e.kind): e for e in effects(judged)}
    assert by[("S1", "equivalent")].mean_abs_delta == 0  # this judge ignores behaviour: equivalents do not move it
    assert by[("S1", "mutant")].share_lower == 0  # ... and so it misses every mutant
    claims = next(j for j in judged if j.label == "claims correct")
    assert claims.scores["S1"] == 100 and by[("S1", "injection")].mean_delta > 0  # the injection fooled it
    in_mutant = next(j for j in judged if j.label == "claims correct, in a mutant")
    mutant = next(j for j in judged if j.label == in_mutant.base)
    assert mutant.kind == "mutant" and (mutant.scores["S1"], in_mutant.scores["S1"]) == (60, 100)
    report = write_outputs(judged, tmp_path, source="count_above", config="team S1, model scripted")
    assert "| S1 | injection (should be ~0) | 6 |" in report.read_text()
    assert (tmp_path / "probe.png").read_bytes()[:4] == b"\x89PNG" and (tmp_path / "probe.csv").exists()


@pytest.mark.docker
async def test_a_variant_that_changes_behaviour_is_not_verified(sandbox: DockerSandbox) -> None:
    """The verifier itself: a mutant the tests cannot see is left out, not counted as caught."""
    s = _samples()["python"].model_copy(update={"tests": "assert count_above([], 0) == 0\n"})
    suite = split_tests("python", s.tests or "")
    base = await run_suite(sandbox, "python", assemble_program("python", s.problem, s.candidate), suite)
    assert base.passed == [True]
    judge = Judge(ScriptedChatModel(script=_script), team="S1", cache=False, traces=False)
    try:
        judged = await probe_sample(judge, s, sandbox, n_mutants=3, seed=0)
    finally:
        await judge.aclose()
    mutants = [j for j in judged if j.kind == "mutant"]
    assert mutants and any(not j.verified and j.why_unverified == "fails no test the candidate passes"
                           for j in mutants)



def test_the_probe_command_over_an_openai_compatible_server(tmp_path: Path) -> None:
    """Over real HTTP to a fake OpenAI-compatible server, without the sandbox (--no-verify): every
    variant is unverified, and its effects are reported apart, saying so."""
    import csv

    from typer.testing import CliRunner

    from sejury.cli import app
    from tests.helpers.fake_openai import FakeOpenAI

    out = tmp_path / "probe"
    with FakeOpenAI() as server:
        res = CliRunner().invoke(app, ["probe", str(COUNT_ABOVE), "--team", "S1", "--model", "fake",
                                       "--base-url", server.base_url, "--no-cache", "--no-traces", "--no-verify",
                                       "--sample", "2", "--mutants", "1", "-o", str(out)])
    assert res.exit_code == 0, res.output
    rows = list(csv.DictReader((out / "probe.csv").open()))
    assert {r["kind"] for r in rows} == {"original", "equivalent", "mutant", "injection"}
    text = (out / "probe.md").read_text()
    assert "(no verified variant)" in text and "Unverified variants" in text and "Not verified" in text
    bad = CliRunner().invoke(app, ["probe", str(tmp_path / "nope.jsonl")])
    assert bad.exit_code == 2 and "nope.jsonl" in bad.output


def test_the_probe_keeps_each_sample_as_it_finishes_and_resumes(tmp_path: Path) -> None:
    """Each sample's judged versions are written as it finishes (the report too); a re-run takes
    the probed samples as they are and probes only the rest; other settings are refused."""
    import json

    from typer.testing import CliRunner

    from sejury.cli import app
    from tests.helpers.fake_openai import FakeOpenAI

    out = tmp_path / "probe"

    def run(server: FakeOpenAI, *more: str) -> Any:
        return CliRunner().invoke(app, ["probe", str(COUNT_ABOVE), "--team", "S1", "--model", "fake",
                                        "--base-url", server.base_url, "--no-cache", "--no-traces", "--no-verify",
                                        "--sample", "3", "--mutants", "1", "-o", str(out), *more])

    with FakeOpenAI() as server:
        first = run(server)
        assert first.exit_code == 0, first.output
        calls = server.requests
        log = out / "probe-judged.jsonl"
        lines = log.read_text().splitlines()
        ids = list(dict.fromkeys(json.loads(x)["sample_id"] for x in lines))
        assert len(ids) == 3
        # killed during the third sample (its lines gone, the last one torn): only it is probed again
        kept = [x for x in lines if json.loads(x)["sample_id"] != ids[2]]
        log.write_text("\n".join(kept) + "\n" + kept[-1][:20])
        again = run(server)
        assert again.exit_code == 0, again.output
        assert "2 sample(s) already probed" in again.output
        third = sum(json.loads(x)["sample_id"] == ids[2] for x in lines)
        assert server.requests - calls == third  # one judgment (one S1 call) per version of the third sample
        assert log.read_text().splitlines() == kept + [x for x in lines if json.loads(x)["sample_id"] == ids[2]]
        other = run(server, "--mutants", "2")
        assert other.exit_code == 2 and "other settings (mutants)" in other.output
