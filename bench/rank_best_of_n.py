"""Best of N on the shared HumanEval sets: does ``Judge.rank`` pick a passing attempt?

For each language, ``--n`` problems drawn with ``--seed`` (each holds ~20 attempts labelled by the
benchmark's own tests, ``test_passed``).  Per problem the evidence is collected once (one model
call for the tests, one sandbox run per distinct attempt and one on the reference) and ranked twice:
without the reference (CodeT's dual agreement) and with it (tests validated on it).  Reported:

- pass@1 of the top-ranked attempt, without and with the reference (without one, also without the
  problem's stated examples, ``noref_unstated``: what they add);
- a random pick's expected pass@1 (the pool's pass rate) and the oracle's (some attempt passes);
- the share of the random-to-oracle gap the ranking closes (the issue's goal: >= 0.5 without a
  reference, in every language);
- model calls, sandbox runs and seconds per problem.

``--tie-break model`` measures the model's tie-break (``Judge.rank(..., tie_break="model")``): each
ranking without and with the reference is ranked again with it (``noref_tb``, ``ref_tb``), and the
summary adds its pass@1, the problems where it was asked (the top score shared by different
behaviours), where the model settled the tie, the choices it changed (failing to passing and
back), its model calls per problem, and its choices on the tied pairs where exactly one attempt
passes (right, wrong, no choice).  Its rows go to ``OUT/rank-tiebreak-LANG.jsonl``.

Resumable: each problem's row is appended to ``OUT/rank-LANG.jsonl`` and skipped when re-run.

    .venv/bin/python bench/rank_best_of_n.py --langs python,javascript,java,cpp --n 40 --seed 11 --out bench-runs/rank
    .venv/bin/python bench/rank_best_of_n.py --langs python --n 40 --seed 11 --tie-break model
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import random
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from sejury.api import Judge
from sejury.rank.evidence import Collected, Problem, collect, order
from sejury.rank.records import Ranking, TieBreakOption
from sejury.rank.tiebreak import break_ties

SETS = {"python": "humaneval_python", "javascript": "humaneval_js", "java": "humaneval_java", "cpp": "humaneval_cpp"}


def problems(data: Path, language: str, n: int, seed: int) -> list[list[dict[str, Any]]]:
    """``n`` problems drawn with ``seed``, each as its rows (attempts) in file order."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for line in (data / f"{SETS[language]}.jsonl").read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            groups[row["id"].rsplit("-", 1)[0]].append(row)
    keys = sorted(groups, key=lambda k: int(k.rsplit("-", 1)[1]))
    return [groups[k] for k in random.Random(seed).sample(keys, min(n, len(keys)))]


async def one(judge: Judge, language: str, rows: list[dict[str, Any]], *,
              tie_break: TieBreakOption = "none") -> dict[str, Any]:
    pid = rows[0]["id"].rsplit("-", 1)[0]
    p = Problem(id=pid, problem=rows[0]["problem"], candidates=[r["candidate"] for r in rows], language=language,
                reference=rows[0]["reference"], ids=[r["id"] for r in rows])
    started = time.perf_counter()
    got = await collect(judge.context, p)
    seconds = time.perf_counter() - started
    labels = [bool(r["test_passed"]) for r in rows]
    out: dict[str, Any] = {"problem": pid, "language": language, "n": len(rows), "passing": sum(labels),
                           "random": sum(labels) / len(labels), "oracle": any(labels), "seconds": round(seconds, 2),
                           "model_calls": got.rec.calls, "sandbox_runs": got.sandbox_runs,
                           "tests": got.probe.tests, "inputs": len(got.probe.units),
                           "reference_loads": got.reference is not None}
    for name, use, stated in (("noref", False, True), ("noref_unstated", False, False), ("ref", True, True)):
        r = order(got, use_reference=use, use_stated=stated)
        out[name] = {"chosen": r.chosen, "pass": r.chosen is not None and labels[r.chosen],
                     "needs_review": r.needs_review, "reasons": r.reasons,
                     "order": [c.index for c in r.candidates], "scores": [c.score for c in r.candidates],
                     "tests_valid": r.tests_valid,
                     "examples": [(c.examples_passed, c.examples_total) for c in r.candidates]}
        if tie_break == "model" and stated:
            out[f"{name}_tb"] = await tie_broken(judge, got, r, use, labels)
    # what was collected, to rank again offline under another rule
    out["collected"] = {"behaviours": [b.model_dump(exclude={"seconds", "load_error"}) for b in got.behaviours],
                        "reference": got.reference.model_dump(exclude={"seconds", "load_error"})
                        if got.reference else None, "tests": got.probe.tests, "units": len(got.probe.units),
                        "stated": [[u, repr(v), t] for u, v, t in got.probe.stated], "labels": labels}
    return out


