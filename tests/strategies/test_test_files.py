"""S5's files round: tests that read a data file they never wrote get the file from the model, and
run again (``strategies/_test_files.py``)."""

from __future__ import annotations

import pytest
from langchain_core.messages import BaseMessage

from sejury import Judge, Sample
from sejury.execution import evidence
from sejury.execution.evidence import SuiteRun, UnitOutcome, check_on_reference
from sejury.execution.languages import python
from sejury.llm import ChatClient
from sejury.roster import Strategy
from sejury.sandbox.docker import DockerSandbox
from sejury.strategies._s5_lines import detail_lines
from sejury.strategies._test_files import ask_files, missing_files, read_files, with_files
from sejury.strategies.base import Recorder
from tests.helpers.fakes import GOOD_REPLIES, ScriptedChatModel, step_of

NOT_FOUND = "FileNotFoundError [Errno 2] No such file or directory: '{}'"


def on_reference(*whys: str, passed: int = 0, language: str = "python") -> evidence.TestExecution:
    outcomes = [UnitOutcome(test=f"t{i}", passed=False, why=w) for i, w in enumerate(whys)]
    outcomes += [UnitOutcome(test="ok", passed=True) for _ in range(passed)]
    run = SuiteRun(loaded=True, total=len(outcomes), passed=passed, status="ok", seconds=0.1, outcomes=outcomes)
    return evidence.TestExecution(status="skipped", language=language, generated=len(outcomes), valid=passed,
                                  reference=run)


def test_the_files_asked_for_are_text_files_in_the_tests_folder() -> None:
    ex = on_reference(NOT_FOUND.format("data.csv"), NOT_FOUND.format("data.csv"), "ValueError: The file "
                      "'in/lines.txt' does not exist.", NOT_FOUND.format("/etc/passwd"),
                      NOT_FOUND.format("../up.json"), NOT_FOUND.format("photo.png"),
                      "FileNotFoundError ./output/empty.csv does not exist")
    # once each; no absolute, no '..', no binary
    assert missing_files(ex) == ["data.csv", "in/lines.txt", "./output/empty.csv"]


def test_no_files_round_where_missing_files_are_not_most_failures_or_a_test_passed() -> None:
    assert missing_files(on_reference(NOT_FOUND.format("a.csv"), "AssertionError", "AssertionError")) == []
    assert missing_files(on_reference(NOT_FOUND.format("a.csv"), passed=1)) == []  # the suite ran: no round
    assert missing_files(on_reference(NOT_FOUND.format("a.csv"), language="go")) == []  # no writer for Go yet


def test_each_file_is_read_from_its_block() -> None:
    reply = ("Here are the files.\n\n**data.csv**\n```csv\nemail,list\na@b.c,\"[1, 2]\"\n```\n"
             "empty.csv\n```\n```\n```one_column.csv\nx\n1\n```\nAnd an extra:\n```\nignored\n```")
    assert read_files(reply, ["data.csv", "empty.csv", "one_column.csv"]) == {
        "data.csv": "email,list\na@b.c,\"[1, 2]\"\n", "empty.csv": "", "one_column.csv": "x\n1\n"}
    assert read_files("```\n1\n2\n```", ["numbers.txt"]) == {"numbers.txt": "1\n2\n"}  # one file, one block
    assert read_files("```\n1\n```\n\n```\n2\n```", ["numbers.txt"]) == {"numbers.txt": "1\n"}  # the first
    # the small model's way: the name as a comment on the block's first line
    assert read_files("```python\n# people.csv\nname,age\nann,30\n```", ["people.csv", "b.txt"]) == {
        "people.csv": "name,age\nann,30\n"}
    assert read_files("```\n1\n```\n```\n2\n```", ["a.txt", "b.txt"]) == {}  # blocks that name no file


def test_the_files_are_written_before_every_test_and_cannot_escape_the_string() -> None:
    hostile = "x'''\nimport os; os.system('boom')\n\"\"\""
    tests = "from task import count\n\ndef test_one():\n    assert count('data.csv') == 2\n\n" \
            "def test_two():\n    assert count('in/lines.txt') == 1\n"
    suite = python.split(with_files(tests, {"data.csv": hostile, "in/lines.txt": "a\n"}, "python"), {"count"})
    assert len(suite.units) == 2
    for unit in suite.units:  # each test writes both files first
        assert unit.index("sejury_file.write") < unit.index("assert count(")
        assert "makedirs('in'" in unit
    assert f"write({hostile!r})" in suite.units[0]  # the content is a literal, never code
    assert with_files(tests, {}, "python") == tests


# a problem that reads a file its tests must provide
PROBLEM = ('def count_rows(path):\n'
           '    """The number of data rows (every line after the header) of the CSV file at path."""\n')
