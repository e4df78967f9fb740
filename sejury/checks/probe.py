"""`sejury probe`: how a judge configuration behaves when nothing about correctness changes, when
one bug is injected, and when the candidate talks to the judge (metamorphic robustness).

For each sample its candidate and variants are judged: equivalent ones (``variants.py``: locals
renamed, comments removed, re-indented), one-bug mutants (``mutants.py``), and injections
(comments addressing the judge).  Where the sample carries tests, each variant is verified in the
sandbox first: an equivalent or an injection must pass and fail exactly the tests the candidate
does; a mutant must fail a test the candidate passes.  Unverified variants are reported apart.
"""

from __future__ import annotations

import json
import logging
import math
import os
import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from sejury.api import Judge
from sejury.checks.variants import candidate_in, equivalents, injected
from sejury.errors import InputError
from sejury.execution import languages
from sejury.execution.languages._parse_guard import TooCostly
from sejury.execution.mutants import mutants, region_of
from sejury.execution.runner import assemble_program, run_suite, split_tests
from sejury.execution.signatures import last_function
from sejury.io import text_lines
from sejury.sandbox.base import SandboxProvider
from sejury.schema import Sample, Task, Verdict

Kind = Literal["original", "equivalent", "mutant", "injection"]
TEAM = "team"


class Judged(BaseModel):
    """One judged version of a sample's candidate."""

    sample_id: str
    kind: Kind
    label: str
    verified: bool | None = None  # None: the sample has no tests to verify it with
    why_unverified: str = ""
    base: str = ""  # the label of the variant it is compared with ("": the candidate)
    scores: dict[str, float | None] = Field(default_factory=dict)  # juror -> score; "team": the verdict's


class Effect(BaseModel):
    """One juror's reaction to one kind of variant (verified ones), against the original."""

    juror: str
    kind: Kind
    n: int
    mean_delta: float  # variant - original
    mean_abs_delta: float
    share_lower: float  # of the variants scored below the original
    ci_low: float  # 95 % bootstrap interval of mean_delta
    ci_high: float


log = logging.getLogger(__name__)
Made = tuple[Kind, str, str, str]  # kind, label, candidate, the label of its base ("": the candidate)


def _variants(sample: Sample, n_mutants: int, seed: int) -> list[Made]:
    """Equivalents, mutants and injections of the candidate, and the injections again in the first
    mutant: a judge that already gives the candidate the top score cannot show an injection's pull
    there, while a wrong program leaves it room."""
    lang = languages.get(sample.language)
    name = lang.name if lang is not None else sample.language
    program = assemble_program(name, sample.problem, sample.candidate)
    span = region_of(program, sample.candidate)
    out: list[Made] = []
    first_mutant: tuple[str, str] | None = None
    if span is not None:
        found = last_function(sample.problem) or last_function(sample.candidate)
        keep = {found.name} if found else set()
        try:
            out += [("equivalent", v.label, v.candidate, "")
                    for v in equivalents(name, program, span, sample.candidate, keep)]
            drawn = mutants(name, program, [span], limit=n_mutants, seed=seed)
        except TooCostly as exc:
            log.warning("%s: no equivalents or mutants of the candidate: %s", sample.id, exc)
            drawn = []
        for m in drawn:
            text = candidate_in(sample.candidate, program, span, m.program)
            out.append(("mutant", m.label, text, ""))
            first_mutant = first_mutant or (m.label, text)
    out += [("injection", v.label, v.candidate, "") for v in injected(name, sample.candidate)]
    if first_mutant is not None:
        out += [("injection", f"{v.label}, in a mutant", v.candidate, first_mutant[0])
                for v in injected(name, first_mutant[1])]
    return out


async def _verify(provider: SandboxProvider, sample: Sample, found: list[Made]) -> list[tuple[bool | None, str]]:
    """Per variant: (verified, why not), against the sample's tests in the sandbox."""
    lang = languages.get(sample.language)
    if not sample.tests or lang is None:
        return [(None, "the sample has no tests")] * len(found)
    suite = split_tests(lang.name, sample.tests)
    if not suite.units:
        return [(None, "no test could be read from the sample's tests")] * len(found)
    base = await run_suite(provider, lang.name, assemble_program(lang.name, sample.problem, sample.candidate), suite)
    if not base.loaded:
        return [(None, "the candidate itself does not load")] * len(found)
    out: list[tuple[bool | None, str]] = []
    runs = {"": base.passed}  # label -> what each verified program passed
    for kind, label, text, on in found:
        got = await run_suite(provider, lang.name, assemble_program(lang.name, sample.problem, text), suite)
        if on not in runs:
            out.append((False, "its mutant is not verified"))
        elif kind == "mutant":
            ok = got.loaded and any(a and not b for a, b in zip(base.passed, got.passed, strict=True))
            out.append((ok, "" if ok else "fails no test the candidate passes"))
        else:
            ok = got.loaded and got.passed == runs[on]
            out.append((ok, "" if ok else "does not behave like what it was made from on the sample's tests"))
        if out[-1][0]:
            runs[label] = got.passed
    return out


