"""The model's tie-break in a ranking (``Judge.rank(..., tie_break="model")``, ``sejury.rank.tiebreak``):
first on runs given by hand with a scripted model (wiring: which pairs are asked, in both orders,
what a flip or an unreadable reply leaves, what the ranking records), then through the real sandbox
(the model scripted), and, marked ``embedded``, on the real model."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from sejury import Judge
from sejury.errors import InputError
from sejury.rank.evidence import Collected, Problem, order
from sejury.rank.integrations import summary
from sejury.rank.records import Behaviour, Ranking, RankRequest
from sejury.rank.tiebreak import break_ties
from sejury.roster import Strategy
from sejury.strategies._calls import Recorder
from tests.helpers.fakes import ScriptedChatModel
from tests.rank.test_rank import ADD, PROBE, _b, _tests_script

_SHOWN = re.compile(r"\[BEGIN PROGRAM A\]\n(.*?)\n\[END PROGRAM A\]", re.DOTALL)


def _attempt(n: int) -> str:
    """Attempt ``n``'s code: a line that names it, so a script can tell which one is shown first."""
    return f"    return a + b  # attempt {n}\n"


def _first_shown(messages: list[Any]) -> int:
    """The attempt shown first (as program A) in a compare prompt (the repair turn keeps it)."""
    found = _SHOWN.search(str(messages[1].content))
    assert found is not None, "not compare's prompt"
    return int(found.group(1).rsplit(" ", 1)[1])


def _second_shown(messages: list[Any]) -> int:
    text = str(messages[1].content)
    return int(text.split("[BEGIN PROGRAM B]\n", 1)[1].split("\n", 1)[0].rsplit(" ", 1)[1])


def _prefers(best: list[int]) -> Any:
    """A model that prefers the attempt earlier in ``best`` wherever it is shown (both orders agree)."""
    def script(messages: list[Any]) -> str:
        first, second = _first_shown(messages), _second_shown(messages)
        return f"Reasons:\n- scripted\nBetter: {'A' if best.index(first) < best.index(second) else 'B'}"
    return script


def _collected(behaviours: list[Behaviour]) -> Collected:
    n = len(behaviours)
    p = Problem(id="add", problem=ADD, candidates=[_attempt(i) for i in range(n)])
    return Collected(p, "python", "", PROBE, behaviours, None, Recorder(Strategy("generate_tests_nl")), n, 0.5)


async def _broken(script: Any, behaviours: list[Behaviour]) -> tuple[Ranking, Ranking, ScriptedChatModel]:
    """The ranking without the tie-break, with it, and the model (its calls counted)."""
    model = ScriptedChatModel(script=script)
    judge = Judge(model, cache=False)
    c = _collected(behaviours)
    plain = order(c, use_reference=False)
    return plain, await break_ties(judge.context, c, plain, use_reference=False), model


# two behaviours, each shared by two attempts: the same support, every test passed, the same score
ONE, TWO = {0: ["1"], 1: ["2"], 2: ["3"]}, {0: ["1"], 1: ["2"], 2: ["4"]}


def _pair_tie() -> list[Behaviour]:
    return [_b(ONE, [True] * 3), _b(TWO, [True] * 3), _b(ONE, [True] * 3), _b(TWO, [True] * 3)]


