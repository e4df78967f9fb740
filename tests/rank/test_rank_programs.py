"""Best of N on programs that read stdin and print (``sejury.rank.programs``): the problem's stated
Input/Output examples, the user's tests and mutations of the examples run on every attempt in the
real sandbox, each input within its time limit; attempts printing the same outputs form one
behaviour.  No model call where the examples suffice (the scripted model fails the test if asked)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from sejury import Judge
from sejury.errors import InputError
from sejury.execution.io_evidence import InputResult
from sejury.execution.stdio import IoCase, IoOutput, IoRun, digest_of
from sejury.rank.agreement import PROGRAM_REFERENCE_RULE, PROGRAM_RULE, Probe, rank
from sejury.rank.evidence import Problem
from sejury.rank.programs import GIVE_UP, _values, is_program_problem, notes
from sejury.rank.records import Behaviour, RankRequest
from sejury.sandbox.base import ExecStatus
from tests.helpers.fakes import ScriptedChatModel
from tests.helpers.paths import ROOT
from tests.sandbox.test_stdio_sandbox import PROBLEM, program


def _no_call(messages: list[Any]) -> str:
    raise AssertionError("no model call: the problem's examples and their mutations are the inputs")


def _judge(sandbox: Any, script: Any = _no_call) -> Judge:
    return Judge(ScriptedChatModel(script=script), cache=False, execute=True, sandbox=sandbox)


# the longest strictly increasing run (``test_stdio_sandbox``'s problem and programs); the wrong one
# counts equal neighbours as increasing (the problem's second example shows that edge)
SLOW = "import time\n" + program("python", right=True).replace("print(best)", "time.sleep(2.5)\nprint(best)")
HUNG = program("cpp", right=True).replace("int main() {\n", "int main() {\n  volatile long spin = 0;\n"
                                          "  while (true) spin++;\n")
# prints the examples' stated outputs, whatever else comes in: mutated inputs tell it from a right one
HARD_CODED = {
    "python": ("import sys\nknown = {'5 1 7 2 11 15': '3', '6 100 100 100 100 100 100': '1', '3 1 2 3': '3'}\n"
               "print(known.get(' '.join(sys.stdin.read().split()), '2'))\n"),
    "cpp": ('#include <bits/stdc++.h>\nint main() {\n  std::string t, all;\n  while (std::cin >> t) all += t + " ";\n'
            '  if (all == "5 1 7 2 11 15 ") puts("3");\n  else if (all == "6 100 100 100 100 100 100 ") puts("1");\n'
            '  else if (all == "3 1 2 3 ") puts("3");\n  else puts("2");\n}\n'),
}
LATE = {"python": SLOW, "cpp": HUNG}


def attempts(language: str) -> list[str]:
    """wrong on an edge, slow (Python) or hung (C++), right, hard-coded."""
    return [program(language, right=False), LATE[language], program(language, right=True), HARD_CODED[language]]


@pytest.mark.docker
@pytest.mark.parametrize("language", ["python", "cpp"])
async def test_the_right_program_is_chosen_with_and_without_a_reference(sandbox: Any, language: str) -> None:
    j = _judge(sandbox)
    bare, ref = await asyncio.gather(
        j.arank(PROBLEM, attempts(language), language=language),
        j.arank(PROBLEM, attempts(language), language=language, reference=program(language, right=True)))
    for r in (bare, ref):
        assert r.chosen == 2 and r.model_calls == 0 and r.tests_total == 0 and r.probe_inputs > 10
        by = {c.index: c for c in r.candidates}
        assert [c.index for c in r.candidates][-1] == 1 and by[1].score == 0  # too slow or hung: last
        assert by[3].score < by[2].score and by[3].support < by[2].support  # hard-coded: below the right one
        late = " ".join(by[1].reasons)
        if language == "python":  # the right output, after the limit: slow, not wrong
            assert "too slow (an output after its time limit) on 3 input(s)" in late
            assert "the right output, too slow: 2." in late and "wrong output" not in late
        else:
            assert "hangs or is far too slow (no output within 3x its time limit) on 3 input(s)" in late
        assert f"stopped after {GIVE_UP} inputs over their time limit" in late
        assert "prints '6' where" in " ".join(by[0].reasons)  # the edge: six equal values
    assert bare.rule == PROGRAM_RULE and not bare.validated and bare.sandbox_runs == 4
    by = {c.index: c for c in bare.candidates}
    assert bare.candidates[0].reasons[0] == "prints the stated output of all 3 of the problem's examples in time"
    assert (by[3].examples_passed, by[0].examples_passed, by[1].examples_passed) == (3, 2, 0)
    assert ref.rule == PROGRAM_REFERENCE_RULE and ref.validated and ref.sandbox_runs == 5 and not ref.needs_review
    by = {c.index: c for c in ref.candidates}
    assert by[2].score == 100 and by[2].agreed == by[2].inputs == ref.probe_inputs
    assert by[3].agreed is not None and by[3].inputs is not None and by[3].agreed < by[3].inputs
    assert "prints a wrong output on" in " ".join(by[3].reasons) and "a mutated input" in " ".join(by[3].reasons)
    # a hung attempt costs GIVE_UP timeouts, not one per input (23 inputs x 6 s)
    assert max(bare.seconds, ref.seconds) < 90


@pytest.mark.docker
async def test_a_hard_coded_program_does_not_beat_a_right_one(sandbox: Any) -> None:
    """With a reference the mutated inputs decide; without one and with no other attempt, both print
    every stated output and nothing tells which is right: the ranking says so (needs review)."""
    j = _judge(sandbox)
    pair = [HARD_CODED["python"], program("python", right=True)]
    ref, bare, cmp = await asyncio.gather(j.arank(PROBLEM, pair, reference=program("python", right=True)),
                                          j.arank(PROBLEM, pair),
                                          j.acompare(PROBLEM, *pair, reference=program("python", right=True)))
    assert ref.chosen == 1 and ref.candidates[1].score < 60
    assert cmp.winner == "b" and cmp.decided_by == "reference" and cmp.model_calls == 0
    assert bare.needs_review and bare.reasons[0].startswith("attempts that behave differently score the same")


def _prefers_computing(messages: list[Any]) -> str:
    """The model, scripted: the program that computes the answer beats the one that looks it up."""
    first = str(messages[1].content).split("[BEGIN PROGRAM A]", 1)[1].split("[END PROGRAM A]", 1)[0]
    return f"Reasons:\n- scripted\nBetter: {'B' if 'known = ' in first else 'A'}"


@pytest.mark.docker
async def test_the_model_breaks_a_tie_between_programs(sandbox: Any) -> None:
    """The hard-coded program and the right one tie without a reference (every stated output, no other
    attempt to agree with): ``tie_break="model"`` asks compare's question in both orders and the
    choice follows the model where both orders agree; a model that picks whatever is shown first
    leaves the tie (the first attempt, still needing review)."""
    pair = [HARD_CODED["python"], program("python", right=True)]
    r = await _judge(sandbox, _prefers_computing).arank(PROBLEM, pair, tie_break="model")
    assert r.chosen == 1 and r.model_calls == 2 and r.tie_break is not None and r.needs_review
    assert [x.outcome for x in r.tie_break.pairs] == [
        "1 over 0 (chose 1 with 0 shown first, chose 1 with 1 shown first)"]
    flips = await _judge(sandbox, lambda m: "Reasons:\n- scripted\nBetter: A").arank(PROBLEM, pair, tie_break="model")
    assert flips.chosen == 0 and flips.model_calls == 2 and flips.needs_review
    assert [x.outcome for x in flips.tie_break.pairs] == [  # type: ignore[union-attr]
        "0 vs 1: the position decided, not the code (chose 0 with 0 shown first, chose 1 with 1 shown first)"]


@pytest.mark.docker
async def test_your_tests_come_first_and_bad_input_is_a_clear_error(sandbox: Any) -> None:
    j = _judge(sandbox)
    tests = json.dumps([{"input": "4\n1 2 3 4\n", "output": "4\n"}])
    r = await j.arank(PROBLEM, [HARD_CODED["python"], program("python", right=True)], tests=tests)
    assert r.chosen == 1 and (r.candidates[0].user_tests_passed, r.candidates[0].user_tests_total) == (1, 1)
    assert r.candidates[1].user_tests_passed == 0 and r.candidates[0].reasons[0] == "passes 1/1 of your tests"
    assert not r.needs_review
    with pytest.raises(InputError, match="item 0: expected") as bad:
        await j.arank(PROBLEM, [program("python", right=True)], tests='[{"input": 5}]')
    assert bad.value.field == "tests"
    with pytest.raises(InputError, match="no input/output pair could be read from the tests given"):
        await j.arank(PROBLEM, [program("python", right=True)], tests="nothing here\n")


# the same problem without its examples: nothing to start from, so the model writes inputs (S5's prompt)
BARE = PROBLEM.split("-----Examples-----")[0]


@pytest.mark.docker
async def test_without_examples_or_tests_the_model_writes_the_inputs(sandbox: Any) -> None:
    asked: list[str] = []

    def inputs(messages: list[Any]) -> str:
        asked.append(str(messages[1].content))
        return "```\n3\n1 2 3\n```\n\n```\n4\n4 4 4 4\n```\n\n```\n5\n3 1 4 1 5\n```"

    attempts = [program("python", right=False), program("python", right=True)]
    r = await _judge(sandbox, inputs).arank(BARE, attempts, reference=program("python", right=True))
    assert r.model_calls == 1 and len(asked) == 1 and "Task: write inputs" in asked[0]
    assert "n = int(input())" not in asked[0]  # neither an attempt nor the reference steers them
    assert r.chosen == 1 and r.candidates[0].score == 100 and r.candidates[1].score < 100
    assert "4\n4 4 4 4" in r.tests and r.events[0].step == "write_inputs"
    with pytest.raises(InputError, match="no input to run the programs on"):
        await _judge(sandbox, lambda m: "```\n```").arank(BARE, attempts)


# no Input/Output sections: nothing tells a program here but the form the caller gives
PROSE = "Read whitespace-separated integers from standard input and print their sum."
SUM = {"right": "import sys\nprint(sum(map(int, sys.stdin.read().split())))\n",
       "wrong": "import sys\nprint(max(map(int, sys.stdin.read().split())))\n"}


@pytest.mark.docker
async def test_compare_takes_the_form_as_rank_does(sandbox: Any) -> None:
    """``form="stdio"`` on compare (API, request, graph, tool): the user's input/output pairs decide,
    with no model call; the same request without it is not read as a program's."""
    from sejury.rank.integrations import compare_request
    from sejury.rank.records import CompareRequest

    j = _judge(sandbox)
    tests = json.dumps([{"input": "3 1 2\n", "output": "6\n"}, {"input": "5\n", "output": "5\n"}])
    req = CompareRequest(problem=PROSE, a=SUM["wrong"], b=SUM["right"], tests=tests, form="stdio")
    by_api, by_request = await asyncio.gather(
        j.acompare(PROSE, SUM["wrong"], SUM["right"], tests=tests, form="stdio"), compare_request(j, req))
    for c in (by_api, by_request):
        assert (c.winner, c.decided_by, c.model_calls) == ("b", "your tests", 0)
        assert (c.b.user_tests_passed, c.a.user_tests_passed) == (2, 1)
    assert not is_program_problem(Problem(id="p", problem=PROSE, candidates=[SUM["wrong"], SUM["right"]]))
    with pytest.raises(ValueError, match="form"):
        CompareRequest(problem=PROSE, a="x", b="y", form="binary")  # type: ignore[arg-type]