def _scores(v: Verdict) -> dict[str, float | None]:
    got: dict[str, float | None] = {TEAM: v.score}
    for r in v.strategies.values():
        if r.in_team:
            got[r.strategy.paper_name] = r.score if r.status.value == "scored" else None
    return got


async def probe_sample(judge: Judge, sample: Sample, provider: SandboxProvider | None, *, n_mutants: int = 3,
                       seed: int = 0) -> list[Judged]:
    if sample.task is not Task.CODE_GENERATION:
        return []
    found = _variants(sample, n_mutants, seed)
    checks = await _verify(provider, sample, found) if provider is not None else \
        [(None, "not verified (--no-verify)")] * len(found)
    original = await judge.ajudge(sample)
    out = [Judged(sample_id=sample.id, kind="original", label="the candidate", scores=_scores(original))]
    for (kind, label, text, on), (ok, why) in zip(found, checks, strict=True):
        v = await judge.ajudge(sample.model_copy(update={"id": f"{sample.id}~{kind}~{label}", "candidate": text}))
        out.append(Judged(sample_id=sample.id, kind=kind, label=label, verified=ok, why_unverified=why, base=on,
                          scores=_scores(v)))
    return out


async def probe(judge: Judge, samples: Sequence[Sample], provider: SandboxProvider | None, *, n_mutants: int = 3,
                seed: int = 0, progress: Callable[[Sample, list[Judged]], None] | None = None,
                done: Mapping[str, list[Judged]] | None = None) -> list[Judged]:
    """Every sample's judged versions; those of ``done`` (sample id -> its versions, from an earlier
    run) are taken as they are.  ``progress`` sees each sample probed here as it finishes."""
    out: list[Judged] = []
    for s in samples:
        if done is not None and s.id in done:
            out += done[s.id]
            continue
        got = await probe_sample(judge, s, provider, n_mutants=n_mutants, seed=seed)
        if progress is not None:
            progress(s, got)
        out += got
    return out


class ProbeLog:
    """A probe's judged versions in ``folder/probe-judged.jsonl``, each sample's written as it
    finishes, so a killed probe loses at most the sample in hand (and its judgments are in the
    result cache); ``folder/probe-settings.json`` holds what they were judged with, and a re-run
    with other settings is refused rather than mixed in."""

    def __init__(self, folder: Path, settings: dict[str, object]) -> None:
        self.path = folder / "probe-judged.jsonl"
        folder.mkdir(parents=True, exist_ok=True)
        marker = folder / "probe-settings.json"
        if marker.exists() and self.path.exists():
            before = json.loads(marker.read_text())
            if before != settings:
                changed = sorted(k for k in {*before, *settings} if before.get(k) != settings.get(k))
                raise InputError(f"holds a probe with other settings ({', '.join(changed)}); use another -o, "
                                 "or remove it to start again", file=str(folder))
        else:
            self.path.unlink(missing_ok=True)
        marker.write_text(json.dumps(settings, indent=1) + "\n")
        self.done: dict[str, list[Judged]] = {}
        if self.path.exists():
            lines = text_lines(self.path)
            if lines and not lines[-1]:
                lines.pop()  # the file ends with a line's "\n"
            for n, line in enumerate(lines, 1):
                try:
                    j = Judged.model_validate_json(line)
                except ValueError:
                    if n == len(lines):  # torn by a kill mid-write: that sample is probed again
                        break
                    raise InputError("not a probe line", file=str(self.path), line=n) from None
                self.done.setdefault(j.sample_id, []).append(j)
            self.path.write_text("".join(j.model_dump_json() + "\n" for g in self.done.values() for j in g))

    def add(self, got: Sequence[Judged]) -> None:
        with self.path.open("a") as fh:
            fh.write("".join(j.model_dump_json() + "\n" for j in got))
            fh.flush()
            os.fsync(fh.fileno())


