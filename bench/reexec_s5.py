"""Re-run the tests S5 wrote, as recorded in `bench/exec_agreement.py`'s run files, under the
current runners: S5-exec and S5-diff against the benchmark's outcomes with the model's tests held
fixed, so a change to the harness is measured apart from the model's sampling (no model call).
S5-runs, which reads the same execution, is re-scored too, and with ``--fuzz`` S5-fuzz is re-run
(its mutations of the same tests' literal calls); ``bench/merge_compare.py --rerun`` splices them in.

    .venv/bin/python bench/reexec_s5.py [--runs bench-runs/exec19] [--langs java] [--n 20] [--seed 11]
                                        [--out bench-runs/reexec] [--unsealed] [--every-test] [--fuzz]

``--every-test``: keep the tests that call the function outside the domain the problem's examples
show (``sejury/execution/domain.py``), as before that rule.

``--unsealed``: Python and JavaScript run their tests in the program's own process, as before the
sealed harness (the same tests, the same rows): the two runs side by side show what sealing changes
for honest candidates.

Writes ``<out>/exec-<language>.jsonl`` (the jurors' scores and reasons per sample, in the
verdict shape `exec_agreement.report` reads) and prints the same table as `exec_agreement.py`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from exec_agreement import JURORS, TABLE_HEAD, draw, report

from sejury.checks.suites import s5_suites
from sejury.errors import SandboxError
from sejury.execution.differential import recorded_function, states_raises
from sejury.execution.domain import Domain
from sejury.execution.evidence import check_on_reference, load_alone, reference_failed, run_on_candidate, worth_running
from sejury.execution.patching import PatchError
from sejury.execution.programs import programs
from sejury.sandbox.base import SandboxProvider
from sejury.sandbox.docker import DockerSandbox
from sejury.sandbox.libraries import sample_profile
from sejury.schema import Sample, Status, Strategy, StrategyResult
from sejury.strategies import executability, test_diff, test_fuzz, test_pass
from sejury.strategies._calls import Recorder


async def rerun(sandbox: SandboxProvider, sample: Sample, tests: str, every_test: bool = False,
                fuzz: bool = False) -> dict[str, Any]:
    """The jurors' results as S5's execution makes them (``generate_tests._validate`` then its
    ``execute``), minus the model's prediction and the sample's own tests: S5-exec, S5-diff and
    S5-runs, which read that execution; with ``fuzz``, S5-fuzz too (its own runs)."""
    def unscored(why: str) -> dict[str, Any]:
        return {name: {"score": None, "detail": f"S5's tests did not run: {why}"}
                for name in ("test_pass", "test_diff", "executability")}

    try:
        reference, candidate, why_not = programs(sample.task.value, sample.language, sample.problem,
                                                 sample.reference or "", sample.candidate, sample.metadata)
    except PatchError as exc:
        return unscored(str(exc))
    with contextlib.suppress(SandboxError):  # the image the code's libraries need, as a judgment picks it
        sandbox = sandbox.for_profile(sample_profile(sample))
    function = recorded_function(sample.problem)
    domain = None if every_test else Domain.of(sample.problem, function, sample.language)
    ex, valid, probe = await check_on_reference(sandbox, sample.language, reference, tests, record=function,
                                                typed_raises=states_raises(sample.problem), domain=domain)
    if candidate is not None and reference_failed(ex):  # no test validated; does the candidate's own text compile?
        alone = await load_alone(sandbox, ex, candidate)
        return unscored(ex.reason) | {"generate_tests": {"against": alone.against()}}
    if not worth_running(ex, probe):
        return unscored(ex.reason)
    done = await run_on_candidate(sandbox, ex, valid, candidate, why_not, probe)
    # scored by the jurors' own code, fed S5's execution as the graph feeds it
    feed = StrategyResult(strategy=Strategy("generate_tests"), status=Status.SCORED,
                          artifacts={"execution": done.model_dump()})
    out = {}
    for name, juror in (("test_pass", test_pass), ("test_diff", test_diff), ("executability", executability)):
        got = await juror.run(sample, None, None, feed)  # none of them reads ctx or rec
        out[name] = {"score": got.parsed.score if got.parsed else None, "detail": got.detail or ""}
        if "edge_only" in got.artifacts:  # what review reads (``review._edge_only``)
            out[name]["artifacts"] = {"edge_only": got.artifacts["edge_only"]}
    # S5's definitive evidence and its execution record, as the judged run carries them (review reads both)
    out["generate_tests"] = {"against": done.against(), "artifacts": {"execution": done.model_dump()}}
    if fuzz:  # S5-fuzz: the same tests' literal calls, mutated, answered by the reference then the candidate
        s5 = StrategyResult(strategy=Strategy("generate_tests"), status=Status.SCORED, artifacts={"tests": tests})
        got = await test_fuzz.run(sample, SimpleNamespace(sandbox=sandbox), Recorder(Strategy("test_fuzz")), s5)
        out["test_fuzz"] = {"score": got.parsed.score if got.parsed else None, "detail": got.detail or ""}
    return out


def mean_of(jurors: dict[str, Any]) -> float | None:
    """The verdict's score for the "mean of both" row: the plain mean of S5-exec and S5-diff where
    they scored (the run's mutation weights are not recomputed here)."""
    scores = [float(j["score"]) for n, j in jurors.items() if n in JURORS and j.get("score") is not None]
    return sum(scores) / len(scores) if scores else None


def unseal_languages() -> None:
    """Python's and JavaScript's harnesses as before sealing (the tests in the program's process)."""
    import dataclasses

    from sejury.execution import languages
    from sejury.execution.languages import javascript, python

    for module in (python, javascript):
        languages.unregister(module.LANGUAGE.name)  # the registry refuses another object under a held name
        languages.register(dataclasses.replace(module.LANGUAGE, harness=module.unsealed_harness))


async def main(args: argparse.Namespace) -> None:
    if args.unsealed:
        unseal_languages()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    sandbox = DockerSandbox(size=2)
    rows = []
    try:
        for language in args.langs.split(","):
            samples = draw(Path(args.data), language, args.n, args.seed)
            written = s5_suites(Path(args.runs) / f"exec-{language}.jsonl")
            path = out / f"exec-{language}.jsonl"
            with path.open("w") as fh:
                for s in samples:
                    jurors = (await rerun(sandbox, s, written[s.id], args.every_test, args.fuzz)
                              if s.id in written else {})
                    fh.write(json.dumps({"sample_id": s.id, "strategies": jurors, "score": mean_of(jurors)}) + "\n")
            rows += [report(language, samples, path, juror, {**JURORS, "mean": "mean of both"}) for juror in JURORS]
    finally:
        await sandbox.close()
    print(f"\n## S5's recorded tests re-run under the current runners ({args.runs}, {args.n} rows per set, "
          f"seed {args.seed})\n")
    print(TABLE_HEAD)
    print("\n".join(rows))


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", default="bench-runs/exec19")
    ap.add_argument("--langs", default="java")
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--out", default="bench-runs/reexec")
    ap.add_argument("--data", default=str(Path(__file__).resolve().parent.parent.parent / "shared" / "data"))
    ap.add_argument("--unsealed", action="store_true", help="Python and JavaScript as before sealing")
    ap.add_argument("--fuzz", action="store_true", help="re-run S5-fuzz too (it runs the mutated calls itself)")
    ap.add_argument("--every-test", action="store_true", help="keep the tests outside the problem's domain "
                    "(as before the domain rule)")
    asyncio.run(main(ap.parse_args()))