async def test_the_model_breaks_a_tie_when_both_orders_agree_and_each_behaviour_moves_together() -> None:
    plain, r, model = await _broken(_prefers([1, 3, 0, 2]), _pair_tie())
    assert [c.index for c in plain.candidates] == [0, 1, 2, 3] and plain.chosen == 0
    assert plain.reasons[0] == "attempts that behave differently score the same (83.33): 0, 1, 3"
    assert model.calls == 2 and r.model_calls == plain.model_calls + 2
    assert [c.index for c in r.candidates] == [1, 3, 0, 2] and r.chosen == 1  # attempt 3 moved with 1
    assert [c.rank for c in r.candidates] == [1, 2, 3, 4] and [c.group for c in r.candidates] == [1, 1, 2, 2]
    tb = r.tie_break
    assert tb is not None and (tb.attempts, tb.wins, tb.order, tb.chosen, tb.model_calls) == ([0, 1], [0, 1],
                                                                                               [1, 0], 1, 2)
    pair = tb.pairs[0]
    assert (pair.a, pair.b, pair.verdicts, pair.winner, pair.flipped) == (0, 1, ["b", "b"], "b", False)
    assert [x[-9:] for x in pair.replies] == ["Better: B", "Better: A"]  # 1 was shown second, then first
    assert r.needs_review and r.reasons[0] == (
        "the model chose attempt 1 among attempts that behave differently and score the same (83.33), asked in "
        "both orders: 1 over 0 (chose 1 with 0 shown first, chose 1 with 1 shown first); an opinion, not evidence")
    assert r.candidates[0].needs_review and r.candidates[0].reasons[-1] == "review: " + r.reasons[0]
    assert not any(x.startswith("review:") for c in r.candidates[1:] for x in c.reasons)
    assert [e.step for e in r.events if e.kind == "llm_call"] == ["tie_break_0_1", "tie_break_1_0"]
    assert "[BEGIN PROGRAM A]" in r.events[-1].messages[-1]["content"]  # compare's prompt, not another
    assert Ranking.model_validate_json(r.model_dump_json()).tie_break == tb  # the record round-trips
    assert r.tie_break_line == ("the model chose #1 among 2 tied behaviours at score 83.33: it won its pair, asked in "
                                "both orders (2 model calls)")  # what the table and the page say
    assert pair.counted == "won" and plain.tie_break_line == ""
    # what an agent reads from the rank tool: the same line, under the choice
    assert summary(r).splitlines()[1] == "tie-break: " + r.tie_break_line
    assert not any(x.startswith("tie-break:") for x in summary(plain).splitlines())


async def test_a_choice_that_follows_the_position_leaves_the_tie_and_its_reason() -> None:
    plain, r, model = await _broken(lambda m: "Reasons:\n- scripted\nBetter: A", _pair_tie())
    assert model.calls == 2 and [c.index for c in r.candidates] == [c.index for c in plain.candidates]
    tb = r.tie_break
    assert tb is not None and tb.chosen is None and tb.wins == [0, 0]
    pair = tb.pairs[0]
    assert (pair.verdicts, pair.winner, pair.flipped) == (["a", "b"], "tie", True)
    assert pair.counted == "flipped" and r.tie_break_line == (
        "the model did not settle the tie of 2 behaviours at score 83.33: 1 pair chosen by the position, not the code "
        "(counted a tie); the order stays the evidence's, so #0 comes first (2 model calls)")
    assert r.needs_review and r.reasons[0] == (
        "attempts that behave differently score the same (83.33): 0, 1, 3; the model did not settle it: 0 vs 1: "
        "the position decided, not the code (chose 0 with 0 shown first, chose 1 with 1 shown first)")


async def test_an_unreadable_reply_is_no_vote_never_a_verdict() -> None:
    def script(messages: list[Any]) -> str:  # with 0 shown first it never answers in the format, even repaired
        return "I cannot decide." if _first_shown(messages) == 0 else "Reasons:\n- scripted\nBetter: A"

    plain, r, model = await _broken(script, _pair_tie())
    assert model.calls == 3  # the unreadable order's repair turn, then the other order
    tb = r.tie_break
    assert tb is not None and tb.chosen is None and tb.wins == [0, 0] and tb.model_calls == 3
    pair = tb.pairs[0]
    assert (pair.verdicts, pair.winner, pair.flipped) == ([None, "b"], "tie", False)
    assert pair.replies == ["I cannot decide.", "Reasons:\n- scripted\nBetter: A"]
    assert pair.counted == "unreadable" and "1 pair with a reply unreadable (no vote); the order stays the " \
        "evidence's, so #0 comes first (3 model calls)" in r.tie_break_line
    assert r.chosen == plain.chosen == 0 and r.reasons[0].startswith(
        "attempts that behave differently score the same (83.33): 0, 1, 3; the model did not settle it: 0 vs 1: "
        "no choice, a reply could not be read (unreadable with 0 shown first, chose 1 with 1 shown first)")
    steps = [e.step for e in r.events if e.kind == "llm_call"]
    assert steps == ["tie_break_0_1", "tie_break_0_1", "tie_break_1_0"]


