"""Merge rules side by side on the same judgments: the papers' mean of the SE-Jury team (the default
before evidence first) against the evidence-first default (that team plus the evidence jurors),
on a run file judged with every juror of both, against the benchmark's test outcomes.  No model
call: each verdict's members are merged again (``sejury.merge``), so the figures differ only by
the rule and the team.

    .venv/bin/python bench/merge_compare.py bench-runs/exec-python.jsonl [--pass-mark 50] [--jurors]
                                            [--rerun DIR ...]

``--rerun DIR``: jurors re-run apart (``bench/reexec_s5.py`` for S5-exec and S5-diff,
``bench/exfuzz_rerun.py`` for Ex-fuzz) under a changed harness or rule: each verdict's members
named in ``DIR/<the run file's name>`` take the re-run's score before the merge (later
directories win), the other members are the run's own.

Prints, per rule: n, unscored, avg(tau, rho) with its 95 % bootstrap interval, AUC, accuracy,
wrong code accepted and correct code rejected at the pass mark, and how many verdicts need review.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

from sejury.merge import MergeRule
from sejury.review import ReviewPolicy
from sejury.schema import Status, Strategy, StrategyResult, Verdict
from sejury.stats import bootstrap_ci, correlate

OLD_TEAM = ["direct", "direct_ref", "rethink", "equivalence", "reference_analysis", "generate_tests"]
EVIDENCE = ["sample_tests", "test_pass", "test_diff", "example_fuzz"]
RULES: list[tuple[str, list[str], MergeRule]] = [
    ("SE-Jury team, mean (the old default)", OLD_TEAM, "mean"),
    ("SE-Jury team + evidence jurors, mean", OLD_TEAM + EVIDENCE, "mean"),
    ("SE-Jury team + evidence jurors, evidence first (the new default)", OLD_TEAM + EVIDENCE, "evidence_first"),
    ("evidence jurors alone, evidence first", EVIDENCE, "evidence_first"),
]


def auc(pred: list[float], gold: list[float]) -> float:
    pos = [p for p, g in zip(pred, gold, strict=True) if g]
    neg = [p for p, g in zip(pred, gold, strict=True) if not g]
    if not pos or not neg:
        return math.nan
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


def rescore(v: Verdict, team: list[str], rule: MergeRule, mark: float) -> Verdict:
    from sejury.merge import stamp

    members = [Strategy(t) for t in team if t in v.strategies]
    return stamp(v.model_copy(update={"team": members}), rule=rule, pass_mark=mark,
                 policy=ReviewPolicy(threshold=mark))


def table(rows: list[dict[str, Any]], mark: float, rules: list[tuple[str, list[str], MergeRule]] = RULES) -> str:
    out = ["| rule | n | unscored | avg(tau, rho) [95 % CI] | AUC | accuracy | wrong accepted | correct rejected | "
           "needs review |", "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name, team, rule in rules:
        pred, gold, review, review_wrong, quiet_wrong = [], [], 0, 0, 0
        for r in rows:
            v = rescore(r["verdict"], team, rule, mark)
            if v.score is None:
                continue
            pred.append(v.score)
            gold.append(1.0 if r["passed"] else 0.0)
            review += v.needs_review
            wrong_verdict = (v.score >= mark) != r["passed"]
            review_wrong += v.needs_review and wrong_verdict
            quiet_wrong += (not v.needs_review) and wrong_verdict
        n = len(rows)
        c = correlate(pred, gold)
        ci = bootstrap_ci(pred, gold, lambda x: x.mean, seed=0) if len(pred) > 2 else None
        wrong = [p for p, g in zip(pred, gold, strict=True) if not g]
        right = [p for p, g in zip(pred, gold, strict=True) if g]
        acc = sum((p >= mark) == bool(g) for p, g in zip(pred, gold, strict=True)) / len(pred) if pred else math.nan
        wa = sum(p >= mark for p in wrong)
        cr = sum(p < mark for p in right)
        interval = f"[{ci.low:.2f}, {ci.high:.2f}]" if ci and math.isfinite(ci.low) else "-"
        out.append(f"| {name} | {n} | {n - len(pred)} | {c.mean:.2f} {interval} | {auc(pred, gold):.3f} | {acc:.2f} | "
                   f"{wa}/{len(wrong)} ({100 * wa / max(1, len(wrong)):.0f} %) | "
                   f"{cr}/{len(right)} ({100 * cr / max(1, len(right)):.0f} %) | {review} ({review_wrong} of them "
                   f"wrong; {quiet_wrong} wrong among the {len(pred) - review} others) |")
    return "\n".join(out)


def each_juror(rows: list[dict[str, Any]]) -> list[tuple[str, list[str], MergeRule]]:
    """A rule per juror that scored anywhere in the run (the juror alone), then the run's own teams."""
    names = sorted({n for r in rows for n, res in r["verdict"].strategies.items() if res.score is not None},
                   key=lambda n: Strategy(n).paper_name)
    teams = sorted({tuple(s.value for s in r["verdict"].team) for r in rows})
    return [(Strategy(n).paper_name + " alone", [n], "evidence_first") for n in names] + \
        [(f"the run's team ({', '.join(Strategy(t).paper_name for t in team)}), evidence first", list(team),
          "evidence_first") for team in teams]