async def tie_broken(judge: Judge, got: Collected, r: Ranking, use_reference: bool,
                     labels: list[bool]) -> dict[str, Any]:
    """``r`` with the model's tie-break: what it chose, and what it asked and said."""
    t = await break_ties(judge.context, got, r, use_reference=use_reference)
    tb = t.tie_break
    return {"chosen": t.chosen, "pass": t.chosen is not None and labels[t.chosen], "needs_review": t.needs_review,
            "reasons": t.reasons, "order": [c.index for c in t.candidates], "asked": tb is not None,
            "settled": tb is not None and tb.chosen is not None, "model_calls": tb.model_calls if tb else 0,
            "seconds": tb.seconds if tb else 0.0, "changed": t.chosen != r.chosen,
            "pairs": [{"a": p.a, "b": p.b, "verdicts": p.verdicts, "winner": p.winner, "flipped": p.flipped,
                       "labels": [labels[p.a], labels[p.b]]} for p in tb.pairs] if tb else []}


def tie_break_summary(rows: list[dict[str, Any]], name: str, rnd: float, ora: float) -> dict[str, Any]:
    """What the tie-break did to the ``name`` ranking: pass@1, where it was asked and settled, the
    choices it changed (failing to passing and back), its model calls."""
    n, tb = len(rows), f"{name}_tb"
    top = sum(r[tb]["pass"] for r in rows) / n
    asked = [r for r in rows if r[tb]["asked"]]
    changed = [r for r in rows if r[tb]["changed"]]
    return {f"{tb}": round(top, 3), f"{tb}_gap_closed": round((top - rnd) / (ora - rnd), 3) if ora > rnd else None,
            f"{tb}_asked": len(asked), f"{tb}_settled": sum(1 for r in asked if r[tb]["settled"]),
            f"{tb}_changed": len(changed),
            f"{tb}_fail_to_pass": sum(1 for r in changed if r[tb]["pass"] and not r[name]["pass"]),
            f"{tb}_pass_to_fail": sum(1 for r in changed if r[name]["pass"] and not r[tb]["pass"]),
            f"{tb}_needs_review": sum(1 for r in rows if r[tb]["needs_review"]),
            f"{tb}_model_calls_per_problem": round(sum(r[tb]["model_calls"] for r in rows) / n, 2),
            f"{tb}_model_calls_per_asked": round(sum(r[tb]["model_calls"] for r in asked) / len(asked), 2)
            if asked else None,
            f"{tb}_pairs_flipped": sum(1 for r in asked for p in r[tb]["pairs"] if p["flipped"]),
            # the model's accuracy on tied pairs where exactly one attempt passes: right, wrong, no choice
            f"{tb}_mixed_pairs": _mixed_pairs([p for r in asked for p in r[tb]["pairs"]])}


