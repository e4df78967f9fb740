"""The SE-Jury paper's experiments on recorded scores (a ``sejury batch`` run over a labelled set).

- RQ1: correlation with human scores of every juror alone, all LLM strategies merged, and the
  calibrated team, with bootstrap intervals; Wilcoxon signed-rank tests of the team's absolute
  errors against each other row's (scores mapped to the human scale), Bonferroni-corrected.
- RQ2: Cohen's kappa between human raters (H-H) and between each rater and the tool (H-T), from
  the individual annotations.
- RQ3: ablations (calibrated team, all merged, each juror alone) and the N study: calibration
  repeated with N labelled samples over several seeds, evaluated on the rest.
- RQ4: correlation with the benchmark's own binary test outcomes, where the samples carry them.
- Agreement beyond correlation (``agreement.py``): Krippendorff's alpha with the humans and among
  them; against binary outcomes ROC-AUC, accuracy at a threshold chosen on the labelled samples,
  the confusion matrix, kappa and calibration error; each juror's unscored rate.

The labelled samples of the calibrated team are excluded from every figure.  Nothing here calls
a model.  Outputs: one markdown report, one CSV per table, and two plots.
"""

from __future__ import annotations

import csv
import itertools
import math
import statistics
from collections import Counter
from collections.abc import Collection, Sequence
from pathlib import Path

from pydantic import BaseModel

from sejury import agreement, variance
from sejury.agreement import Alpha, Bias, Binary, Levels, ReviewFlag, Unscored
from sejury.calibrate import Calibration, Record, calibrate, score_team, team_scores
from sejury.errors import InputError
from sejury.schema import Scale, Strategy, TeamFile
from sejury.stats import cohen_kappa, wilcoxon
from sejury.variance import Repeatability

DEFAULT_NS = (2, 6, 18, 20, 50)


class Row(BaseModel):
    name: str
    members: list[Strategy]
    n: int
    tau: float
    rho: float
    mean: float
    pearson: float
    ci_low: float
    ci_high: float
    llm_calls: float
    p_vs_team: float | None = None  # Wilcoxon on absolute errors, Bonferroni-corrected


class Evaluation(BaseModel):
    n_samples: int
    excluded_labelled: int
    team_source: str
    rq1: list[Row]
    rq2: dict[str, list[float]]  # "H-H" / "H-T" -> kappas
    rq2_pairs: list[dict[str, object]]
    rq3_n: list[dict[str, object]]
    rq4: list[Row]
    alpha: list[Alpha] = []
    alpha_humans: Alpha | None = None
    binary: list[Binary] = []
    unscored: list[Unscored] = []
    review: ReviewFlag | None = None  # does the calibrated team's needs-review flag earn its place?
    bias: list[Bias] = []  # per juror x generator (metadata.system), author, self-preference
    repeatability: list[Repeatability] = []  # the judge's own variance (a run with --repeats)
    levels: list[Levels] = []  # corpus- vs example-level correlation
    notes: list[str]


def _scale(records: Sequence[Record]) -> Scale:
    for r in records:
        if r.scale is not None:
            return r.scale
    lo, hi = min(r.human for r in records), max(r.human for r in records)
    return Scale(low=lo, high=hi if hi > lo else lo + 1)


def _row(name: str, records: Sequence[Record], members: list[Strategy], resamples: int, seed: int) -> Row:
    t = score_team(records, members, ci=True, resamples=resamples, seed=seed)
    return Row(name=name, members=members, n=t.n, tau=t.tau, rho=t.rho, mean=t.mean, pearson=t.pearson,
               ci_low=t.ci.low if t.ci else math.nan, ci_high=t.ci.high if t.ci else math.nan,
               llm_calls=t.llm_calls)


def _abs_errors(records: Sequence[Record], members: Sequence[Strategy], scale: Scale) -> dict[str, float]:
    """Per sample: |score mapped to the human scale - human score|."""
    return {r.sample_id: abs((r.scale or scale).map(s) - r.human) for r, s in team_scores(records, members)}