REFERENCE = "    with open(path) as f:\n        return len(f.read().splitlines()) - 1\n"
WRONG = "    with open(path) as f:\n        return len(f.read().splitlines())\n"  # counts the header too
READS = "```python\nassert count_rows('people.csv') == 3\nassert count_rows('people.csv') > 0\n```"
FILES = "people.csv\n```\nname,age\nann,30\nbob,41\ncid,25\n```"


def files_script(asked: list[str], files: str = FILES) -> ScriptedChatModel:
    def script(messages: list[BaseMessage]) -> str:
        asked.append(step_of(messages))
        return {**GOOD_REPLIES, "write_tests": READS, "test_files": files,
                "repair_tests": READS}[asked[-1]]
    return ScriptedChatModel(script=script)


@pytest.mark.docker
async def test_tests_that_read_a_file_they_never_wrote_run_with_the_models_file(sandbox: DockerSandbox) -> None:
    s = Sample(id="rows", task="code_generation", problem=PROBLEM, candidate=WRONG, reference=REFERENCE)
    asked: list[str] = []
    v = await Judge(files_script(asked), team="S5-exec", cache=False, execute=True, sandbox=sandbox).ajudge(s)
    r = v.strategies["generate_tests"]
    ex = r.artifacts["execution"]
    assert ex["files"] == {"errors": "people.csv", "generated": 2, "valid": 2, "saved": True, "files": ["people.csv"],
                           }, ex["files"]
    assert ex["repair"] is None and "repair_tests" not in asked  # the files were enough: no rewrite
    assert "sejury_file.write('name,age" in r.artifacts["tests"]  # the suite as it ran, files included
    assert v.strategies["test_pass"].score == pytest.approx(50.0)  # the header counted: 4 != 3, 4 > 0
    assert any("the tests read files they never wrote (people.csv): the model wrote people.csv; the tests then "
               "ran, 2 of 2 valid" in line for line in detail_lines(r)), detail_lines(r)
    right = await Judge(files_script([]), team="S5-exec", cache=False, execute=True,
                        sandbox=sandbox).ajudge(s.model_copy(update={"candidate": REFERENCE}))
    assert right.strategies["test_pass"].score == 100.0


@pytest.mark.docker
async def test_a_reply_without_the_file_falls_back_to_the_rewrite(sandbox: DockerSandbox) -> None:
    s = Sample(id="rows", task="code_generation", problem=PROBLEM, candidate=WRONG, reference=REFERENCE)
    asked: list[str] = []
    v = await Judge(files_script(asked, files="I cannot know the file."), team="S5-exec", cache=False, execute=True,
                    sandbox=sandbox).ajudge(s)
    ex = v.strategies["generate_tests"].artifacts["execution"]
    assert ex["files"]["files"] == [] and not ex["files"]["saved"]
    assert asked.count("test_files") == 1 and asked.count("repair_tests") == 1  # then the rewrite, once
    assert not ex["repair"]["saved"] and v.strategies["test_pass"].score is None  # it read the file again


@pytest.mark.embedded
@pytest.mark.docker
async def test_the_embedded_model_writes_a_file_the_reference_reads(embedded_server: ChatClient,
                                                                    sandbox: DockerSandbox) -> None:
    """The round on the real model: shown tests that read ``people.csv`` and never write it, it
    replies with the file, and the suite then runs on the reference with tests valid there.  (How
    often it saves a benchmark's suites is the bench's to measure: ``bench/test_repair.py``.)"""
    s = Sample(id="rows", task="code_generation", problem=PROBLEM, candidate=WRONG, reference=REFERENCE)
    judge = Judge(embedded_server, execute=True, cache=False, sandbox=sandbox)
    tests = READS.strip("`\n").removeprefix("python\n")
    reference = python.assemble(PROBLEM, REFERENCE)
    before = (await check_on_reference(sandbox, "python", reference, tests, "count_rows"))[0]
    names = missing_files(before)
    assert names == ["people.csv"], before
    rec = Recorder(Strategy("generate_tests"))
    files = await ask_files(s, judge.context.for_sample(s), rec, tests, names)
    print(files, rec.events[-1].detail if rec.events else None)
    assert set(files) == {"people.csv"}, rec.events
    lines = files["people.csv"].strip().splitlines()
    assert len(lines) >= 2 and all("," in ln for ln in lines), files  # a header and rows of CSV
    after = (await check_on_reference(sandbox, "python", reference, with_files(tests, files, "python"),
                                      "count_rows"))[0]
    assert after.reference is not None and after.reference.loaded
    assert not missing_files(after) and "No such file" not in str(after.reference.outcomes), after.reference.outcomes
    assert after.valid >= 1, after.reference.outcomes  # `count_rows('people.csv') > 0` holds on any rows