def _mixed_pairs(pairs: list[dict[str, Any]]) -> dict[str, int]:
    mixed = [p for p in pairs if p["labels"][0] != p["labels"][1]]
    right = sum(1 for p in mixed if p["winner"] != "tie" and p["labels"][0 if p["winner"] == "a" else 1])
    undecided = sum(1 for p in mixed if p["winner"] == "tie")
    return {"pairs": len(mixed), "right": right, "wrong": len(mixed) - right - undecided, "no_choice": undecided}


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(rows)
    rnd = sum(r["random"] for r in rows) / n
    ora = sum(r["oracle"] for r in rows) / n
    s: dict[str, Any] = {"problems": n, "random": round(rnd, 3), "oracle": round(ora, 3)}
    for name in ("noref", "noref_unstated", "ref"):
        if any(name not in r for r in rows):
            continue  # rows written before the variant was measured
        top = sum(r[name]["pass"] for r in rows) / n
        s[name] = round(top, 3)
        s[f"{name}_gap_closed"] = round((top - rnd) / (ora - rnd), 3) if ora > rnd else None
        flagged = [r for r in rows if r[name]["needs_review"]]
        s[f"{name}_needs_review"] = len(flagged)
        s[f"{name}_wrong_unflagged"] = sum(1 for r in rows if not r[name]["pass"] and r["oracle"]
                                           and not r[name]["needs_review"])
    for name in ("noref", "ref"):
        if all(f"{name}_tb" in r for r in rows):
            s.update(tie_break_summary(rows, name, rnd, ora))
    s["seconds_per_problem"] = round(sum(r["seconds"] for r in rows) / n, 1)
    s["model_calls_per_problem"] = round(sum(r["model_calls"] for r in rows) / n, 2)
    s["sandbox_runs_per_problem"] = round(sum(r["sandbox_runs"] for r in rows) / n, 1)
    s["attempts_per_problem"] = round(sum(r["n"] for r in rows) / n, 1)
    return s


Run = Callable[[Judge, str, list[dict[str, Any]]], Awaitable[dict[str, Any] | None]]


async def over_problems(args: argparse.Namespace, prefix: str, run: Run,
                        summarise: Callable[[list[dict[str, Any]]], dict[str, Any]],
                        show: Callable[[dict[str, Any]], str]) -> None:
    """``run`` on each drawn problem of each language, its row appended to ``OUT/PREFIX-LANG.jsonl``
    (problems already there are skipped; a None row is not written); then the language's summary."""
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    judge = Judge(execute=True)
    try:
        for language in args.langs.split(","):
            path = out / f"{prefix}-{language}.jsonl"
            done = {json.loads(x)["problem"] for x in path.read_text().splitlines()} if path.exists() else set()
            for rows in problems(Path(args.data), language, args.n, args.seed)[:args.limit]:
                pid = rows[0]["id"].rsplit("-", 1)[0]
                if pid in done:
                    continue
                row = await run(judge, language, rows)
                if row is None:
                    continue
                with path.open("a") as f:
                    f.write(json.dumps(row) + "\n")
                print(language, pid, show(row), flush=True)
            print(language, json.dumps(summarise([json.loads(x) for x in path.read_text().splitlines()])), flush=True)
    finally:
        await judge.aclose()


def arguments(doc: str) -> argparse.ArgumentParser:
    """The options both benchmarks take."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--langs", default="python")
    ap.add_argument("--n", type=int, default=40)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--limit", type=int, default=None, help="only the first K problems of the draw")
    ap.add_argument("--data", default=str(Path(__file__).resolve().parents[2] / "shared" / "data"))
    ap.add_argument("--out", default="bench-runs/rank")
    return ap


def _shown(r: dict[str, Any]) -> str:
    tb = "".join(f" {name}_tb {r[f'{name}_tb']['pass']} ({r[f'{name}_tb']['model_calls']} calls)"
                 for name in ("noref", "ref") if f"{name}_tb" in r)
    return (f"{r['passing']} / {r['n']} noref {r['noref']['pass']} unstated {r['noref_unstated']['pass']} "
            f"ref {r['ref']['pass']}{tb} {r['seconds']}s")


if __name__ == "__main__":
    ap = arguments(__doc__)
    ap.add_argument("--tie-break", choices=["model", "none"], default="none",
                    help="also rank with the model's tie-break (rows in OUT/rank-tiebreak-LANG.jsonl)")
    args = ap.parse_args()
    asyncio.run(over_problems(args, "rank-tiebreak" if args.tie_break == "model" else "rank",
                              functools.partial(one, tie_break=args.tie_break), summary, _shown))
