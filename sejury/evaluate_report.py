"""The outputs of ``sejury evaluate`` (``evaluate.py`` computes them): one markdown report of
RQ1-RQ4 and the agreement beyond correlation, one CSV per table, and two plots (on comparisons:
``evaluate_pairs_report``)."""

from __future__ import annotations

import csv
import math
import statistics
from collections.abc import Sequence
from pathlib import Path

from sejury.evaluate import Evaluation, Row
from sejury.variance import Repeatability


def _f(x: float | None) -> str:
    return "" if x is None else ("n/a" if not math.isfinite(x) else f"{x:.3f}")


def _rows_md(rows: Sequence[Row], *, with_p: bool) -> list[str]:
    head = "| juror / team | n | tau | rho | (tau+rho)/2 | 95% CI | Pearson | calls/sample |"
    sep = "| --- | --- | --- | --- | --- | --- | --- | --- |"
    if with_p:
        head, sep = head + " Wilcoxon p vs team (Bonferroni) |", sep + " --- |"
    out = [head, sep]
    for r in rows:
        line = (f"| {r.name} | {r.n} | {_f(r.tau)} | {_f(r.rho)} | {_f(r.mean)} | {_f(r.ci_low)} to {_f(r.ci_high)} "
                f"| {_f(r.pearson)} | {r.llm_calls:.1f} |")
        out.append(line + (f" {_f(r.p_vs_team)} |" if with_p else ""))
    return out