async def test_no_model_call_where_the_evidence_separates_the_top_or_one_behaviour_ties() -> None:
    def never(messages: list[Any]) -> str:
        raise AssertionError("the model was asked")

    def same(plain: Ranking, r: Ranking) -> bool:  # the ranking unchanged, but for why nothing was asked
        return r.model_dump(exclude={"tie_break_skipped"}) == plain.model_dump(exclude={"tie_break_skipped"})

    # one behaviour shared by two attempts outranks the third
    plain, r, model = await _broken(never, [_b(ONE, [True] * 3), _b(TWO, [True] * 3), _b(ONE, [True] * 3)])
    assert model.calls == 0 and same(plain, r) and r.tie_break is None and not r.reasons
    assert plain.tie_break_skipped == "" and plain.tie_break_line == ""  # not asked for: nothing said
    assert r.tie_break_line == "asked for, not needed: the 2 attempts that share the top score (88.89) behave " \
                               "alike: #0, #2"
    assert "tie-break: asked for, not needed: " in summary(r)
    # the attempts that share the top score all behave alike: one group, nothing to choose
    plain, r, model = await _broken(never, [_b(ONE, [True] * 3), _b(ONE, [True] * 3), _b(TWO, [False] * 3)])
    assert model.calls == 0 and same(plain, r) and r.tie_break is None and [c.index for c in r.candidates][:2] == [0, 1]
    assert r.tie_break_skipped.startswith("not needed: the 2 attempts that share the top score (")
    # the evidence separates the top: the better attempt passes more tests
    _, r, model = await _broken(never, [_b(ONE, [True, True, False]), _b(TWO, [True] * 3)])
    assert model.calls == 0 and r.chosen == 1 and r.tie_break_skipped.startswith(
        "not needed: the evidence separates the top: #1 scores ") and ", the next (#0) " in r.tie_break_skipped
    # the same score, but one fails the user's tests: not a tie
    split = [_b(ONE, [True] * 3, user_passed=[True]), _b(TWO, [True] * 3, user_passed=[False])]
    plain, r, model = await _broken(never, split)
    assert model.calls == 0 and same(plain, r) and r.chosen == 0
    assert r.tie_break_skipped == "not needed: the evidence separates the top: #0 fails fewer of your tests than " \
                                  "#1, at the same score"
    # one attempt; no attempt that loads
    _, r, model = await _broken(never, [_b(ONE, [True] * 3)])
    assert model.calls == 0 and r.tie_break_skipped == "not needed: one attempt (#0)"
    _, r, model = await _broken(never, [Behaviour(loaded=False), Behaviour(loaded=False)])
    assert model.calls == 0 and r.chosen is None and r.tie_break_skipped == "not possible: no attempt loads or compiles"


async def test_more_tied_behaviours_a_round_robin_of_at_most_four_ordered_by_wins() -> None:
    five = [_b({0: [str(i)]}, [True] * 3) for i in range(5)]  # five behaviours, each alone: all score 20
    _, r, model = await _broken(_prefers([3, 2, 1, 0, 4]), five)
    tb = r.tie_break
    assert tb is not None and tb.attempts == [0, 1, 2, 3] and tb.not_asked == [4]
    assert len(tb.pairs) == 6 and model.calls == 12 == tb.model_calls
    assert tb.wins == [0, 1, 2, 3] and tb.order == [3, 2, 1, 0] and tb.chosen == 3
    assert [c.index for c in r.candidates] == [3, 2, 1, 0, 4]  # the one not asked keeps its place after
    assert r.reasons[0].startswith("the model chose attempt 3 among attempts that behave differently and score "
                                   "the same (20), asked in both orders: 3 over 0 (")
    assert "3 over 1 (" in r.reasons[0] and "3 over 2 (" in r.reasons[0]
    assert "1 more tied behaviour(s) not asked (at most 4 are): 4" in r.reasons[0]
    assert r.tie_break_line == ("the model chose #3 among 4 tied behaviours at score 20: it won all 3 of its pairs, "
                                "asked in both orders (12 model calls); 1 more tied behaviour(s) not asked (at most 4 "
                                "are): #4")
    # a cycle: no behaviour wins all its pairs, so the model did not settle it (order by wins, then evidence)
    three = five[:3]

    def cycle(messages: list[Any]) -> str:
        first, second = _first_shown(messages), _second_shown(messages)
        beats = {(0, 1), (1, 2), (2, 0)}
        return f"Better: {'A' if (first, second) in beats else 'B'}"

    _, r, model = await _broken(cycle, three)
    tb = r.tie_break
    assert tb is not None and tb.wins == [1, 1, 1] and tb.chosen is None and model.calls == 6
    assert [c.index for c in r.candidates] == [0, 1, 2]
    assert r.reasons[0].startswith("attempts that behave differently score the same (33.33): 0, 1, 2; the model "
                                   "did not settle it: 0 over 1 (")
    assert r.tie_break_line == ("the model did not settle the tie of 3 behaviours at score 33.33: no attempt won "
                                "every pair it was in; the order is by pairs won, then the evidence's, so #0 comes "
                                "first (6 model calls)")


