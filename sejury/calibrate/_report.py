"""The calibration report: the choice, the best teams, each member alone, the held-out evaluation."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from sejury.calibrate._select import ACCEPT, STABILITY_TOP, Calibration, TeamScore
from sejury.schema import Strategy


def _f(x: float) -> str:
    return "n/a" if not math.isfinite(x) else f"{x:.3f}"


def _accepts(t: TeamScore) -> str:
    """Against pass/fail labels: the wrong candidates accepted at the pass mark, and accuracy."""
    if t.wrong is None:
        return ""
    mark = ACCEPT if t.threshold is None else t.threshold
    return (f" Against the pass/fail labels, at the pass mark {mark:.4g} (chosen on the labelled set for best "
            f"accuracy; a score at or above it passes): {t.wrong_accepted} of the {t.wrong} wrong candidates accepted, "
            f"accuracy {_f(t.accuracy or 0.0)}.")


def _stability(cal: Calibration, names: Callable[[Sequence[Strategy]], str]) -> list[str]:
    """How settled the choice is: the share of bootstrap resamples of the labelled set each team won."""
    if not cal.stability:
        return []
    won = {(tuple(s.members), s.merge): s.share for s in cal.stability}
    mine = won.get((tuple(cal.chosen.members), cal.chosen.merge), 0.0)
    others = ", ".join(f"{names(s.members)}{' (evidence first)' if s.merge == 'evidence_first' else ''} "
                       f"{100 * s.share:.0f} %" for s in cal.stability
                       if (s.members, s.merge) != (cal.chosen.members, cal.chosen.merge))[:400]
    text = (f"**How settled is the choice?** Chosen again in {100 * mine:.0f} % of {cal.stability_resamples} "
            f"bootstrap resamples of the labelled set (among its {STABILITY_TOP} best teams)"
            + (f"; others first: {others}." if others else "."))
    if mine < 0.5:
        text += (" The labels do not settle the choice: these teams are equal within noise on this labelled "
                 "set; more labels would tell them apart, and a held-out difference between them may be noise too.")
    return ["", text]


def report(cal: Calibration, *, max_teams: int = 25) -> str:
    """A markdown report: the choice, the best teams, each member alone, and the held-out evaluation."""
    def names(ms: Sequence[Strategy]) -> str:
        return " + ".join(m.paper_name for m in ms)

    lines = [f"# Calibration ({cal.task.value}, {cal.protocol} protocol)", "",
             f"Labelled set: {cal.n_labelled} samples drawn with seed {cal.seed}; model `{cal.model}`, "
             f"prompts `{cal.prompt_version}`. Selection: highest mean of Kendall's tau-b and Spearman's rho; "
             "ties to fewer LLM calls.", "",
             f"**Chosen team: {names(cal.chosen.members)}**, merged by "
             f"{'evidence first' if cal.chosen.merge == 'evidence_first' else 'the mean'} — on the labelled set "
             f"tau {_f(cal.chosen.tau)}, rho {_f(cal.chosen.rho)}, mean {_f(cal.chosen.mean)}; "
             f"{cal.chosen.llm_calls:.1f} LLM calls per sample."]
    if cal.evaluation is not None:
        e = cal.evaluation
        ci = f" (95% bootstrap CI {_f(e.ci.low)} to {_f(e.ci.high)})" if e.ci else ""
        lines += ["", f"On the other {e.n} samples (labelled ones excluded): tau {_f(e.tau)}, rho {_f(e.rho)}, "
                  f"mean {_f(e.mean)}{ci}.{_accepts(e)}"]
    lines += _stability(cal, names)
    rule = ("every team of two or more members with an S1 variant in it (the paper's rule)" if cal.protocol == "paper"
            else "every non-empty team: one juror alone, the evidence alone, or any mix; a team with an evidence "
                 "juror merged both by the mean and evidence first")
    lines += ["", f"Candidate teams: {rule}; {len(cal.teams)} tried."]
    cheap = [m for m in cal.chosen.members if not m.is_llm]
    if cheap and len(cheap) == len(cal.chosen.members):
        what = "The evidence alone won" if all(m.is_evidence for m in cheap) else "No LLM opinion is in the team"
        why = ("It makes no model call at all." if cal.chosen.llm_calls == 0 else
               "The model may still run for it (S5 writes the tests S5-exec runs), but its own judgment of the "
               "candidate does not count.")
        lines += ["", f"**{what}**: {names(cheap)} beat every team with a model opinion (S1-S5) in it on the "
                  f"labelled set. {why}"]
    elif cheap:
        lines += ["", f"The team leans on non-LLM jurors ({names(cheap)}): on the labelled set they added to what "
                  "the model's own judgments could do."]
    held = {tuple(t.members): t for t in cal.evaluation_members}
    binary = any(t.wrong is not None for t in cal.evaluation_members)
    lines += ["", "## Each member alone", "", "| member | labelled tau | rho | mean | held-out mean | 95% CI |"
              + (" pass mark | held-out wrong accepted | accuracy |" if binary else "") + " calls/sample |",
              "| --- | --- | --- | --- | --- | --- |" + (" --- | --- | --- |" if binary else "") + " --- |"]
    for s in cal.strategies:
        h = held.get(tuple(s.members))
        ci = f"{_f(h.ci.low)} to {_f(h.ci.high)}" if h and h.ci else ""
        verdicts = (f" {h.threshold:.4g} | {h.wrong_accepted}/{h.wrong} | {_f(h.accuracy or math.nan)} |"
                    if h and h.wrong is not None and h.threshold is not None else " | | |") if binary else ""
        lines.append(f"| {names(s.members)} | {_f(s.tau)} | {_f(s.rho)} | {_f(s.mean)} | "
                     f"{_f(h.mean) if h else ''} | {ci} |{verdicts} {s.llm_calls:.1f} |")
    if cal.all_members is not None:
        lines += ["", f"All members merged, held out: mean {_f(cal.all_members.mean)} (ablation)."
                  + _accepts(cal.all_members)]
    shown = cal.teams[:max_teams]
    lines += ["", f"## Candidate teams on the labelled set (best first; {len(shown)} of {len(cal.teams)})", "",
              "| team | tau | rho | mean | calls/sample | tokens/sample |", "| --- | --- | --- | --- | --- | --- |"]
    for t in shown:
        rule = " (evidence first)" if t.merge == "evidence_first" else ""
        lines.append(f"| {names(t.members)}{rule} | {_f(t.tau)} | {_f(t.rho)} | {_f(t.mean)} | {t.llm_calls:.1f} | "
                     f"{t.tokens:.0f} |")
    if len(cal.teams) > len(shown):
        lines += ["", f"{len(cal.teams) - len(shown)} more teams: every team's figures are in the team file "
                  "(`calibration.teams`)."]
    return "\n".join(lines) + "\n"