@pytest.mark.docker
def test_the_rank_command_ranks_the_bundled_programs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``sejury rank examples/rank/programs.jsonl`` as docs/ranking.md shows it (no model call)."""
    from typer.testing import CliRunner

    from sejury.cli import app
    from sejury.cli import ranking as cli

    monkeypatch.setattr(cli, "Judge", lambda config: Judge(ScriptedChatModel(script=_no_call), cache=False,
                                                           execute=True))
    out = tmp_path / "rankings.jsonl"
    res = CliRunner().invoke(app, ["rank", str(ROOT / "examples" / "rank" / "programs.jsonl"), "-o", str(out)])
    assert res.exit_code == 0, res.output
    saved = json.loads(out.read_text())
    assert saved["chosen"] in (0, 4) and {c["index"] for c in saved["candidates"][:2]} == {0, 4}
    assert saved["candidates"][-1]["id"] == "longest-run-3" and saved["model_calls"] == 0
    said = " ".join(res.output.split())
    assert "longest-run (python, 5 attempts): chose #" in said and "0 model call(s), 5 sandbox runs" in said
    assert "tests written once" not in said  # programs are ranked on inputs, not on written tests
    page = tmp_path / "page.html"
    shown = CliRunner().invoke(app, ["trace", saved["trace_id"], "--html", str(page)])
    assert shown.exit_code == 0, shown.output
    assert "hangs or is far too slow" in page.read_text() and "written once" not in page.read_text()


# ------------------------------------------------------------------ without the sandbox

def test_which_problems_are_ranked_as_programs() -> None:
    right = program("python", right=True)
    assert is_program_problem(Problem("p", PROBLEM, [right, HARD_CODED["python"], "print(1)\n"]))
    assert not is_program_problem(Problem("p", PROBLEM, ["print(1)\n", "print(2)\n", right]))  # most read nothing
    assert not is_program_problem(Problem("p", PROBLEM, [right], form="function"))
    assert is_program_problem(Problem("p", "Print the sum of two integers.", ["print(3)\n"], form="stdio"))
    assert not is_program_problem(Problem("p", 'def f():\n    """Input: x. Output: y."""\n', ["    return 1\n"]))
    assert RankRequest(problem="p", candidates=["a"], form="stdio").form == "stdio"
    with pytest.raises(ValueError, match="form"):
        RankRequest(problem="p", candidates=["a"], form="program")


def _out(text: str, seconds: float = 0.01) -> IoOutput:
    return IoOutput(exit_code=0, seconds=seconds, bytes=len(text), digest=digest_of(text), stdout=text)


def test_outputs_are_classed_as_judging_compares_them_and_scored_as_functions_are() -> None:
    """Input 0 states "1.5": "1.5000000001" and " 1.5\\n" print it (a tolerance of 1e-6, whitespace),
    "2" does not; input 1 has no known output: attempts are compared with each other."""
    run = IoRun(loaded=True, status=ExecStatus.OK, seconds=1.0)

    def ran(first: str, second: str | None, outcome: str = "pass") -> tuple[IoRun, dict[int, Any]]:
        return run, {0: (InputResult(outcome="pass" if first != "2" else "wrong"), _out(first)),
                     1: (InputResult(outcome=outcome, why="no output within 6 s"),
                         _out(second) if second is not None else None)}

    runs = [ran("1.5000000001", "7"), ran(" 1.5\n", "7.0000000001"), ran("2", "8"), ran("1.5", None, "timeout")]
    expected, values = _values([0, 1], {0: _out("1.5")}, runs)
    assert expected == {0: ["=0"]}
    assert values == [{0: ["=0"], 1: ["=0"]}, {0: ["=0"], 1: ["=0"]}, {0: ["=1"], 1: ["=1"]},
                      {0: ["=0"], 1: ["!timeout"]}]
    probe = Probe("standard output", ["1\n", "2\n"], 0, stated=((0, "=0", 'stdin "1\\n" prints 1.5'),), stdio=True)
    behaviours = [Behaviour(loaded=True, values=v) for v in values]
    ranked = rank(behaviours, probe, notes=[[], [], [], ["hangs"]])
    assert [c.index for c in ranked[:2]] == [0, 1] and ranked[0].group == ranked[1].group
    assert ranked[0].score == pytest.approx(100 * (1 + 1 + 0 + 0.5) / 4, abs=0.01)
    assert (ranked[0].examples_passed, ranked[0].examples_total) == (1, 1)
    by = {c.index: c for c in ranked}
    assert by[2].examples_passed == 0 and "(not: stdin \"1\\n\" prints 1.5)" in by[2].reasons[0]
    assert by[3].reasons[-1] == "hangs" and by[3].examples_passed == 1


def test_an_attempts_notes_tell_slow_from_wrong_from_hung() -> None:
    cases = [IoCase("1\n", "1\n"), IoCase("2\n"), IoCase("3\n"), IoCase("4\n"), IoCase("5\n")]
    got: dict[int, Any] = {
        0: (InputResult(outcome="wrong", why="prints '2' where the stated output is '1'"), None),
        1: (InputResult(outcome="slow", why="an output, too slow: 2.50 s against a limit of 2 s"), None),
        2: (InputResult(outcome="timeout", why="no output within 6 s"), None),
        3: (InputResult(outcome="timeout", why="no output within 6 s"), None),
        4: (InputResult(outcome="not run", why="not run (the run's time ran out)"), None)}
    said = notes(got, cases, ["example", "mutation", "mutation", "mutation", "mutation"])
    assert said == [
        "prints a wrong output on 1 input(s) (first, the problem's example stdin \"1\\n\": prints '2' where the "
        "stated output is '1')",
        "too slow (an output after its time limit) on 1 input(s) (first, a mutated input stdin \"2\\n\": an output, "
        "too slow: 2.50 s against a limit of 2 s)",
        "hangs or is far too slow (no output within 3x its time limit) on 2 input(s) (first, a mutated input stdin "
        "\"3\\n\": no output within 6 s)",
        "not run on 1 input(s): stopped after 3 inputs over their time limit"]