def test_the_option_is_checked_at_the_edges() -> None:
    assert RankRequest(problem="p", candidates=["a"]).tie_break == "none"
    assert RankRequest(problem="p", candidates=["a"], tie_break="model").tie_break == "model"
    with pytest.raises(ValueError, match="tie_break"):
        RankRequest.model_validate({"problem": "p", "candidates": ["a"], "tie_break": "maybe"})
    judge = Judge(ScriptedChatModel(script=_tests_script), cache=False)
    with pytest.raises(InputError, match="tie_break 'maybe'"):
        judge.rank(ADD, ["    return a + b\n"], tie_break="maybe")
    import httpx

    from sejury.serve import create_app
    from tests.serve.test_serve import running

    with running(create_app(judge)) as url:
        r = httpx.post(f"{url}/rank", json={"problem": ADD, "candidates": ["x"], "tie_break": "maybe"})
        assert r.status_code == 400 and r.json()["field"] == "tie_break"
        r = httpx.post(f"{url}/rank", json={"problem": ADD, "candidates": ["x"], "tie_break": "model"})
        assert r.status_code == 503  # a valid request; this server runs without the sandbox


def test_the_rank_command_takes_the_option_with_the_requests_help() -> None:
    from typer.testing import CliRunner

    from sejury.cli import app

    res = CliRunner().invoke(app, ["rank", "--help"], env={"COLUMNS": "300"})
    assert res.exit_code == 0 and "--tie-break" in res.output
    assert "'model': where attempts that behave differently share the top score" in " ".join(res.output.split())
    res = CliRunner().invoke(app, ["rank", "x.jsonl", "--tie-break", "maybe"])
    assert res.exit_code == 2


# two attempts that pass the same tests and examples but behave differently: they differ on one input
# only, square(40), which the ranking's probe holds (a mutation of the problem's examples, made from the
# problem's text alone: no model) and a test rarely asks
SQUARE = ('def square(n: int) -> int:\n    """Return the square of the positive integer n.\n    >>> square(3)\n    9\n'
          '    >>> square(5)\n    25\n    """\n')
SQUARES = ["    return n * n\n", "    return n * n if n != 40 else 1601\n"]
SQUARE_TESTS = "assert square(2) == 4\nassert square(4) == 16\nassert square(1) == 1\n"


def _square_script(messages: list[Any]) -> str:
    """The tests; then, asked to compare, the attempt without the special case wherever it is shown."""
    text = str(messages[1].content)
    if "[BEGIN PROGRAM A]" not in text:
        return f"```python\n{SQUARE_TESTS}```"
    first = text.split("[BEGIN PROGRAM A]\n", 1)[1].split("[END PROGRAM A]", 1)[0]
    return f"Reasons:\n- scripted\nBetter: {'B' if '40' in first else 'A'}"


