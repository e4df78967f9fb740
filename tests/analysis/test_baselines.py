"""The RQ1 baselines (vanilla prompt, ICE-Score) and the METEOR juror: judged when asked for, never
in the default team or a calibrated one."""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest
from langchain_core.messages import BaseMessage

from sejury import Judge, Sample, Status, Strategy
from sejury.calibrate import candidate_teams
from sejury.strategies import metrics as similarity
from tests.helpers.fakes import GOOD_REPLIES, ScriptedChatModel, step_of

MakeJudge = Callable[..., tuple[Judge, ScriptedChatModel]]
BASELINES = ["vanilla", "ice_score", "ice_score_ref"]


def replies(**override: str) -> Callable[[list[BaseMessage]], str]:
    table = {**GOOD_REPLIES, **override}
    return lambda messages: table[step_of(messages)]


async def test_baselines_score_with_their_own_formats(make_judge: MakeJudge, codegen: Sample) -> None:
    judge, model = make_judge(team=BASELINES)
    v = await judge.ajudge(codegen)
    # vanilla answers 0-100; ICE-Score answers 0-4 ("3" -> 75, a bare "4" -> 100)
    assert {k: r.score for k, r in v.strategies.items()} == {"vanilla": 60, "ice_score": 75, "ice_score_ref": 100}
    assert v.strategies["ice_score"].artifacts == {"rubric_score": 3, "rubric_scale": "0-4"}
    assert model.calls == 3
    ice_ref = v.strategies["ice_score_ref"].trace[0].messages[1]["content"]  # type: ignore[index]
    assert "[BEGIN REFERENCE CODE]" in ice_ref and "Functional Correctness:" in ice_ref
    vanilla = v.strategies["vanilla"].trace[0].messages[1]["content"]  # type: ignore[index]
    assert "REFERENCE" not in vanilla  # the bare prompt sees no reference


async def test_ice_score_repair_turn_asks_for_0_to_4(make_judge: MakeJudge, codegen: Sample) -> None:
    judge, _model = make_judge(script=replies(ice="It looks correct to me.", repair="Score: 2"),
                              team=["ice_score"])
    v = await judge.ajudge(codegen)
    r = v.strategies["ice_score"]
    assert r.status is Status.SCORED and r.score == 50
    assert "one integer from 0 to 4" in r.trace[1].messages[-1]["content"]  # type: ignore[index]


async def test_ice_score_out_of_range_is_unscored_not_zero(make_judge: MakeJudge, codegen: Sample) -> None:
    # the repair reply is on the 0-100 scale: 42 is not a 0-4 score, so the member stays unscored
    judge, _ = make_judge(script=replies(ice="Functional Correctness: 9"), team=["ice_score"])
    v = await judge.ajudge(codegen)
    r = v.strategies["ice_score"]
    assert r.status is Status.UNSCORED and r.score is None and "outside 0-4" in (r.detail or "")
    assert v.status == "unscored" and v.score is None


def test_baselines_are_never_team_candidates() -> None:
    members = [Strategy.DIRECT, Strategy("vanilla"), Strategy("ice_score"), Strategy("bleu")]
    assert candidate_teams(members) == [[Strategy.DIRECT, Strategy("bleu")]]
    assert all(s.is_baseline for s in map(Strategy, BASELINES))
    assert not any(s.is_baseline for s in Strategy if s.value not in BASELINES)


needs_wordnet = pytest.mark.skipif(
    similarity.wordnet_source() is None and not os.environ.get("SEJURY_REQUIRE_WORDNET"),
    reason="no WordNet database (apt-get install wordnet-base)")


@needs_wordnet
def test_meteor_matches_stems_and_wordnet_synonyms() -> None:
    exact = similarity.meteor("get the size of a file", "get the size of a file")
    synonym = similarity.meteor("get the size of a file", "obtain the size of a file")  # WordNet synonym
    other = similarity.meteor("get the size of a file", "compute the size of a file")
    stem = similarity.meteor("return the sum of a list", "returns the sum of a list")  # Porter stem
    assert exact == pytest.approx(99.77, abs=0.01) and synonym == pytest.approx(exact)
    assert stem == pytest.approx(exact)
    assert other == pytest.approx(83.0, abs=0.01)
    assert similarity.meteor("a b c", "") == 0.0


@needs_wordnet
async def test_meteor_is_a_juror(make_judge: MakeJudge, codegen: Sample) -> None:
    judge, model = make_judge(team=["meteor", "bleu"])
    v = await judge.ajudge(codegen)
    assert v.strategies["meteor"].status is Status.SCORED and v.strategies["meteor"].score > 99
    assert model.calls == 0


def test_meteor_without_wordnet_is_skipped_with_the_fix(monkeypatch: pytest.MonkeyPatch, codegen: Sample) -> None:
    monkeypatch.setattr(similarity, "WORDNET_DIRS", ("/nonexistent",))
    monkeypatch.delenv("SEJURY_WORDNET", raising=False)
    assert "apt-get install wordnet-base" in (similarity.applies_meteor(codegen) or "")


@needs_wordnet
def test_meteor_under_concurrency_reads_wordnet_consistently() -> None:
    """NLTK's WordNet reader shares file handles (a concurrent batch once failed on a garbled line):
    concurrent METEORs on a fresh reader must give exactly the sequential results."""
    from concurrent.futures import ThreadPoolExecutor

    words = [ln.split()[0] for ln in (similarity.wordnet_source() / "index.noun").read_text().splitlines()  # type: ignore[operator]
             if not ln.startswith(" ")][1000:5000:4]
    pairs = [(" ".join(words[i:i + 5]), " ".join(words[i + 2:i + 7])) for i in range(0, len(words) - 7, 5)]
    similarity._wordnet.cache_clear()
    with ThreadPoolExecutor(8) as pool:
        together = list(pool.map(lambda p: similarity.meteor(*p), pairs))
    similarity._wordnet.cache_clear()
    alone = [similarity.meteor(r, c) for r, c in pairs]
    assert together == alone


async def test_a_metric_that_raises_fails_alone(make_judge: MakeJudge, codegen: Sample,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> float:
        raise ValueError("garbled line")

    import sacrebleu  # the BLEU juror imports it when it first runs

    monkeypatch.setattr(sacrebleu, "sentence_bleu", broken)
    judge, _ = make_judge(team=["direct", "bleu"])
    v = await judge.ajudge(codegen)
    r = v.strategies["bleu"]
    assert r.status is Status.FAILED and "ValueError: garbled line" in (r.detail or "")
    assert v.status == "scored" and v.score == 80 and v.unscored_members == ["bleu"]
