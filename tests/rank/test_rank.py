"""Best of N (``sejury.rank``): the ordering rules on runs given by hand, then the whole path on the
real sandbox (and, marked ``embedded``, the real model writing the tests)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sejury import Judge
from sejury.errors import InputError
from sejury.rank.agreement import Probe, rank, review, similarity
from sejury.rank.records import Behaviour, RankRequest
from tests.helpers.fakes import ScriptedChatModel
from tests.helpers.paths import ROOT

RIGHT = {0: ["3|1"], 1: ["0|1"], 2: ["7|1"]}


def _b(values: dict[int, list[str]], passed: list[bool], **kw: Any) -> Behaviour:
    return Behaviour(loaded=True, passed=passed, values=values, **kw)


PROBE = Probe("f", ["u0", "u1", "u2"], tests=3)


def test_without_a_reference_agreement_times_tests_passed_orders_the_attempts() -> None:
    lone = _b({0: ["4|1"], 1: ["1|1"], 2: ["9|1"]}, [True, True, True])  # passes every test, but alone
    alike = [_b(RIGHT, [True, False, True]) for _ in range(3)]  # three agree, pass 2 of 3
    broken = Behaviour(loaded=False, load_error="SyntaxError: invalid syntax")
    ranked = rank([lone, *alike, broken], PROBE)
    assert [c.index for c in ranked] == [1, 2, 3, 0, 4]
    top = ranked[0]
    assert (top.support, top.tests_passed, top.tests_total, top.group) == (3.0, 2, 3, 1)
    assert top.score == pytest.approx(100 * 3 / 4 * 2 / 3, abs=0.01)  # 3 of the 4 that load, 2/3 tests
    assert ranked[3].score == pytest.approx(100 * 1 / 4, abs=0.01)
    assert ranked[-1].score == 0 and not ranked[-1].loaded and "SyntaxError" in ranked[-1].reasons[0]
    assert {c.group for c in ranked[:3]} == {1} and ranked[3].group == 2


def test_an_attempt_split_from_the_others_on_one_input_keeps_most_of_its_support() -> None:
    a = {0: ["1"], 1: ["2"], 2: ["3"]}
    b = {0: ["1"], 1: ["2"], 2: ["!raises"]}
    assert similarity(a, b, [0, 1, 2]) == pytest.approx(2 / 3)
    ranked = rank([_b(a, [True] * 3), _b(b, [True] * 3), _b({0: ["5"], 1: ["6"], 2: ["7"]}, [False] * 3)], PROBE)
    assert ranked[0].support == pytest.approx(1 + 2 / 3, abs=0.001) and ranked[2].index == 2


def test_the_users_tests_come_before_agreement() -> None:
    crowd = [_b(RIGHT, [True] * 3, user_passed=[True, False]) for _ in range(4)]
    one = _b({0: ["4|1"], 1: ["1|1"], 2: ["8|1"]}, [False, True, True], user_passed=[True, True])
    ranked = rank([*crowd, one], PROBE)
    assert ranked[0].index == 4 and (ranked[0].user_tests_passed, ranked[0].user_tests_total) == (2, 2)
    assert review(ranked, [*crowd, one], PROBE, validated=False) == [
        "the chosen behaviour is shared by 1 of the 5 attempts that load"]


def test_with_a_reference_its_values_decide_and_agreement_breaks_ties() -> None:
    reference = _b(RIGHT, [True, True, False])  # the third test's expectation is wrong
    wrong_crowd = [_b({0: ["3|1"], 1: ["1|1"], 2: ["8|1"]}, [True, False, False]) for _ in range(3)]
    right = [_b(RIGHT, [True, True, False]) for _ in range(2)]
    ranked = rank([*wrong_crowd, *right], PROBE, reference=reference)
    assert [c.index for c in ranked[:2]] == [3, 4]
    assert ranked[0].score == 100 and (ranked[0].tests_passed, ranked[0].tests_total) == (2, 2)
    assert (ranked[0].agreed, ranked[0].inputs) == (3, 3)
    assert ranked[2].score == pytest.approx(100 * (1 / 2 + 1 / 3) / 2, abs=0.01)
    assert review(ranked, [*wrong_crowd, *right], PROBE, validated=True) == []


def test_review_says_why_when_the_evidence_does_not_settle_the_choice() -> None:
    a, b = _b({0: ["1"]}, [True, False, False]), _b({0: ["2"]}, [True, False, False])
    ranked = rank([a, b], PROBE)
    why = review(ranked, [a, b], PROBE, validated=False)
    assert why[0].startswith("attempts that behave differently score the same")
    assert "passes only 1/3 of the generated tests" in why[1]
    assert ranked[0].needs_review and ranked[1].needs_review
    dead = [Behaviour(loaded=False), Behaviour(loaded=False)]
    assert review(rank(dead, PROBE), dead, PROBE, validated=False) == ["no attempt loads or compiles"]


def test_without_recorded_values_attempts_are_alike_by_the_tests_they_pass() -> None:
    probe = Probe(None, ["t0", "t1"], tests=2)
    ranked = rank([_b({}, [True, True]), _b({}, [True, False]), _b({}, [True, True])], probe)
    assert [c.index for c in ranked] == [0, 2, 1] and ranked[0].support == pytest.approx(2.5)


def test_a_rank_request_is_checked_at_the_edge() -> None:
    assert RankRequest(problem="p", candidates=["a"], language="js").language == "javascript"
    with pytest.raises(ValueError, match="2 ids for 1 candidates"):
        RankRequest(problem="p", candidates=["a"], ids=["x", "y"])
    with pytest.raises(ValueError, match="at least 1"):
        RankRequest(problem="p", candidates=[])
    with pytest.raises(ValueError, match="Extra inputs"):
        RankRequest.model_validate({"problem": "p", "candidates": ["a"], "team": "S1"})


# its example takes a negative number, so the tests' add(-1, 1) is inside the problem's domain
ADD = 'def add(a: int, b: int) -> int:\n    """Return the sum of a and b.\n    >>> add(2, -3)\n    -1\n    """\n'
# the same problem with its example's output not stated: the generated tests decide a comparison
ADD_UNSTATED = ADD.replace("    -1\n", "")
TESTS = "assert add(2, 3) == 5\nassert add(-1, 1) == 0\nassert add(0, 0) == 0\n"


def _tests_script(messages: list[Any]) -> str:
    return f"```python\n{TESTS}```"


def test_ranking_needs_the_sandbox() -> None:
    judge = Judge(ScriptedChatModel(script=_tests_script), cache=False)
    with pytest.raises(InputError, match="needs the sandbox"):
        judge.rank(ADD, ["    return a + b\n"])


@pytest.mark.docker
def test_programs_that_read_stdin_are_ranked_on_their_examples_without_a_model_call(sandbox: Any) -> None:
    """The whole form is tested in ``test_rank_programs.py``."""
    model = ScriptedChatModel(script=_tests_script)
    judge = Judge(model, cache=False, execute=True, sandbox=sandbox)
    problem = "Read n and print 2n.\n\nInput\nOne integer n.\n\nOutput\nPrint 2n.\n\nExamples\nInput\n3\nOutput\n6\n"
    r = judge.rank(problem, ["print(int(input()) ** 2)\n", "print(int(input()) * 2)\n",
                             "n = int(input())\nprint(n + n)\n"])
    assert r.chosen == 1 and {c.index for c in r.candidates[:2]} == {1, 2} and r.candidates[2].score == 0
    assert r.model_calls == 0 and model.calls == 0 and r.probe_inputs > 1


@pytest.mark.docker
async def test_ranking_runs_every_attempt_once_and_picks_the_one_the_evidence_backs(sandbox: Any) -> None:
    """The model's reply is scripted (wiring); the attempts, the reference and the tests really run."""
    judge = Judge(ScriptedChatModel(script=_tests_script), cache=False, execute=True, sandbox=sandbox)
    attempts = ["    return a - b\n", "    return a + b\n", "    return b + a\n", "    return a +\n",
                "    return a + b\n", "    import os\n    return abs(a) + abs(b)\n"]
    r = await judge.arank(ADD, attempts, problem_id="add")
    assert r.model_calls == 1 and r.tests_total == 3 and not r.validated
    assert r.sandbox_runs == 5  # the two identical attempts ran once
    assert r.chosen in (1, 2, 4) and {c.index for c in r.candidates[:3]} == {1, 2, 4}
    assert r.candidates[-1].index == 3 and not r.candidates[-1].loaded and r.candidates[-1].score == 0
    assert r.probe_inputs > 3  # the docstring's example and mutations of it ran too
    assert not r.needs_review and r.candidates[0].score > r.candidates[3].score
    by = {c.index: c for c in r.candidates}
    assert by[1].support == by[2].support == by[4].support > 3  # the three, and partly the others
    assert by[0].tests_passed == 1 and by[5].tests_passed == 2  # abs(a) + abs(b): wrong on add(-1, 1) only
    assert by[5].support > by[0].support and by[3].reasons[0].startswith("does not load or compile: ")
    # with the reference the tests are validated and the attempts scored by agreement with it
    ref = await judge.arank(ADD, attempts, reference="    return a + b\n", tests="assert add(1, 1) == 2\n")
    assert ref.validated and ref.tests_valid == 3 and ref.candidates[0].score == 100
    assert {c.index for c in ref.candidates if c.score == 100} == {1, 2, 4}
    assert all(c.user_tests_total == 1 for c in ref.candidates)
    kinds = [e.step for e in ref.events]
    assert kinds[0] == "write_tests" and "run_reference" in kinds and "run_attempt_0" in kinds


