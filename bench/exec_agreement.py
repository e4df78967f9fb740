"""S5-exec and S5-diff against the benchmarks' own outcomes, per language: a random draw of each
shared HumanEval set is judged by S5-exec (the model's tests, validated on the reference, really
run on the candidate) and S5-diff (the same tests' calls, the candidate's values against the
reference's) with the configured model; prints, per language and juror (and their mean), the
share left unscored and why, and avg(tau, rho) with the test outcomes (95 % bootstrap interval).

    .venv/bin/python bench/exec_agreement.py [--n 20] [--seed 11] [--langs python,javascript,java,cpp]
                                             [--out bench-runs/] [--model embedded]
                                             [--mutation-check 6 [--mutation-rounds 1]]

With ``--mutation-check`` each suite is also run on mutants of the reference; the report adds the
mean mutation score (before and after S5's second rounds) and the weighted mean of the two jurors
(each by its weight, as the supervisor merges them).  "wrong accepted": the share of the candidates
the benchmark's tests fail that the juror scores 50 or more.

``--ids A,B``: only those rows of the draw (the rows where an evidence-only run found no evidence,
judged again with the opinion jurors: there the opinion decides the default team's verdict).

Verdicts go to ``<out>/exec-<language>.jsonl`` and are resumed, so a killed run loses nothing.
Needs the Docker engine and the sandbox image; the embedded model takes ~30-60 s a sample here.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import math
import random
import statistics
from pathlib import Path
from typing import Any

from sejury import Judge, Sample
from sejury.io import RunFile
from sejury.stats import bootstrap_ci, correlate

NAMES = {"test_pass": "S5-exec", "test_diff": "S5-diff", "test_fuzz": "S5-fuzz", "executability": "S5-runs"}
JURORS = {"test_pass": "S5-exec", "test_diff": "S5-diff", "mean": "mean of both (weighted)"}
TABLE_HEAD = ("| language | juror | n | unscored | tau | rho | avg(tau, rho) [95 % CI] | wrong accepted |\n"
              "| --- | --- | --- | --- | --- | --- | --- | --- |")
SETS = {"python": "humaneval_python", "javascript": "humaneval_js", "java": "humaneval_java", "cpp": "humaneval_cpp",
        "go": "humaneval_go",  # 32 rows
        "apps": "apps", "bigcodebench": "bigcodebench"}  # Python: programs reading stdin; library-heavy code


def draw(data: Path, language: str, n: int, seed: int) -> list[Sample]:
    rows = [json.loads(x) for x in (data / f"{SETS[language]}.jsonl").read_text().splitlines() if x.strip()]
    return [Sample.model_validate(r) for r in random.Random(seed).sample(rows, min(n, len(rows)))]


def _score(verdict: dict[str, Any] | None, juror: str) -> tuple[float | None, str]:
    """A juror's score in a verdict ("mean": the verdict's own, the team's weighted mean of the
    members that scored) and, when unscored, why."""
    jurors = (verdict or {}).get("strategies", {})
    if juror != "mean":
        r = jurors.get(juror, {})
        return (None if r.get("score") is None else float(r["score"])), (r.get("detail") or "not judged")
    score = (verdict or {}).get("score")  # the supervisor's merge: the team's weighted mean
    return (None if score is None else float(score)), _score(verdict, "test_pass")[1]


def report(language: str, samples: list[Sample], path: Path, juror: str = "test_pass",
           names: dict[str, str] | None = None) -> str:
    verdicts = {v["sample_id"]: v for v in map(json.loads, path.read_text().splitlines())}
    pred, gold, why = [], [], collections.Counter[str]()
    wrong = wrong_accepted = 0
    for s in samples:
        score, detail = _score(verdicts.get(s.id), juror)
        if score is None:
            detail = detail.removeprefix("S5's tests did not run: ")
            why[detail.split(" (")[0].split(", so ")[0][:80]] += 1
            continue
        pred.append(score)
        gold.append(1.0 if s.metadata.get("test_passed") else 0.0)
        if not s.metadata.get("test_passed"):
            wrong += 1
            wrong_accepted += score >= 50
    c = correlate(pred, gold)
    ci = bootstrap_ci(pred, gold, lambda x: x.mean, seed=0) if len(pred) > 2 else None
    unscored = len(samples) - len(pred)
    interval = f"[{ci.low:.2f}, {ci.high:.2f}]" if ci and math.isfinite(ci.low) else "-"
    name = (names or JURORS)[juror]
    line = (f"| {language} | {name} | {len(samples)} | {unscored} ({100 * unscored / len(samples):.0f} %) | "
            f"{c.tau:.2f} | {c.rho:.2f} | **{c.mean:.2f}** {interval} | {wrong_accepted}/{wrong} |")
    reasons = "; ".join(f"{k} ({n})" for k, n in why.most_common(4))
    return line + (f"\n|  | | unscored because: {reasons} | | | | | |" if reasons else "")


def mutation_summary(language: str, path: Path) -> str:
    """The suites' mutation scores in a run with ``--mutation-check``: before and after the second
    rounds, how many rounds were asked, the tests they added and the survivors those killed."""
    before, after, asked, added, killed, helped = [], [], 0, 0, 0, 0
    for v in map(json.loads, path.read_text().splitlines()):
        ex = v.get("strategies", {}).get("generate_tests", {}).get("artifacts", {}).get("execution") or {}
        m = ex.get("mutation")
        if not m or m.get("score") is None:
            continue
        rounds = m.get("rounds") or []
        before.append(rounds[0]["score_before"] if rounds else m["score"])
        after.append(m["score"])
        asked += len(rounds)
        added += sum(r["valid"] for r in rounds)
        killed += sum(r["killed"] for r in rounds)
        helped += any(r["killed"] for r in rounds)
    if not before:
        return f"{language}: no mutation score recorded"
    weak = sum(b < 0.75 for b in before)
    return (f"{language}: {len(before)} suites checked, mean mutation score {statistics.fmean(before):.2f} -> "
            f"{statistics.fmean(after):.2f}; weak (< 0.75) {weak} -> {sum(a < 0.75 for a in after)}; "
            f"{asked} second rounds asked, {added} tests added, {killed} survivors killed, {helped} suites helped")


async def main(args: argparse.Namespace) -> None:
    out = Path(args.out)
    judge = Judge(args.model, team=args.team, execute=True, mutation_check=args.mutation_check,
                  mutation_rounds=args.mutation_rounds)
    jurors = {s.value: NAMES.get(s.value, s.paper_name) for s in judge.config.team or []}  # type: ignore[union-attr]
    jurors["mean"] = "team: mean of these (weighted)" if len(jurors) > 2 else JURORS["mean"]
    rows, mutation = [], []
    try:
        for language in args.langs.split(","):
            samples = draw(Path(args.data), language, args.n, args.seed)
            if args.ids:
                wanted = set(args.ids.split(","))
                samples = [s for s in samples if s.id in wanted]
            run = RunFile(out / f"exec-{language}.jsonl")
            try:
                todo = [s for s in samples if s.id not in run.done]
                failed = await judge.judge_into(todo, run, concurrency=2, trace=False)
            finally:
                run.close()
            rows += [report(language, samples, out / f"exec-{language}.jsonl", juror, jurors) for juror in jurors]
            if args.mutation_check:
                mutation.append(mutation_summary(language, out / f"exec-{language}.jsonl"))
            print(f"{language}: {len(todo)} judged now, {failed} failed", flush=True)
    finally:
        await judge.aclose()
    print(f"\n## {args.team} against the test outcomes ({args.n} rows per set, seed {args.seed}, model "
          f"{judge.llm.name})\n")
    print(TABLE_HEAD)
    print("\n".join(rows))
    if mutation:
        print(f"\nMutation check ({args.mutation_check} mutants, up to {args.mutation_rounds} second rounds):\n")
        print("\n".join(f"- {x}" for x in mutation))


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--langs", default="python,javascript,java,cpp")
    ap.add_argument("--data", default=str(Path(__file__).resolve().parent.parent.parent / "shared" / "data"))
    ap.add_argument("--out", default="bench-runs")
    ap.add_argument("--model", default="embedded")
    ap.add_argument("--team", default="S5-exec,S5-diff", help="evidence jurors, e.g. S5-exec,S5-diff,S5-fuzz")
    ap.add_argument("--mutation-check", type=int, default=0)
    ap.add_argument("--ids", default="", help="judge only these sample ids of the draw (comma-separated), e.g. the "
                                              "rows an evidence-only run left to opinion")
    ap.add_argument("--mutation-rounds", type=int, default=1)
    asyncio.run(main(ap.parse_args()))
