"""``sejury tests check``'s outputs: a markdown report, a CSV row per sample, a CSV row per
program run, and a histogram of the suites' mutation scores."""

from __future__ import annotations

import csv
import statistics
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from sejury.checks.suites import SuiteCheck

STATUSES = ("tells right from wrong", "weak", "not checked")


def markdown(checks: Sequence[SuiteCheck], *, source: str, n_mutants: int, min_score: float, seed: int) -> str:
    counts = Counter(c.status for c in checks)
    scores = [s for c in checks if (s := c.mutation_score) is not None]
    lines = [f"# Can the tests tell right from wrong? ({source})", "",
             f"{len(checks)} samples; up to {n_mutants} mutants each (seed {seed}); a suite is weak when the "
             f"reference fails a test, a dummy or the buggy program passes them all, or its mutation score "
             f"is below {min_score:.2f}.", "",
             "| verdict | samples |", "| --- | --- |",
             *(f"| {s} | {counts.get(s, 0)} |" for s in STATUSES), ""]
    if scores:
        lines += [f"Mutation score over {len(scores)} suites: mean {statistics.fmean(scores):.2f}, median "
                  f"{statistics.median(scores):.2f}, {sum(s == 1.0 for s in scores)} at 1.00.", ""]
    dummies = [r for c in checks for r in c.of_kind("dummy") if r.loaded]
    if dummies:
        passing = Counter(r.label for r in dummies if not r.caught)
        lines += [f"Dummies that load: {len(dummies)}; pass every test: {sum(passing.values())}"
                  + (f" ({', '.join(f'{k}: {n}' for k, n in passing.most_common())})" if passing else "") + ".", ""]
    weak = [c for c in checks if c.status != "tells right from wrong"]
    if weak:
        lines += ["## Samples to stop trusting (or to check by hand)", "",
                  "| sample | verdict | tests | mutation score | why | surviving mutants (first 3) |",
                  "| --- | --- | --- | --- | --- | --- |"]
        for c in weak:
            score = "-" if c.mutation_score is None else f"{c.mutation_score:.2f}"
            survivors = "; ".join([r.label.replace("|", "\\|") for r in c.survivors if r.kind == "mutant"][:3])
            why = "; ".join(c.problems).replace("|", "\\|")
            tests = f"{c.tests} ({c.dropped} failed on the reference, left out)" if c.dropped else str(c.tests)
            lines.append(f"| {c.sample_id} | {c.status} | {tests} | {score} | {why} | {survivors} |")
        lines.append("")
    return "\n".join(lines)


def write_outputs(checks: Sequence[SuiteCheck], folder: Path, *, source: str, n_mutants: int, min_score: float,
                  seed: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    report = folder / "tests-check.md"
    report.write_text(markdown(checks, source=source, n_mutants=n_mutants, min_score=min_score, seed=seed))
    with (folder / "tests-check.csv").open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["sample_id", "language", "verdict", "tests", "dropped", "reference_passed", "dummies",
                    "dummies_caught", "mutants_made", "mutants_run", "mutants_loaded", "mutants_killed",
                    "mutation_score", "why"])
        for c in checks:
            muts = c.of_kind("mutant")
            dums = [r for r in c.wrong if r.kind != "mutant"]
            ref = c.reference
            w.writerow([c.sample_id, c.language, c.status, c.tests, c.dropped, "" if ref is None else ref.passed,
                        len(dums), sum(r.caught for r in dums), c.mutants_made, len(muts),
                        sum(m.loaded for m in muts), sum(m.caught for m in muts),
                        "" if c.mutation_score is None else f"{c.mutation_score:.4f}", "; ".join(c.problems)])
    with (folder / "tests-check-runs.csv").open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["sample_id", "kind", "label", "loaded", "passed", "total", "caught"])
        for c in checks:
            for r in [*([c.reference] if c.reference else []), *c.wrong]:
                w.writerow([c.sample_id, r.kind, r.label, r.loaded, r.passed, r.total,
                            "" if r.kind == "reference" else r.caught])
    _plot(checks, folder / "mutation-scores.png", min_score)
    return report


def _plot(checks: Sequence[SuiteCheck], path: Path, min_score: float) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    scores = [s for c in checks if (s := c.mutation_score) is not None]
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.hist(scores, bins=[i / 10 for i in range(11)], color="#4c72b0", edgecolor="white")
    ax.axvline(min_score, color="#c44e52", linestyle="--", label=f"threshold {min_score:.2f}")
    ax.set_xlabel("mutation score of the suite (killed / mutants that load)")
    ax.set_ylabel("samples")
    ax.set_title(f"Mutation scores of {len(scores)} test suites")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
