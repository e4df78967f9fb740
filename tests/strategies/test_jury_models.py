"""A multi-model jury: members are strategy x model (``S1@second``), each asking its own
OpenAI-compatible server (two fake servers over real HTTP on 127.0.0.1 here; the embedded model
with a second endpoint in ``test_embedded``)."""

from __future__ import annotations

import json
import pickle
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sejury import InputError, Judge, Strategy
from sejury.calibrate import candidate_teams, read_run, score_team
from sejury.cli import app
from sejury.config import JudgeConfig
from sejury.roster import JURORS, derive, parse_strategy, resolve
from sejury.strategies import all_specs, unregister
from tests.helpers.fake_openai import FakeOpenAI
from tests.helpers.paths import EXAMPLES


@pytest.fixture(autouse=True)
def _forget_derived_members() -> Iterator[None]:
    """``S1@second`` is registered for the whole process when first named; other tests list the
    registered jurors, so each test here takes its derived members off again."""
    yield
    for s in all_specs():
        if s.model is not None:
            unregister(s.value)


def run_cli(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


def test_a_member_asked_of_a_second_model_is_a_juror_of_its_own() -> None:
    s1 = parse_strategy("S1@second")
    assert s1.value == "direct@second" and s1.paper_name == "S1@second" and s1.is_s1 and s1.is_llm
    assert Strategy("direct@second") is s1
    exec_ = parse_strategy("s5-exec@second")  # an evidence juror reads the tests the second model writes
    assert exec_.is_evidence and exec_.spec.feeders == ("generate_tests@second", "generate_tests_nl@second")
    with pytest.raises(InputError, match="BLEU calls no model"):
        parse_strategy("BLEU@second")
    with pytest.raises(InputError, match="unknown strategy"):
        parse_strategy("S9@second")
    with pytest.raises(InputError, match="jury model 'third', which is not given"):
        JudgeConfig.build(team="S1,S1@third")
    with pytest.raises(InputError, match="NAME=MODEL"):
        JudgeConfig.build(jury_models=["second"])
    cfg = JudgeConfig.build(team="S1,S1@second", jury_models="second=m@http://127.0.0.1:1/v1")
    assert cfg.jury_models == {"second": "m@http://127.0.0.1:1/v1"}


def test_naming_an_unknown_juror_is_a_lookup_and_deriving_is_explicit() -> None:
    """``Strategy(value)`` registers nothing: a juror asked of a jury model comes to be only through
    ``derive`` (``parse_strategy`` and ``resolve`` call it); a pickle carries it to a process that
    has not derived it yet."""
    with pytest.raises(ValueError, match="not a registered strategy"):
        Strategy("direct@third")
    assert JURORS.exact("direct@third") is None
    third = derive("S1@third")
    assert third is not None and third.value == "direct@third" and Strategy("direct@third") is third
    assert derive("S1@third") is third and derive("S1") is None and derive("S9@third") is None
    s5 = resolve("test_pass@third")  # as a run file holds it: its feeders are derived with it
    assert s5.spec.feeders == ("generate_tests@third", "generate_tests_nl@third")
    assert Strategy("generate_tests@third").spec.model == "third"
    with pytest.raises(ValueError, match="not a registered strategy"):
        resolve("s9@third")
    unregister("direct@third")  # as in a process that never named it
    assert pickle.loads(pickle.dumps(third)) is Strategy("direct@third")


def test_each_member_asks_its_own_server_and_the_team_merges_them(tmp_path: Path) -> None:
    """``--team S1,S1@second,S5@second``: S1 asks the first server (80), S1@second and S5@second
    the second (30 and its tests); each server gets exactly its members' calls, the verdict names
    the members apart, and a cached re-run asks neither."""
    cache = ["--cache-path", str(tmp_path / "c.sqlite"), "--no-traces"]
    with FakeOpenAI() as first, FakeOpenAI(replies={"direct": "Reasons:\n- off by one\nScore: 30"}) as second:
        args = ["judge", str(EXAMPLES / "code_generation.json"), "--json", "--team", "S1,S1@second,S5@second",
                "--model", "fake", "--base-url", first.base_url, "--jury-model", f"second=fake@{second.base_url}",
                *cache]
        plan = run_cli(*args, "--dry-run")  # each member's calls planned, on its own model
        assert plan.exit_code == 0 and (first.requests, second.requests) == (0, 0), plan.output
        assert json.loads(plan.stdout)["llm_calls"] == 4
        res = run_cli(*args)
        assert res.exit_code == 0, res.output
        v = json.loads(res.stdout)
        assert (v["strategies"]["direct"]["score"], v["strategies"]["direct@second"]["score"]) == (80, 30)
        s5 = v["strategies"]["generate_tests@second"]
        assert s5["status"] == "scored" and s5["llm_calls"] == 2
        assert v["score"] == pytest.approx((80 + 30 + s5["score"]) / 3, abs=0.01)
        assert (first.requests, second.requests) == (1, 3)
        assert v["team"] == ["direct", "direct@second", "generate_tests@second"]
        assert v["model"].startswith("openai-compatible:fake@" + first.base_url)
        assert v["jury_models"]["second"].startswith("openai-compatible:fake@" + second.base_url)
        again = run_cli(*args)
        assert again.exit_code == 0 and json.loads(again.stdout)["score"] == v["score"]
        assert (first.requests, second.requests) == (1, 3)  # every member from the cache
        cached = json.loads(run_cli(*args, "--dry-run").stdout)  # and knows each is cached, by its model
        assert (cached["llm_calls"], cached["cached_calls"]) == (0, 4)
    bad = run_cli("judge", str(EXAMPLES / "code_generation.json"), "--team", "S1@third", "--no-cache")
    assert bad.exit_code == 2 and "--jury-model third=MODEL" in bad.output


async def test_the_python_api_and_a_per_call_team(tmp_path: Path) -> None:
    with FakeOpenAI() as first, FakeOpenAI(replies={"direct": "Score: 10"}) as second:
        judge = Judge("fake", base_url=first.base_url, jury_models={"second": f"fake@{second.base_url}"},
                      cache=False, traces=False, team="S1")
        sample = json.loads((EXAMPLES / "code_generation.json").read_text())
        v = await judge.ajudge(sample, team=["S1", "S1@second"])
        assert (v.strategies["direct"].score, v.strategies["direct@second"].score, v.score) == (80, 10, 45)
        with pytest.raises(InputError, match="'third', which is not given"):
            await judge.ajudge(sample, team=["S1@third"])
        await judge.aclose()


def test_calibration_weighs_a_second_models_members_like_any_other(tmp_path: Path) -> None:
    """A run file with members of two models: calibration reads them, tries teams that mix them,
    and picks the one that tracks the labels (here S1 of the second model)."""
    rows = []
    for i, human in enumerate([0, 1, 2, 3, 4, 0, 2, 4]):
        strategies = {
            "direct": {"strategy": "direct", "status": "scored", "score": [60, 90, 10, 70, 40, 80, 20, 50][i],
                       "llm_calls": 1},
            "direct@second": {"strategy": "direct@second", "status": "scored", "score": 25 * human + 1,
                              "llm_calls": 1}}
        rows.append({"sample_id": f"s{i}", "task": "code_generation", "status": "scored", "score": 50,
                     "strategies": strategies, "metadata": {"human_score": human, "scale": "0-4"}})
    path = tmp_path / "run.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    recs = read_run(path)
    second = Strategy("direct@second")
    assert recs[0].scores[second] == 1
    teams = candidate_teams([Strategy.DIRECT, second], protocol="default")
    assert [second] in teams and [Strategy.DIRECT, second] in teams
    best = max(teams, key=lambda t: score_team(recs, t).mean)
    assert best == [second] and score_team(recs, [second]).mean == pytest.approx(1.0)


def test_calibrate_judges_the_labelled_set_with_a_second_models_member_too(tmp_path: Path) -> None:
    """``sejury calibrate DATA --also S1@second --jury-model second=...``: the labelled draw is
    judged by every juror and by S1 of the second server, whose S1 tracks the grades here (the
    first server's is a constant), so calibration chooses it."""
    data = tmp_path / "data.jsonl"
    grades = [0, 4, 1, 3, 2, 4, 0, 2]
    data.write_text("".join(json.dumps({"id": f"s{i}", "task": "code_generation", "language": "python",
                                        "problem": f"Write f{i}(x) returning x + {g}.",
                                        "candidate": f"def f{i}(x):\n    return x + {g}\n", "human_score": g})
                            + "\n" for i, g in enumerate(grades)))

    def graded(user: str) -> str:  # the second server's S1 reads the grade off the problem: x + g is 25 * g
        grade = int(re.search(r"returning x \+ (\d)", user).group(1))  # type: ignore[union-attr]
        return f"Score: {25 * grade}"

    with FakeOpenAI() as first, FakeOpenAI(replies={"direct": graded}) as second:
        res = run_cli("calibrate", str(data), "--n", "6", "--rest", "2", "--also", "S1@second",
                      "--model", "fake", "--base-url", first.base_url, "--jury-model", f"second=fake@{second.base_url}",
                      "--no-cache", "--no-traces", "--workdir", str(tmp_path / "cal"), "-o", str(tmp_path / "t.json"))
        assert res.exit_code == 0, res.output
        assert second.requests == len(grades)  # S1@second on the 6 labelled and then the 2 held out
    labelled = [json.loads(x) for x in (tmp_path / "cal" / "labelled.jsonl").read_text().splitlines()]
    assert all("direct@second" in v["strategies"] for v in labelled)
    team = json.loads((tmp_path / "t.json").read_text())
    assert "direct@second" in team["strategies"], team