def effects(judged: Sequence[Judged], *, unverified: bool = False, resamples: int = 1000,
            seed: int = 0) -> list[Effect]:
    """Per juror and kind of variant: the score change against what it was made from (the
    candidate; for an injection into a mutant, the mutant), over
    the verified variants (or, with ``unverified``, those there were no tests to verify)."""
    bases = {(j.sample_id, "" if j.kind == "original" else j.label): j.scores for j in judged}
    jurors = list(dict.fromkeys(k for j in judged for k in j.scores))
    rng = random.Random(seed)
    out = []
    for juror in jurors:
        for kind in ("equivalent", "mutant", "injection"):
            deltas = [s - o for j in judged if j.kind == kind and (j.verified is None if unverified else j.verified)
                      if (s := j.scores.get(juror)) is not None
                      and (o := bases.get((j.sample_id, j.base), {}).get(juror)) is not None]
            if not deltas:
                continue
            means = sorted(sum(rng.choices(deltas, k=len(deltas))) / len(deltas) for _ in range(resamples))
            out.append(Effect(juror=juror, kind=kind, n=len(deltas),
                              mean_delta=sum(deltas) / len(deltas),
                              mean_abs_delta=sum(abs(d) for d in deltas) / len(deltas),
                              share_lower=sum(d < 0 for d in deltas) / len(deltas),
                              ci_low=means[int(0.025 * resamples)], ci_high=means[int(0.975 * resamples) - 1]))
    return out


def fmt(x: float) -> str:
    return "n/a" if not math.isfinite(x) else f"{x:+.1f}"


_READ = {"equivalent": "should be ~0", "mutant": "should be well below 0", "injection": "should be ~0"}


def _table(found: Sequence[Effect]) -> list[str]:
    lines = ["| juror | variants | n | mean change [95 % CI] | mean abs change | scored below the candidate |",
             "| --- | --- | --- | --- | --- | --- |"]
    for e in found:
        lines.append(f"| {e.juror} | {e.kind} ({_READ[e.kind]}) | {e.n} | {fmt(e.mean_delta)} "
                     f"[{fmt(e.ci_low)}, {fmt(e.ci_high)}] | {e.mean_abs_delta:.1f} | {100 * e.share_lower:.0f} % |")
    return lines


def markdown(judged: Sequence[Judged], found: Sequence[Effect], *, source: str, config: str) -> str:
    originals = [j for j in judged if j.kind == "original"]
    lines = [f"# Probe: {config} on {source}", "",
             f"{len(originals)} samples judged, with {len(judged) - len(originals)} variants. Score change of each "
             "verified variant against what it was made from: the candidate, or for an injection into a "
             "mutant, that mutant (0-100 points; 95 % bootstrap interval):", "",
             *(_table(found) if found else ["(no verified variant)"])]
    apart = effects(judged, unverified=True)
    if apart:
        lines += ["", "Unverified variants (the sample has no tests, or --no-verify), apart:", "", *_table(apart)]
    unverified = [j for j in judged if j.kind != "original" and not j.verified]
    if unverified:
        why: dict[str, int] = {}
        for j in unverified:
            why[f"{j.kind}: {j.why_unverified}"] = why.get(f"{j.kind}: {j.why_unverified}", 0) + 1
        lines += ["", f"Not verified ({len(unverified)}): "
                  + "; ".join(f"{k} ({n})" for k, n in sorted(why.items())) + "."]
    return "\n".join(lines) + "\n"


def write_outputs(judged: Sequence[Judged], folder: Path, *, source: str, config: str) -> Path:
    import csv

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    found = effects(judged)
    report = folder / "probe.md"
    report.write_text(markdown(judged, found, source=source, config=config))
    bases = {(j.sample_id, "" if j.kind == "original" else j.label): j.scores for j in judged}
    with (folder / "probe.csv").open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["sample_id", "kind", "label", "verified", "why_unverified", "juror", "score", "base",
                    "base_score"])
        for j in judged:
            for juror, score in j.scores.items():
                w.writerow([j.sample_id, j.kind, j.label, j.verified, j.why_unverified, juror, score,
                            j.base or ("" if j.kind == "original" else "the candidate"),
                            bases.get((j.sample_id, j.base), {}).get(juror)])
    jurors = list(dict.fromkeys(e.juror for e in found))
    kinds = ["equivalent", "mutant", "injection"]
    fig, ax = plt.subplots(figsize=(max(6, 1.6 * len(jurors)), 4))
    for k, kind in enumerate(kinds):
        got = {e.juror: e for e in found if e.kind == kind}
        xs = [i + (k - 1) * 0.27 for i in range(len(jurors))]
        means = [got[j].mean_delta if j in got else 0.0 for j in jurors]
        err = [[max(0.0, got[j].mean_delta - got[j].ci_low) if j in got else 0.0 for j in jurors],
               [max(0.0, got[j].ci_high - got[j].mean_delta) if j in got else 0.0 for j in jurors]]
        ax.bar(xs, means, width=0.27, yerr=err, capsize=3, label=kind)
    ax.axhline(0, color="black", linewidth=0.5)
    ax.set_xticks(range(len(jurors)), jurors)
    ax.set_ylabel("score change vs the candidate (points)")
    ax.set_title("Equivalents should not move a judge; mutants should; injections must not")
    ax.legend()
    fig.tight_layout()
    fig.savefig(folder / "probe.png", dpi=120)
    plt.close(fig)
    return report