def evaluate(records: Sequence[Record], *, team: TeamFile | None = None, n_labelled: int = 20, seed: int = 0,
             ns: Sequence[int] = DEFAULT_NS, seeds: int = 5, resamples: int = 1000,
             kappa_weights: str | None = None, self_systems: Collection[str] = ()) -> Evaluation:
    """The tables, from ``records`` (``read_run``).  A run judged with ``--repeats`` may be passed
    whole (``read_run(..., repeats=True)``): every table reads the first judgment of each sample,
    and the repeats give the judge's own variance.  ``self_systems``: the generators
    (``metadata.system``) that are the judge's own model, for self-preference (default: a
    generator whose name is part of the model's)."""
    notes: list[str] = []
    repeated = list(records)
    records = [r for r in records if not r.repeat]
    if team is not None:
        labelled_ids = set(team.calibration.get("labelled_ids", []))
        team_members = list(team.strategies)
        source = f"team file ({', '.join(s.value for s in team_members)})"
    else:
        cal: Calibration = calibrate(records, n_labelled=n_labelled, seed=seed, resamples=0)
        labelled_ids = set(cal.labelled_ids)
        team_members = cal.chosen.members
        source = f"calibrated here on {n_labelled} samples, seed {seed}"
    rest = [r for r in records if r.sample_id not in labelled_ids]
    members = sorted({s for r in rest for s in r.scores}, key=list(Strategy).index)
    llm = [m for m in members if m.is_llm and not m.is_baseline]
    scale = _scale(records)

    rows = [_row("calibrated team", rest, team_members, resamples, seed)]
    if llm:
        rows.append(_row("all LLM strategies merged", rest, llm, resamples, seed))
    rows += [_row(_label(m), rest, [m], resamples, seed) for m in members]
    team_err = _abs_errors(rest, team_members, scale)
    others = rows[1:]
    for row in others:
        err = _abs_errors(rest, row.members, scale)
        common = sorted(set(team_err) & set(err))
        if len(common) >= 2:
            row.p_vs_team = wilcoxon([team_err[i] for i in common], [err[i] for i in common],
                                     comparisons=len(others)).p_bonferroni
    missing = [s.paper_name for s in (Strategy.VANILLA, Strategy.ICE_SCORE, Strategy.ICE_SCORE_REF, Strategy.BLEU,
                                      Strategy.CHRF, Strategy.ROUGE_L, Strategy.METEOR, Strategy.CODEBLEU)
               if s not in members]
    if missing:
        notes.append(f"Not in this run (judge them with `sejury batch --team ...`): {', '.join(missing)}.")

    # RQ2: agreement
    tool = {r.sample_id: round((r.scale or scale).map(s)) for r, s in team_scores(rest, team_members)}
    raters = sorted({a for r in rest for a in r.annotations})
    by_rater = {a: {r.sample_id: r.annotations[a] for r in rest if a in r.annotations} for a in raters}
    hh, ht, pairs = [], [], []
    for a, b in itertools.combinations(raters, 2):
        common = sorted(set(by_rater[a]) & set(by_rater[b]))
        if len(common) >= 2:
            k = cohen_kappa([int(by_rater[a][i]) for i in common], [int(by_rater[b][i]) for i in common],
                            weights=kappa_weights)
            if math.isfinite(k):
                hh.append(k)
                pairs.append({"kind": "H-H", "a": a, "b": b, "n": len(common), "kappa": k})
    for a in raters:
        common = sorted(set(by_rater[a]) & set(tool))
        if len(common) >= 2:
            k = cohen_kappa([int(by_rater[a][i]) for i in common], [int(tool[i]) for i in common],
                            weights=kappa_weights)
            if math.isfinite(k):
                ht.append(k)
                pairs.append({"kind": "H-T", "a": a, "b": "tool", "n": len(common), "kappa": k})
    if not raters:
        notes.append("RQ2 needs individual annotations (metadata.human_scores); this run has none.")

    # RQ3: the N study
    try:
        n_study = _n_study(records, ns, seeds)
    except InputError as exc:  # e.g. no S1 in the run: calibration cannot choose a team
        n_study = []
        notes.append(f"RQ3's N study skipped: {exc.message}.")

    # RQ4: binary test outcomes
    outcome = [r for r in rest if r.test_passed is not None]
    rq4: list[Row] = []
    if outcome:
        as_labels = [r.model_copy(update={"human": float(bool(r.test_passed))}) for r in outcome]
        rq4 = [_row("calibrated team", as_labels, team_members, resamples, seed)]
        rq4 += [_row(_label(m), as_labels, [m], resamples, seed) for m in members]
    # agreement beyond correlation
    labelled = [r for r in records if r.sample_id in labelled_ids]
    named = [("calibrated team", team_members), *((_label(m), [m]) for m in members)]
    alpha = [agreement.alpha_with_humans(n, rest, ms, scale) for n, ms in named]
    binary = [got for n, ms in named if (got := agreement.binary(n, labelled, rest, ms)) is not None]
    return Evaluation(n_samples=len(records), excluded_labelled=len(records) - len(rest), team_source=source,
                      rq1=rows, rq2={"H-H": hh, "H-T": ht}, rq2_pairs=pairs, rq3_n=n_study, rq4=rq4,
                      alpha=alpha, alpha_humans=agreement.alpha_among_humans(rest), binary=binary,
                      unscored=agreement.unscored_rates(records),
                      review=agreement.review_flag(labelled, rest, team_members, scale),
                      bias=agreement.bias(rest, named, scale, self_systems=self_systems),
                      levels=agreement.levels(rest, named),
                      repeatability=variance.repeatability(repeated, named, seed=seed), notes=notes)


def _n_study(records: Sequence[Record], ns: Sequence[int], seeds: int) -> list[dict[str, object]]:
    n_study: list[dict[str, object]] = []
    for n in ns:
        if n >= len(records) - 1:
            continue
        means: list[float] = []
        chosen: Counter[str] = Counter()
        for s in range(seeds):
            c = calibrate(records, n_labelled=n, seed=s, resamples=0)
            if c.evaluation is not None and math.isfinite(c.evaluation.mean):
                means.append(c.evaluation.mean)
            chosen[" + ".join(m.paper_name for m in c.chosen.members)] += 1
        if means:
            n_study.append({"N": n, "seeds": len(means), "mean": statistics.fmean(means),
                            "sd": statistics.pstdev(means), "most_chosen": chosen.most_common(1)[0][0]})
    return n_study


def _label(m: Strategy) -> str:
    return m.paper_name + (" (baseline)" if m.is_baseline else "")


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