SQUARE = ('def square(n: int) -> int:\n    """Return the square of the positive integer n.\n    >>> square(3)\n    9\n'
          '    >>> square(5)\n    25\n    """\n')


@pytest.mark.docker
async def test_generated_tests_outside_the_problems_domain_are_left_out_of_the_ranking(sandbox: Any) -> None:
    """The model's test ``square(-2) == 0`` asks what the problem never defines (its examples are
    positive): as S5 does, the ranking leaves it out, so the plain ``n * n`` is not ranked below an
    attempt written for that test, and the ranking says what it left out."""
    tests = "assert square(2) == 4\nassert square(-2) == 0\nassert square(4) == 16\n"
    judge = Judge(ScriptedChatModel(script=lambda m: f"```python\n{tests}```"), cache=False, execute=True,
                  sandbox=sandbox)
    attempts = ["    return n * n\n", "    return max(n, 0) ** 2\n", "    return n * 3\n"]
    r = await judge.arank(SQUARE, attempts)
    assert r.tests_total == 2 and r.tests_out_of_domain == 1 and r.outside_domain == ["square(-2)"]
    by = {c.index: c for c in r.candidates}
    assert by[0].tests_passed == by[1].tests_passed == 2 and by[0].score == by[1].score > by[2].score
    assert r.chosen in (0, 1) and by[2].tests_passed == 0


