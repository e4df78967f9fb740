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

Resumable: each problem's row is appended to ``OUT/rank-LANG.jsonl`` and skipped when re-run.

    .venv/bin/python bench/rank_best_of_n.py --langs python,javascript,java,cpp --n 40 --seed 11 --out bench-runs/rank
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from sejury.api import Judge
from sejury.rank.evidence import Problem, collect, order

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


async def one(judge: Judge, language: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
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
    # what was collected, to rank again offline under another rule
    out["collected"] = {"behaviours": [b.model_dump(exclude={"seconds", "load_error"}) for b in got.behaviours],
                        "reference": got.reference.model_dump(exclude={"seconds", "load_error"})
                        if got.reference else None, "tests": got.probe.tests, "units": len(got.probe.units),
                        "stated": [[u, repr(v), t] for u, v, t in got.probe.stated], "labels": labels}
    return out


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


if __name__ == "__main__":
    asyncio.run(over_problems(arguments(__doc__).parse_args(), "rank", one, summary,
                              lambda r: f"{r['passing']} / {r['n']} noref {r['noref']['pass']} "
                                        f"unstated {r['noref_unstated']['pass']} ref {r['ref']['pass']} "
                                        f"{r['seconds']}s"))
