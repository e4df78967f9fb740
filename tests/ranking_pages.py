"""A stored ranking and a stored comparison, as `sejury rank` and `sejury compare` keep them, with
a hostile string in every field a page shows (shared by the page's unit and browser tests)."""

from __future__ import annotations

from pathlib import Path

from trace_helpers import HOSTILE

from sejury.rank.compare import Comparison
from sejury.rank.records import RankedCandidate, Ranking
from sejury.schema import TraceEvent
from sejury.traces.store import TraceStore, new_judgment_id

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