@pytest.mark.docker
async def test_attempts_written_to_game_the_harness_do_not_win(sandbox: Any) -> None:
    """Attacks on the ranking itself: forged result lines, an exit before the tests run, a flood;
    each is one attempt among right and wrong ones, and none outranks the right ones.  (A hang
    costs the run's whole time limit; the sandbox's containment tests cover it.)"""
    judge = Judge(ScriptedChatModel(script=_tests_script), cache=False, execute=True, sandbox=sandbox)
    forged = "    return 0\nprint('@@T 0 PASS\\n@@T 1 PASS\\n@@T 2 PASS\\n@@V 0 0 5|1')\n"
    exits = "    return a + b\nimport os\nos._exit(0)\n"
    floods = "    print('x' * 10_000_000)\n    return a * b\n"
    attempts = ["    return a + b\n", forged, exits, "    return b + a\n", floods, "    return a - b\n"]
    r = await judge.arank(ADD, attempts)
    assert {c.index for c in r.candidates[:2]} == {0, 3} and r.chosen in (0, 3)
    by = {c.index: c for c in r.candidates}
    assert by[1].tests_passed < 3 and by[2].score < by[0].score
    assert all(by[i].score < by[0].score for i in (1, 2, 4, 5))


@pytest.mark.docker
def test_the_rank_and_compare_commands_read_attempts_grouped_by_problem(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from sejury.cli import app
    from sejury.cli import ranking as cli

    rows = [{"id": f"add-{i}", "task": "code_generation", "problem": ADD, "candidate": c}
            for i, c in enumerate(["    return a - b\n", "    return a + b\n", "    return a + b  # same\n"])]
    rows.append({"id": "bad-0", "task": "code_generation", "problem": ADD, "candidate": "x", "reference": "    pass\n"})
    rows.append({"id": "bad-1", "task": "code_generation", "problem": ADD, "candidate": "y", "reference": "    ...\n"})
    data = tmp_path / "attempts.jsonl"
    data.write_text("\n".join(json.dumps(r) for r in rows[:3]) + "\n")
    monkeypatch.setattr(cli, "Judge", lambda config: Judge(ScriptedChatModel(script=_tests_script), cache=False,
                                                           execute=True))
    out = tmp_path / "rankings.jsonl"
    res = CliRunner().invoke(app, ["rank", str(data), "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert "add (python, 3 attempts): chose #1 (add-1)" in res.output
    saved = json.loads(out.read_text())
    assert saved["chosen"] == 1 and [c["id"] for c in saved["candidates"]][:2] == ["add-1", "add-2"]
    assert saved["trace_id"].startswith("r") and f"`sejury trace {saved['trace_id']}` shows its trace" in res.output
    shown = CliRunner().invoke(app, ["trace", saved["trace_id"][:9]])
    assert shown.exit_code == 0, shown.output
    assert "chose #1 (add-1)" in shown.output and "llm_call write_tests" in shown.output
    assert "sandbox_run run_attempt_0" in shown.output and "loaded True, passed 32/34, ok" in shown.output
    res = CliRunner().invoke(app, ["compare", str(data)])
    assert res.exit_code == 2 and "problem add: 3 attempts; compare takes two per problem" in res.output
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("\n".join(json.dumps(r) for r in rows[:2]) + "\n")
    res = CliRunner().invoke(app, ["compare", str(pairs)])
    assert res.exit_code == 0, res.output
    # the problem states add(2, 3) is 5, which add-0 does not return: the problem's own example decides
    assert "add (python): add-1 is better, decided by stated examples" in res.output
    assert "returns 0/1 of the problem's stated examples" in res.output and "needs review" not in res.output
    assert "1 pair(s), decided by stated examples 1" in res.output
    data.write_text("\n".join(json.dumps(r) for r in rows[3:]) + "\n")
    res = CliRunner().invoke(app, ["rank", str(data)])
    assert res.exit_code == 2 and "sample bad-1: its reference differs from sample bad-0's" in res.output


def test_rank_over_http_checks_the_request_and_says_when_the_server_cannot_run_attempts() -> None:
    import httpx

    from sejury.rank.compare import Comparison
    from sejury.rank.records import Ranking
    from sejury.serve import create_app
    from tests.serve.test_serve import running

    judge = Judge(ScriptedChatModel(script=_tests_script), cache=False)
    with running(create_app(judge)) as url:
        r = httpx.post(f"{url}/rank", json={"problem": ADD, "candidates": ["    return a + b\n"]})
        assert r.status_code == 503 and "--execute" in r.json()["error"]
        r = httpx.post(f"{url}/rank", json={"problem": ADD, "candidates": ["x"] * 65})
        assert r.status_code == 400 and r.json()["field"] == "candidates"
        r = httpx.post(f"{url}/rank", json={"problem": ADD, "candidates": ["x"], "config": {"team": "S1"}})
        assert r.status_code == 400 and r.json()["field"] == "config"
        r = httpx.post(f"{url}/rank", content=b"{not json", headers={"content-type": "application/json"})
        assert r.status_code == 400
        r = httpx.post(f"{url}/compare", json={"problem": ADD, "a": "x"})
        assert r.status_code == 400 and r.json()["field"] == "b"
        # OpenAPI shows each answer as its record with the tool's words, ``summary``
        openapi = httpx.get(f"{url}/openapi.json").json()
        schemas = openapi["components"]["schemas"]
        for path, record, reply in [("/rank", Ranking, "RankReply"), ("/compare", Comparison, "CompareReply")]:
            answer = openapi["paths"][path]["post"]["responses"]["200"]
            assert answer["content"]["application/json"]["schema"]["$ref"] == f"#/components/schemas/{reply}"
            assert set(schemas[reply]["properties"]) == {*record.model_fields, "summary"}
            assert "the agent tool answers" in schemas[reply]["properties"]["summary"]["description"]


@pytest.mark.docker
def test_rank_and_compare_over_http_as_tools_and_as_graphs() -> None:
    import httpx

    from sejury.rank.compare import Comparison
    from sejury.rank.integrations import compare_summary, rank_graph, summary
    from sejury.rank.records import Ranking, RankRequest
    from sejury.serve import create_app
    from tests.serve.test_serve import running

    attempts = ["    return a - b\n", "    return a + b\n", "    return a * b\n"]
    judge = Judge(ScriptedChatModel(script=_tests_script), cache=False, execute=True)
    tool = judge.as_rank_tool()
    said = tool.invoke({"problem": ADD, "candidates": attempts})
    assert said.startswith("CHOSEN: attempt 1 (NEEDS REVIEW: the chosen behaviour is shared by 1.")
    assert "#3 attempt" in said  # three attempts that all differ: agreement cannot back the choice
    from sejury.api import run_sync

    state = run_sync(rank_graph(judge).ainvoke({"request": RankRequest(problem=ADD, candidates=attempts)}))
    assert state["ranking"].chosen == 1 and state["summary"] == summary(state["ranking"])
    assert state["summary"].startswith("CHOSEN: attempt 1 (NEEDS REVIEW: ")
    said = judge.as_compare_tool().invoke({"problem": ADD_UNSTATED, "a": attempts[0], "b": attempts[1]})
    assert said.startswith("BETTER: b (decided by generated tests; NEEDS REVIEW)")
    from sejury.rank.integrations import compare_graph
    from sejury.rank.records import CompareRequest

    state = run_sync(compare_graph(judge).ainvoke({"request": CompareRequest(problem=ADD, a=attempts[0],
                                                                              b=attempts[1])}))
    assert state["comparison"].winner == "b" and state["summary"] == compare_summary(state["comparison"])
    assert state["summary"].startswith("BETTER: b (decided by ")
    # the server owns the judge from here on, and closes it when it stops
    with running(create_app(judge)) as url:
        r = httpx.post(f"{url}/rank", json={"problem": ADD, "candidates": attempts, "ids": ["a", "b", "c"]},
                       timeout=120)
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["chosen"] == 1 and body["candidates"][0]["id"] == "b" and "events" not in body
        # beside the record, the rank tool's words for it: what an agent reads of the tool
        assert body["summary"] == summary(Ranking.model_validate(body))
        assert body["summary"].startswith("CHOSEN: attempt 1 (NEEDS REVIEW: ") and "\n#1 attempt 1: score " in body[
            "summary"]
        traced = httpx.post(f"{url}/rank?trace=true", json={"problem": ADD, "candidates": attempts,
                                                            "tie_break": "model"}, timeout=120).json()
        assert traced["events"][0]["step"] == "write_tests" and traced["tie_break_skipped"]
        assert traced["summary"] == summary(Ranking.model_validate(traced))
        assert traced["summary"].splitlines()[1] == "tie-break: asked for, " + traced["tie_break_skipped"]
        r = httpx.post(f"{url}/compare", json={"problem": ADD_UNSTATED, "a": attempts[1], "b": attempts[0]},
                       timeout=120)
        assert r.status_code == 200 and r.json()["winner"] == "a" and r.json()["decided_by"] == "generated tests"
        assert r.json()["summary"] == compare_summary(Comparison.model_validate(r.json()))
        assert r.json()["summary"].startswith("BETTER: a (decided by generated tests; NEEDS REVIEW)\n")


@pytest.mark.embedded
@pytest.mark.docker
def test_the_bundled_attempts_rank_on_the_real_model() -> None:
    """``sejury rank examples/rank/attempts.jsonl`` as a user runs it: the embedded model writes the
    tests once, six attempts run; the three right ones (0, 2, 4: they de-duplicate) come first."""
    import subprocess
    import sys

    root = ROOT
    r = subprocess.run([sys.executable, "-m", "sejury.cli", "rank", str(root / "examples" / "rank" / "attempts.jsonl"),
                        "--json", "--no-cache"], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    ranking = json.loads(r.stdout.splitlines()[-1])
    print(json.dumps({k: ranking[k] for k in ("chosen", "tests_total", "probe_inputs", "seconds", "reasons")}))
    assert ranking["model_calls"] == 1 and ranking["sandbox_runs"] == 6 and ranking["tests_total"] > 0
    assert ranking["chosen"] in (0, 2, 4)
    assert {c["index"] for c in ranking["candidates"][:3]} == {0, 2, 4}


def test_the_model_choice_is_read_from_its_last_better_line() -> None:
    from sejury.errors import ScoreParseError
    from sejury.rank.compare import parse_choice

    got = parse_choice("Reasons:\n- A misses duplicates\n- B is right\nBetter: B")
    assert got.score == 0 and got.reasons == ["A misses duplicates", "B is right"]
    assert parse_choice("**Better:** a").score == 100 and parse_choice("better: TIE").score == 50
    with pytest.raises(ScoreParseError, match="no 'Better: A'"):
        parse_choice("Score: 80")


def _compare_script(choice: str, tests: str = TESTS) -> Any:
    def script(messages: list[Any]) -> str:
        text = str(messages[-1].content)
        if "[BEGIN PROGRAM A]" not in text:
            return f"```python\n{tests}```"
        return f"Reasons:\n- scripted\nBetter: {choice}"
    return script


@pytest.mark.docker
def test_compare_uses_the_evidence_first_and_a_position_bound_choice_is_a_tie() -> None:
    wrong, right, same = "    return a - b\n", "    return a + b\n", "    return b + a\n"
    judge = Judge(ScriptedChatModel(script=_compare_script("A")), cache=False, execute=True)
    c = judge.compare(ADD, wrong, right)  # the problem states add(2, 3) is 5: its own example decides
    assert (c.winner, c.decided_by, c.model_calls) == ("b", "stated examples", 1) and not c.needs_review
    assert (c.a.examples_passed, c.b.examples_passed, c.b.examples_total) == (0, 1, 1)
    c = judge.compare(ADD_UNSTATED, wrong, right)
    assert (c.winner, c.decided_by, c.model_calls) == ("b", "generated tests", 1) and c.needs_review
    c = judge.compare(ADD, right, wrong, reference=right)
    assert (c.winner, c.decided_by, c.validated) == ("a", "reference", True) and not c.needs_review
    c = judge.compare(ADD, right, "    return a +\n")
    assert (c.winner, c.decided_by) == ("a", "loading")
    c = judge.compare(ADD, right, same)
    assert (c.winner, c.decided_by, c.model_calls) == ("tie", "same behaviour", 1)
    # these two return different values on add(4, 4), yet both pass every test (it asserts >= 0): the
    # evidence does not separate them.  The scripted model always answers "A": the first shown wins in
    # both orders, so the choice follows the position: a tie, both replies kept
    loose = "assert add(2, 3) == 5\nassert add(4, 4) >= 0\n"
    odd = "    return a + b if a != 4 else a + b + 1\n"
    judge = Judge(ScriptedChatModel(script=_compare_script("A", loose)), cache=False, execute=True)
    c = judge.compare(ADD, right, odd)
    assert (c.winner, c.decided_by, c.flipped, c.model_verdicts) == ("tie", "model", True, ["a", "b"])
    assert [e.step for e in c.events if e.kind == "llm_call"] == ["write_tests", "compare_ab", "compare_ba"]
    def honest_script(m: list[Any]) -> str:  # prefers the right one wherever it is shown
        shown_first = str(m[-1].content).split("[BEGIN PROGRAM B]")[0]
        return str(_compare_script("B" if "a != 4" in shown_first else "A", loose)(m))

    honest = Judge(ScriptedChatModel(script=honest_script), cache=False, execute=True)
    c = honest.compare(ADD, right, odd)
    assert (c.winner, c.decided_by, c.flipped, c.model_verdicts) == ("a", "model", False, ["a", "a"])


def test_compare_reports_how_often_the_model_chose_by_position() -> None:
    from sejury.cli.ranking import position_bias
    from sejury.rank.compare import Comparison
    from sejury.rank.records import RankedCandidate

    side = RankedCandidate(index=0, rank=1, score=0, group=1, support=1, loaded=True)

    def pair(decided_by: Any, verdicts: list[Any], flipped: bool) -> Comparison:
        return Comparison(problem_id="p", language="python", winner="tie", decided_by=decided_by, a=side, b=side,
                          validated=False, model_verdicts=verdicts, flipped=flipped)

    done = [pair("model", ["a", "b"], True), pair("model", ["a", "a"], False), pair("loading", [], False),
            pair("model", ["a", None], False)]
    assert position_bias(done) == ("4 pair(s), decided by loading 1, model 3; the model, asked in both orders on 2, "
                                   "chose by position on 1 (position bias 50%: counted ties)")