def write_outputs(ev: Evaluation, outdir: Path) -> Path:
    outdir.mkdir(parents=True, exist_ok=True)
    md = [f"# Evaluation ({ev.n_samples} samples; {ev.excluded_labelled} labelled ones excluded)", "",
          f"Team: {ev.team_source}.", "", "## RQ1: correlation with human scores", "",
          *_rows_md(ev.rq1, with_p=True), ""]
    md += ["## RQ2: agreement (Cohen's kappa)", ""]
    if not ev.rq2["H-H"] and not ev.rq2["H-T"]:
        md.append("No individual annotations in this run (metadata.human_scores): nothing to compare.")
    for kind in ("H-H", "H-T"):
        ks = ev.rq2[kind]
        if ks:
            md.append(f"- {kind}: {len(ks)} pairs, mean {statistics.fmean(ks):.3f}, median "
                      f"{statistics.median(ks):.3f}, min {min(ks):.3f}, max {max(ks):.3f}")
    md += ["", "## RQ3: ablations (above) and the number of labelled samples", "",
           "| N | seeds | held-out (tau+rho)/2, mean | sd | team chosen most often |",
           "| --- | --- | --- | --- | --- |"]
    md += [f"| {r['N']} | {r['seeds']} | {r['mean']:.3f} | {r['sd']:.3f} | {r['most_chosen']} |" for r in ev.rq3_n]
    if ev.rq4:
        md += ["", "## RQ4: correlation with the benchmark's test outcomes", "", *_rows_md(ev.rq4, with_p=False)]
    md += ["", *_agreement_md(ev)]
    if ev.notes:
        md += ["", "## Notes", "", *[f"- {n}" for n in ev.notes]]
    report = outdir / "report.md"
    report.write_text("\n".join(md) + "\n")
    for name, rows in (("rq1", ev.rq1), ("rq4", ev.rq4)):
        with (outdir / f"{name}.csv").open("w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["name", "n", "tau", "rho", "mean", "ci_low", "ci_high", "pearson", "llm_calls", "p_vs_team"])
            for r in rows:
                w.writerow([r.name, r.n, r.tau, r.rho, r.mean, r.ci_low, r.ci_high, r.pearson, r.llm_calls,
                            r.p_vs_team])
    for name, fields, dicts in (("rq2", ["kind", "a", "b", "n", "kappa"], ev.rq2_pairs),
                                ("rq3_n", ["N", "seeds", "mean", "sd", "most_chosen"], ev.rq3_n)):
        with (outdir / f"{name}.csv").open("w", newline="") as f:
            dw = csv.DictWriter(f, fieldnames=fields)
            dw.writeheader()
            dw.writerows(dicts)
    _agreement_csvs(ev, outdir)
    _plots(ev, outdir)
    return report


def _agreement_md(ev: Evaluation) -> list[str]:
    md = ["## Agreement beyond correlation", "",
          "Krippendorff's alpha between each juror (mapped to the human scale) and the human label:", "",
          "| juror / team | n | alpha (interval) | alpha (ordinal) |", "| --- | --- | --- | --- |"]
    md += [f"| {a.name} | {a.n} | {_f(a.interval)} | {_f(a.ordinal)} |" for a in ev.alpha]
    if ev.alpha_humans is not None:
        h = ev.alpha_humans
        md += ["", f"Among the human raters ({h.n} samples with two or more): alpha {_f(h.interval)} (interval), "
                   f"{_f(h.ordinal)} (ordinal)."]
    if ev.binary:
        md += ["", "Against the binary outcome (the benchmark's tests, or a 0/1 label); the threshold is the "
                   "score with the best accuracy on the labelled samples (50 without them), applied to the rest:", "",
               "| juror / team | n | ROC-AUC | threshold | accuracy | accepts wrong code | rejects right code "
               "| TP / FP / TN / FN | kappa | ECE |",
               "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
        md += [f"| {b.name} | {b.n} | {_f(b.auc)} | {b.threshold:g} | {_f(b.accuracy)} | {_pct(b.accepts_wrong)} | "
               f"{_pct(b.rejects_right)} | {b.tp} / {b.fp} / {b.tn} / {b.fn} | {_f(b.kappa)} | {_f(b.ece)} |"
               for b in ev.binary]
    if ev.review is not None:
        r = ev.review
        md += ["", f"Needs review (the calibrated team; flagged when {r.rule}): {r.flagged} of {r.n} verdicts "
                   f"flagged; wrong: {_pct(r.flagged_error)} of the flagged, {_pct(r.unflagged_error)} of the "
                   f"others (Fisher's exact test, one-sided: p = {_f(r.p_value)}); {r.unscored} unscored."]
    if ev.levels:
        md += ["", "Correlation at two levels (ICE-Score): (tau + rho) / 2 over every sample (corpus), and within "
                   "each problem's candidates averaged over the problems with three or more scored and differing "
                   "labels (example):", "",
               "| juror / team | corpus n | corpus | problems | example |", "| --- | --- | --- | --- | --- |"]
        md += [f"| {x.juror} | {x.corpus_n} | {_f(x.corpus)} | {x.problems} | {_f(x.example)} |" for x in ev.levels]
    heads = {"generator": "Bias per generator (`metadata.system`; Crupi et al.)",
             "author": "Bias per author (`metadata.author`: human- or model-written candidates)",
             "self": "Self-preference (candidates the judge's own model wrote, against the others)"}
    for kind, head in heads.items():
        rows = [x for x in ev.bias if x.kind == kind]
        if not rows:
            continue
        md += ["", f"{head}: mean of verdict - label, both on [0, 1] (above 0: too kind to them), Wilcoxon "
                   "signed-rank p against 0, effect size (mean / sd), and Mann-Whitney p against the other groups:",
               "", f"| juror / team | {'generator' if kind == 'generator' else 'candidates'} | n | bias | p | effect "
                   "| p vs the others |", "| --- | --- | --- | --- | --- | --- | --- |"]
        md += [f"| {x.juror} | {x.system} | {x.n} | {x.coefficient:+.3f} | {_f(x.p_value)} | {_f(x.effect)} "
               f"| {_f(x.vs_others_p)} |" for x in rows]
    if ev.repeatability:
        k = ev.repeatability[0]
        md += ["", f"The judge's own variance ({k.repeats} judgments per sample, `sejury batch --repeats`): "
                   "test-retest agreement (Krippendorff's alpha, interval, the repeats as raters; 95 % bootstrap "
                   "interval over samples), the mean spread of one sample's scores, the share of samples whose "
                   f"score changed, and whose verdict flipped at {k.threshold:g}:", "",
               "| juror / team | samples | alpha | 95% CI | mean sd | mean range | score changed | verdict flipped "
               "| unscored |", "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
        md += [f"| {x.juror} | {x.samples} | {_f(x.alpha)} | {_f(x.alpha_low)} to {_f(x.alpha_high)} | {_num(x.sd)} "
               f"| {_num(x.range)} | {_pct(x.changed)} | {_pct(x.flipped)} | {_pct(x.unscored)} |"
               for x in ev.repeatability]
    if ev.unscored:
        md += ["", "Unscored rate (no score read, or the call failed, over the samples each juror ran on): "
               + "; ".join(f"{u.juror} {u.unscored}/{u.run_on} ({_pct(u.rate)})" for u in ev.unscored) + "."]
    return md


def _num(x: float) -> str:
    return "n/a" if not math.isfinite(x) else f"{x:.1f}"


def _pct(x: float) -> str:
    return "n/a" if not math.isfinite(x) else f"{100 * x:.0f} %"


def _agreement_csvs(ev: Evaluation, outdir: Path) -> None:
    with (outdir / "agreement_alpha.csv").open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["name", "n", "alpha_interval", "alpha_ordinal"])
        for a in [*ev.alpha, *([ev.alpha_humans] if ev.alpha_humans else [])]:
            w.writerow([a.name, a.n, a.interval, a.ordinal])
    with (outdir / "agreement_binary.csv").open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["name", "n", "auc", "threshold", "accuracy", "accepts_wrong", "rejects_right", "tp", "fp", "tn",
                    "fn", "kappa", "ece"])
        for b in ev.binary:
            w.writerow([b.name, b.n, b.auc, b.threshold, b.accuracy, b.accepts_wrong, b.rejects_right, b.tp, b.fp,
                        b.tn, b.fn, b.kappa, b.ece])
    if ev.review is not None:
        r = ev.review
        with (outdir / "review.csv").open("w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["n", "flagged", "flagged_wrong", "unflagged_wrong", "flagged_error", "unflagged_error",
                        "p_value", "unscored", "rule"])
            w.writerow([r.n, r.flagged, r.flagged_wrong, r.unflagged_wrong, r.flagged_error, r.unflagged_error,
                        r.p_value, r.unscored, r.rule])
    if ev.levels:
        with (outdir / "levels.csv").open("w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["juror", "corpus_n", "corpus", "problems", "example"])
            for lv in ev.levels:
                w.writerow([lv.juror, lv.corpus_n, lv.corpus, lv.problems, lv.example])
    if ev.bias:
        with (outdir / "bias.csv").open("w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["juror", "system", "n", "bias", "p_value", "effect", "kind", "vs_others_p"])
            for x in ev.bias:
                w.writerow([x.juror, x.system, x.n, x.coefficient, x.p_value, x.effect, x.kind, x.vs_others_p])
    if ev.repeatability:
        with (outdir / "repeatability.csv").open("w", newline="") as f:
            w = csv.writer(f)
            fields = list(Repeatability.model_fields)
            w.writerow(fields)
            for rp in ev.repeatability:
                w.writerow([getattr(rp, k) for k in fields])
    with (outdir / "unscored.csv").open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["juror", "run_on", "unscored", "rate"])
        for u in ev.unscored:
            w.writerow([u.juror, u.run_on, u.unscored, u.rate])


def _plots(ev: Evaluation, outdir: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for r in ev.rq1 if math.isfinite(r.mean)]
    if rows:
        fig, ax = plt.subplots(figsize=(max(6, len(rows) * 0.8), 4))
        means = [r.mean for r in rows]
        low = [max(0.0, r.mean - r.ci_low) if math.isfinite(r.ci_low) else 0 for r in rows]
        high = [max(0.0, r.ci_high - r.mean) if math.isfinite(r.ci_high) else 0 for r in rows]
        ax.bar(range(len(rows)), means, yerr=[low, high], capsize=4,
               color=["tab:orange" if i == 0 else "tab:blue" for i in range(len(rows))])
        ax.set_xticks(range(len(rows)), [r.name for r in rows], rotation=35, ha="right")
        ax.set_ylabel("(tau + rho) / 2 with human scores")
        ax.axhline(0, color="black", linewidth=0.5)
        ax.set_title("RQ1: jurors and teams, 95% bootstrap intervals")
        fig.tight_layout()
        fig.savefig(outdir / "rq1_bars.png", dpi=120)
        plt.close(fig)
    if ev.bias:
        jurors = list(dict.fromkeys(x.juror for x in ev.bias))
        systems = list(dict.fromkeys(x.system for x in ev.bias))
        grid = [[next((x.coefficient for x in ev.bias if x.juror == j and x.system == s), math.nan) for s in systems]
                for j in jurors]
        fig, ax = plt.subplots(figsize=(1.2 * len(systems) + 3, 0.5 * len(jurors) + 2))
        im = ax.imshow(grid, cmap="coolwarm", vmin=-1, vmax=1, aspect="auto")
        ax.set_xticks(range(len(systems)), systems, rotation=30, ha="right")
        ax.set_yticks(range(len(jurors)), jurors)
        for i, row in enumerate(grid):
            for k, v in enumerate(row):
                if math.isfinite(v):
                    ax.text(k, i, f"{v:+.2f}", ha="center", va="center", fontsize=8)
        fig.colorbar(im, ax=ax, label="verdict - label, on [0, 1]")
        ax.set_title("Bias per group of candidates")
        fig.tight_layout()
        fig.savefig(outdir / "bias_heatmap.png", dpi=120)
        plt.close(fig)
    if ev.repeatability:
        reps = ev.repeatability
        fig, ax = plt.subplots(figsize=(max(6, len(reps) * 0.8), 4))
        ax.bar(range(len(reps)), [x.sd if math.isfinite(x.sd) else 0 for x in reps], color="tab:purple")
        for i, x in enumerate(reps):
            ax.text(i, (x.sd if math.isfinite(x.sd) else 0) + 0.5, f"alpha {_f(x.alpha)}", ha="center", fontsize=7)
        ax.set_xticks(range(len(reps)), [x.juror for x in reps], rotation=35, ha="right")
        ax.set_ylabel("mean sd of a sample's scores (0-100)")
        ax.set_title(f"The judge's own variance: {reps[0].repeats} judgments per sample")
        fig.tight_layout()
        fig.savefig(outdir / "repeatability.png", dpi=120)
        plt.close(fig)
    if ev.rq2["H-H"] or ev.rq2["H-T"]:
        fig, ax = plt.subplots(figsize=(4.5, 4))
        data = [ev.rq2["H-H"] or [math.nan], ev.rq2["H-T"] or [math.nan]]
        ax.boxplot(data)
        ax.set_xticks([1, 2], ["human-human", "human-tool"])
        ax.set_ylabel("Cohen's kappa")
        ax.set_title("RQ2: agreement")
        fig.tight_layout()
        fig.savefig(outdir / "rq2_kappa_box.png", dpi=120)
        plt.close(fig)
