"""The outputs of ``sejury evaluate`` on comparisons (``evaluate_pairs`` computes them): one markdown
report of how the pairs were decided, the model's position bias and the accuracy; one CSV of the
pairs; the figures in JSON."""

from __future__ import annotations

import csv
import math
import re
from pathlib import Path

from sejury.evaluate_pairs import PairRow, PairsEvaluation

_LISTED = 20  # pairs the order changed, listed in the report (all are in pairs.csv)


def write_pairs_outputs(ev: PairsEvaluation, outdir: Path) -> Path:
    """``report.md``, ``pairs.csv`` (one row per comparison) and ``pairs.json`` (the figures)."""
    outdir.mkdir(parents=True, exist_ok=True)
    md = [f"# Pairwise comparisons ({ev.pairs} pairs, from {_code(ev.file)})", "",
          f"Decided by execution evidence: {ev.by_evidence}; by the model: {ev.by_model}; undecided (no reply of "
          f"the model read): {ev.pairs - ev.by_evidence - ev.by_model}.", "",
          *_table(["decided by", "pairs", "labelled", "right", "wrong", "tie", "accuracy"],
                  [[d.decided_by, d.pairs, d.outcomes.n, d.outcomes.right, d.outcomes.wrong, d.outcomes.tie,
                    _pct(d.outcomes.accuracy)] for d in ev.decided]),
          "", *_bias_md(ev), "", "## Pairwise accuracy", ""]
    if not ev.accuracy:
        md.append("No labels: give the rows `sejury compare` read with `--pairs FILE` (their `test_passed`, or "
                  "`--label FIELD`) for pairwise accuracy.")
    else:
        md += [f"Labels: {_code(ev.label_field or '')} of the rows in {_code(ev.labels_file or '')}. {ev.labelled} "
               "pair(s) with one right attempt; "
               f"{ev.same_label} with the same label on both (left out); {ev.unlabelled} without one.", "",
               *_table(["verdict", "pairs", "right", "wrong", "tie", "accuracy", "accuracy where not tied"],
                       [[rule, o.n, o.right, o.wrong, o.tie, _pct(o.accuracy), _pct(o.decided_accuracy)]
                        for rule, o in ev.accuracy.items()])]
    if ev.notes:
        md += ["", "## Notes", "", *[f"- {n}" for n in ev.notes]]
    report = outdir / "report.md"
    report.write_text("\n".join(md) + "\n", encoding="utf-8")
    with (outdir / "pairs.csv").open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        fields = list(PairRow.model_fields)
        w.writerow(fields)
        for r in ev.rows:
            w.writerow(["" if (v := getattr(r, k)) is None else v for k in fields])
    (outdir / "pairs.json").write_text(ev.model_dump_json(indent=2, exclude={"rows"}) + "\n", encoding="utf-8")
    return report


def _bias_md(ev: PairsEvaluation) -> list[str]:
    b = ev.bias
    md = ["## The model's position bias", ""]
    if not b.asked:
        return [*md, "The evidence decided every pair: the model was not asked."]
    md.append(f"Asked in both orders (a shown first, then b shown first) on {b.asked} pair(s) the evidence did not "
              f"decide: both replies read on {b.readable}, one on {b.one_unreadable} (decided on that reply alone), "
              f"none on {b.none_readable} (undecided). An unreadable reply counts apart, never as a verdict.")
    if not b.readable:
        return md
    n = b.readable
    md += ["", *_table([f"of the {n} pairs with both replies read", "pairs (share)"], [
        ["the two orders agree", _share(b.agree, n)],
        ["the order changed the verdict (flip rate)", _share(b.disagree, n)],
        ["of them, the first shown chosen both times (a tie)", _share(b.first_both, n)],
        ["of them, the second shown chosen both times (a tie)", _share(b.second_both, n)],
        ["of them, a tie in one order only", _share(b.half_tie, n)]]), "",
        f"Position bias: the choice followed the position on {b.flipped} of {n} ({_pct(b.position_rate)}); "
        "compare counts these as ties. Each order's choices:", "",
        *_table(["order asked", "first shown chosen", "second shown chosen", "tie",
                 f"replies unreadable (of {b.asked})"],
                [[o.order, _share(o.first, n), _share(o.second, n), _share(o.tie, n), o.unreadable]
                 for o in b.orders])]
    changed = [r for r in ev.rows if None not in (r.a_first, r.b_first) and r.a_first != r.b_first]
    if changed:
        md += ["", f"Pairs the order changed ({min(len(changed), _LISTED)} of {len(changed)} listed; all in "
                   "`pairs.csv`):", ""]
        md += [f"- {_code(r.problem_id)} ({_code(r.language)}, line {r.line}): {r.a_first} with a shown first, "
               f"{r.b_first} with b shown first" for r in changed[:_LISTED]]
    return md


def _table(head: list[str], rows: list[list[object]]) -> list[str]:
    return ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head),
            *("| " + " | ".join(str(x) for x in row) + " |" for row in rows)]


def _pct(x: float) -> str:
    return "n/a" if not math.isfinite(x) else f"{100 * x:.0f} %"


def _share(k: int, n: int) -> str:
    return f"{k} ({_pct(k / n)})"


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _code(text: str) -> str:
    """Text from a record as a markdown code span, inert in markdown and on a terminal: control
    characters shown as escapes, the fence longer than any run of backticks in it."""
    text = _CONTROL.sub(lambda m: f"\\x{c:02x}" if (c := ord(m.group())) < 0x100 else f"\\u{c:04x}", text)
    fence = "`" * (1 + max((len(run) for run in re.findall("`+", text)), default=0))
    pad = " " if text[:1] == "`" or text[-1:] == "`" or not text.strip() else ""
    return f"{fence}{pad}{text}{pad}{fence}"
