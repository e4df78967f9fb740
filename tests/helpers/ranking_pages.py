"""A stored ranking and a stored comparison, as `sejury rank` and `sejury compare` keep them, with
a hostile string in every field a page shows (shared by the page's unit and browser tests)."""

from __future__ import annotations

from pathlib import Path

from sejury.rank.compare import Comparison, model_choice
from sejury.rank.records import RankedCandidate, Ranking, TieBreak, TiePair, Winner
from sejury.rank.tiebreak import tie_pair
from sejury.schema import TraceEvent
from sejury.traces.store import TraceStore, new_judgment_id
from tests.helpers.trace_helpers import HOSTILE

EVENTS = [
    TraceEvent(kind="llm_call", strategy="generate_tests_nl", step="write_tests", attempt=1,
               messages=[{"role": "user", "content": "Write tests for add(a, b). " + HOSTILE}],
               reply="assert add(1, 2) == 3\n" + HOSTILE, finish_reason="stop", prompt_tokens=40,
               completion_tokens=12, seconds=1.5),
    TraceEvent(kind="sandbox_run", strategy="generate_tests_nl", step="run_attempt_0",
               detail={"loaded": True, "total": 2, "passed": 1, "status": "ok", "seconds": 0.4,
                       "stdout_tail": HOSTILE}),
    TraceEvent(kind="sandbox_run", strategy="generate_tests_nl", step="run_attempt_1",
               detail={"loaded": True, "total": 2, "passed": 2, "status": "ok", "seconds": 0.3}),
]


def attempt(index: int, rank: int, score: float, **kw: object) -> RankedCandidate:
    return RankedCandidate.model_validate({"index": index, "id": f"add-{index}", "rank": rank, "score": score,
                                           "group": rank, "support": 1.0, "loaded": True, "tests_passed": 2 - index,
                                           "tests_total": 2, **kw})


RANKING = Ranking(
    problem_id="add " + HOSTILE, language="python", chosen=1, validated=False,
    rule="agreement times tests passed", needs_review=True, reasons=["one attempt alone " + HOSTILE],
    candidates=[attempt(1, 1, 100.0, reasons=["passes 2/2 " + HOSTILE]),
                attempt(0, 2, 50.0, needs_review=True, reasons=["fails add(1, 2)"]),
                attempt(2, 3, 0.0, loaded=False)],
    tests="assert add(1, 2) == 3\n" + HOSTILE, tests_total=2, probe_inputs=5, model_calls=1, sandbox_runs=3,
    seconds=4.2, events=EVENTS)

COMPARISON = Comparison(
    problem_id="add", language="python", winner="b", decided_by="model", validated=False,
    a=attempt(0, 2, 50.0), b=attempt(1, 1, 100.0), model_verdicts=["b", "a"], flipped=True,
    needs_review=True, reasons=["the model's choice followed the position"], model_calls=2, sandbox_runs=2,
    seconds=3.0, events=EVENTS[:2])


def _pair(a: int, b: int, verdicts: list[Winner | None], replies: list[str]) -> TiePair:
    return tie_pair(a, b, model_choice(verdicts, replies))


# --tie-break model, asked on three tied behaviours (attempt 4 behaves as 0 does): attempt 0 beats the
# one with a hostile id in both orders, the position chose between 0 and 2, and a reply with 1 shown
# first could not be read; so no attempt won every pair and the model did not settle it
EVIL_ID = 'add-1 <script>alert("id")</script>'
TIE = TieBreak(score=50.0, attempts=[0, 1, 2], wins=[1, 0, 0], order=[0, 1, 2], chosen=None,
               model_calls=7, seconds=9.5, pairs=[
                   _pair(0, 1, ["a", "a"], ["Reasons:\n- scripted\nBetter: A", "Better: B\n" + HOSTILE]),
                   _pair(0, 2, ["a", "b"], ["Better: A", "Better: A"]),
                   _pair(1, 2, [None, "b"], [HOSTILE, "Better: A"])])
TIED = RANKING.model_copy(update={
    "chosen": 0, "reasons": ["attempts that behave differently score the same (50): 0, 1, 2; the model did not "
                             "settle it"],
    "candidates": [attempt(0, 1, 50.0), attempt(4, 2, 50.0, group=1, tests_passed=2),
                   attempt(1, 3, 50.0, id=EVIL_ID, group=2, needs_review=True, tests_passed=2),
                   attempt(2, 4, 50.0, group=3, tests_passed=2), attempt(3, 5, 20.0, group=4, tests_passed=1)],
    "model_calls": 8, "tie_break": TIE})
# --tie-break model where the evidence separates the top: nothing asked, and the page says why
SEPARATED = RANKING.model_copy(update={"tie_break_skipped": "not needed: the evidence separates the top: #1 (add-1) "
                                                            "scores 100, the next (#0 (add-0)) 50"})


def store_one(path: Path, kind: str, record: Ranking | Comparison) -> str:
    """``record`` in a trace store at ``path``: its id."""
    store = TraceStore(path)
    try:
        rid = new_judgment_id("r")
        store.put_ranking(rid, kind, record.problem_id, record.language, "scripted", record.seconds,
                          record.model_copy(update={"trace_id": rid}).model_dump_json())
        return rid
    finally:
        store.close()


def stored(path: Path) -> tuple[str, str]:
    """The ranking and the comparison in a trace store at ``path``: their ids."""
    store = TraceStore(path)
    try:
        ids = []
        for kind, record in (("rank", RANKING), ("compare", COMPARISON)):
            rid = new_judgment_id("r")
            store.put_ranking(rid, kind, record.problem_id, record.language, "scripted", record.seconds,
                              record.model_copy(update={"trace_id": rid}).model_dump_json())
            ids.append(rid)
        return ids[0], ids[1]
    finally:
        store.close()