@pytest.mark.docker
async def test_the_tie_break_through_the_sandbox_the_command_the_tool_and_the_graph(
        sandbox: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The attempts really run (the model is scripted): they tie on the evidence; by default nothing
    more is asked, with ``tie_break="model"`` the model's choice in both orders reorders them."""
    judge = Judge(ScriptedChatModel(script=_square_script), cache=False, execute=True, sandbox=sandbox)
    plain = await judge.arank(SQUARE, SQUARES[::-1])
    by = {c.index: c for c in plain.candidates}
    assert plain.model_calls == 1 and plain.tie_break is None and by[0].score == by[1].score
    assert by[0].group != by[1].group and plain.chosen == 0
    assert plain.reasons[0].startswith("attempts that behave differently score the same")
    r = await judge.arank(SQUARE, SQUARES[::-1], tie_break="model")
    assert r.model_calls == 3 and r.chosen == 1 and r.tie_break is not None and r.tie_break.chosen == 1
    assert r.needs_review and r.reasons[0].startswith("the model chose attempt 1 among attempts that behave "
                                                      "differently")
    assert [e.step for e in r.events if e.kind == "llm_call"] == ["write_tests", "tie_break_0_1", "tie_break_1_0"]
    # the tool and the graph take it in the request
    said = judge.as_rank_tool().invoke({"problem": SQUARE, "candidates": SQUARES[::-1], "tie_break": "model"})
    assert said.startswith("CHOSEN: attempt 1 (NEEDS REVIEW: the model chose attempt 1")
    from sejury.rank.integrations import rank_graph, summary

    state = await rank_graph(judge).ainvoke({"request": RankRequest(problem=SQUARE, candidates=SQUARES[::-1],
                                                                    tie_break="model")})
    assert state["ranking"].chosen == 1 and state["summary"] == summary(state["ranking"])
    assert state["summary"].splitlines()[1].startswith("tie-break: the model chose #1 among 2 tied behaviours")
    # the command
    from typer.testing import CliRunner

    from sejury.cli import app
    from sejury.cli import ranking as cli

    rows = [{"id": f"sq-{i}", "task": "code_generation", "problem": SQUARE, "candidate": c}
            for i, c in enumerate(SQUARES[::-1])]
    data = tmp_path / "attempts.jsonl"
    data.write_text("\n".join(json.dumps(x) for x in rows) + "\n")
    monkeypatch.setattr(cli, "Judge", lambda config: Judge(ScriptedChatModel(script=_square_script), cache=False,
                                                           execute=True, sandbox=sandbox))
    res = CliRunner().invoke(app, ["rank", str(data), "--tie-break", "model"], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    assert "chose #1 (sq-1)" in res.output and "1 over 0 (chose 1 with 0 shown first" in res.output
    assert "tie-break: the model chose #1 (sq-1) among 2 tied behaviours" in " ".join(res.output.split())
    assert "3 model call(s)" in res.output


@pytest.mark.embedded
@pytest.mark.docker
def test_the_tie_break_on_the_real_model(tmp_path: Path) -> None:
    """``sejury rank --tie-break model`` as a user runs it: the embedded model writes the tests, both
    attempts run and tie on the evidence (they differ on square(40) only, which the model's tests are
    unlikely to ask), and the model is asked in both orders.  The test checks what is asked and kept,
    not which one the model prefers (its accuracy on such ties is the bench's to measure)."""
    import subprocess
    import sys

    rows = [{"id": f"sq-{i}", "task": "code_generation", "problem": SQUARE, "candidate": c}
            for i, c in enumerate(SQUARES)]
    data = tmp_path / "attempts.jsonl"
    data.write_text("\n".join(json.dumps(x) for x in rows) + "\n")
    r = subprocess.run([sys.executable, "-m", "sejury.cli", "rank", str(data), "--json", "--trace", "--no-cache",
                        "--tie-break", "model"], capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr[-2000:]
    ranking = json.loads(r.stdout.splitlines()[-1])
    tb = ranking["tie_break"]
    print(json.dumps({k: ranking[k] for k in ("chosen", "model_calls", "reasons", "tie_break")}, default=str)[:3000])
    assert tb is not None, ranking["reasons"]  # they tie on the evidence
    assert tb["attempts"] == [0, 1] and len(tb["pairs"]) == 1 and ranking["chosen"] in (0, 1)
    pair = tb["pairs"][0]
    assert len(pair["replies"]) == 2 and all(pair["replies"]) and len(pair["verdicts"]) == 2
    assert ranking["model_calls"] == 1 + tb["model_calls"] and tb["model_calls"] >= 2
    steps = [e["step"] for e in ranking["events"] if e["kind"] == "llm_call"]
    assert steps[0] == "write_tests" and {"tie_break_0_1", "tie_break_1_0"} <= set(steps)
    assert ranking["needs_review"]
    if tb["chosen"] is not None:  # the model chose in both orders
        assert ranking["chosen"] == tb["chosen"] and ranking["reasons"][0].startswith("the model chose attempt")
    else:  # a flip, alike, or an unreadable reply: the tie and its reason stay
        assert ranking["reasons"][0].startswith("attempts that behave differently score the same")
