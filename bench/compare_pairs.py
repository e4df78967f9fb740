"""Pairwise comparison on the shared HumanEval sets: (passing, failing) pairs of one problem.

For each language, the ``--n`` problems ``rank_best_of_n.py`` draws with ``--seed``; in each one
that holds both a passing and a failing attempt, one pair drawn with the seed.  Per pair:

- ``Judge.compare`` as users call it (evidence first, the model only where the evidence ties),
  without the reference and with it, the passing attempt shown as a in half the pairs, b in the
  other half;
- with ``--model-alone``, the model alone on every pair, asked in both orders: its accuracy where
  it does not tie, and how often its choice follows the position (a flip: A both times, or B both
  times).

Resumable: rows are appended to ``OUT/compare-LANG.jsonl``.

    .venv/bin/python bench/compare_pairs.py --langs python,javascript,java,cpp --n 40 --seed 11 --out bench-runs/rank
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rank_best_of_n import arguments, over_problems

from sejury.api import Judge
from sejury.rank.compare import by_evidence, by_model
from sejury.rank.evidence import Problem, collect


async def one(judge: Judge, language: str, rows: list[dict[str, Any]], rng: random.Random,
              model_alone: bool) -> dict[str, Any] | None:
    good = [r for r in rows if r["test_passed"]]
    bad = [r for r in rows if not r["test_passed"]]
    if not good or not bad:
        return None
    g, b = rng.choice(good), rng.choice(bad)
    good_first = rng.random() < 0.5
    a_row, b_row = (g, b) if good_first else (b, g)
    right = "a" if good_first else "b"
    pid = rows[0]["id"].rsplit("-", 1)[0]
    p = Problem(id=pid, problem=rows[0]["problem"], candidates=[a_row["candidate"], b_row["candidate"]],
                language=language, reference=rows[0]["reference"], ids=[a_row["id"], b_row["id"]])
    started = time.perf_counter()
    c = await collect(judge.context, p)
    out: dict[str, Any] = {"problem": pid, "language": language, "right": right, "a": a_row["id"], "b": b_row["id"]}
    for name, use in (("noref", False), ("ref", True)):
        cmp = by_evidence(c, use_reference=use)
        out[name] = {"winner": cmp.winner, "decided_by": cmp.decided_by}
    out["model"] = {"winner": None, "verdicts": [], "flipped": False, "calls": 0}
    if model_alone or any(out[name]["decided_by"] == "undecided" for name in ("noref", "ref")):
        model = by_evidence(c, use_reference=False)
        calls = c.rec.calls
        await by_model(judge.context, model, c)
        out["model"] = {"winner": model.winner, "verdicts": model.model_verdicts, "flipped": model.flipped,
                        "calls": c.rec.calls - calls}
        for name in ("noref", "ref"):  # the evidence tied: compare asks the model, as users get it
            if out[name]["decided_by"] == "undecided":
                out[name] = {"winner": model.winner, "decided_by": "model" if model.model_verdicts else "undecided"}
    out["seconds"] = round(time.perf_counter() - started, 2)
    return out


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(rows)
    s: dict[str, Any] = {"pairs": n}
    for name in ("noref", "ref"):
        right = sum(1 for r in rows if r[name]["winner"] == r["right"])
        ties = sum(1 for r in rows if r[name]["winner"] == "tie")
        s[name] = {"right": right, "wrong": n - right - ties, "tie": ties,
                   "by": {k: sum(1 for r in rows if r[name]["decided_by"] == k)
                          for k in sorted({r[name]["decided_by"] for r in rows})}}
    asked = [r for r in rows if r["model"]["verdicts"]]
    both = [r for r in asked if None not in r["model"]["verdicts"]]
    s["model_alone"] = {
        "pairs": len(both), "flipped": sum(1 for r in both if r["model"]["flipped"]),
        "right_in_both_orders": sum(1 for r in both if r["model"]["winner"] == r["right"]),
        "wrong_in_both_orders": sum(1 for r in both if r["model"]["winner"] not in (r["right"], "tie")),
        "first_shown_chosen": sum(1 for r in both for k, v in enumerate(r["model"]["verdicts"])
                                  if v == ("a" if k == 0 else "b")),
        "verdicts": 2 * len(both)}
    return s


if __name__ == "__main__":
    ap = arguments(__doc__)
    ap.add_argument("--model-alone", action="store_true",
                    help="also ask the model on every pair (2 calls each): its accuracy and position bias")
    args = ap.parse_args()

    async def run(judge: Judge, language: str, rows: list[dict[str, Any]]) -> dict[str, Any] | None:
        pid = rows[0]["id"].rsplit("-", 1)[0]
        return await one(judge, language, rows, random.Random(f"{args.seed}:{pid}"), args.model_alone)

    asyncio.run(over_problems(args, "compare", run, summary,
                              lambda r: f"right {r['right']} noref {r['noref']} ref {r['ref']} "
                                        f"model {r['model']['verdicts']} {r['seconds']}s"))