def strictness(rows: list[dict[str, Any]]) -> str:
    """How hard each evidence juror is on right code and on wrong code: of the candidates the
    benchmark passes (fails), how many it scores below 100 (a generated check fails)."""
    out = ["| evidence juror | right: scored | right: below 100 | wrong: scored | wrong: below 100 |",
           "| --- | --- | --- | --- | --- |"]
    for name in EVIDENCE:
        cells = []
        for right in (True, False):
            got = [r["verdict"].strategies[name].score for r in rows if r["passed"] is right
                   and name in r["verdict"].strategies and r["verdict"].strategies[name].score is not None]
            below = sum(s < 100 for s in got if s is not None)
            cells += [str(len(got)), f"{below} ({100 * below / max(1, len(got)):.0f} %)"]
        out.append(f"| {Strategy(name).paper_name} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def spliced(v: Verdict, reruns: dict[str, dict[str, Any]]) -> Verdict:
    """``v`` with the members re-run apart in place of the run's own (their score and detail)."""
    members = dict(v.strategies)
    for name, got in reruns.items():
        old = members.get(name)
        if old is None:  # a juror the run's team lacked (Ex-fuzz re-run beside an S5-only run): added
            if "score" not in got:
                continue
            old = StrategyResult(strategy=Strategy(name), status=Status.UNSCORED)
        update: dict[str, Any] = {"against": got["against"]} if "against" in got else {}  # S5's, re-run
        if "score" in got:
            score = got["score"]
            update |= {"score": score, "detail": got.get("detail") or None,
                       "status": Status.SCORED if score is not None else Status.UNSCORED}
        if "score" in got or "artifacts" in got:  # a re-run's artifacts that review reads replace the run's own
            update["artifacts"] = {k: v for k, v in old.artifacts.items() if k != "edge_only"} | \
                got.get("artifacts", {})
        members[name] = old.model_copy(update=update)
    return v.model_copy(update={"strategies": members})


def load_reruns(dirs: list[Path], name: str) -> dict[str, dict[str, dict[str, Any]]]:
    """Sample id -> juror -> re-run result, from each ``DIR/name`` (later directories win)."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for d in dirs:
        for line in (d / name).read_text().splitlines():
            row = json.loads(line)
            out.setdefault(row["sample_id"], {}).update(row.get("strategies") or {})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="+", type=Path)
    ap.add_argument("--pass-mark", type=float, default=50.0)
    ap.add_argument("--jurors", action="store_true", help="each juror of the run alone, and the run's team, "
                    "in place of the rule comparison")
    ap.add_argument("--rerun", type=Path, action="append", default=[],
                    help="a directory of jurors re-run apart, spliced into the verdicts (repeatable)")
    args = ap.parse_args()
    for path in args.runs:
        rows = []
        reruns = load_reruns(args.rerun, path.name)
        for line in path.read_text().splitlines():
            v = Verdict.model_validate(json.loads(line))
            v = spliced(v, reruns.get(v.sample_id, {}))
            rows.append({"verdict": v, "passed": bool(v.metadata.get("test_passed"))})
        spliced_in = f"; re-run jurors from {', '.join(map(str, args.rerun))}" if args.rerun else ""
        print(f"\n### {path} ({len(rows)} verdicts, pass mark {args.pass_mark:g}{spliced_in})\n")
        if args.jurors:
            print(table(rows, args.pass_mark, each_juror(rows)))
            continue
        print(table(rows, args.pass_mark))
        print("\nHow hard each evidence juror is (a right candidate below 100 fails a generated check):\n")
        print(strictness(rows))


if __name__ == "__main__":
    main()
