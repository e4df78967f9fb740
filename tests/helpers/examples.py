"""The bundled examples of a test form (``examples/<folder>/<stem>_right.json`` and ``_wrong.json``),
judged by Sample-tests alone: no model call, a Docker sandbox of its own."""

from __future__ import annotations

import json

from sejury import Judge, Sample, Verdict
from sejury.sandbox.docker import DockerSandbox
from tests.helpers.paths import EXAMPLES


def example(folder: str, stem: str, which: str) -> Sample:
    return Sample.model_validate(json.loads((EXAMPLES / folder / f"{stem}_{which}.json").read_text()))


async def judge_samples(*samples: Sample) -> list[Verdict]:
    """Each sample's verdict by Sample-tests alone, in order, in a Docker sandbox of their own."""
    sandbox = DockerSandbox(size=1)
    try:
        judge = Judge(team="Sample-tests", cache=False, traces=False, execute=True, sandbox=sandbox)
        return [await judge.ajudge(sample) for sample in samples]
    finally:
        await sandbox.close()


async def judge_pair(folder: str, stem: str) -> dict[str, Verdict]:
    """The right and the wrong candidate's verdicts, by ``"right"`` and ``"wrong"``."""
    right, wrong = await judge_samples(*(example(folder, stem, which) for which in ("right", "wrong")))
    return {"right": right, "wrong": wrong}


async def judge_wrong_and_right(language: str, problem: str, tests: str, *, right: str, wrong: str,
                                sample_id: str) -> tuple[Verdict, Verdict]:
    """A sample of ``tests`` whose reference is ``right``, judged with the ``wrong`` candidate and
    with the right one: (the wrong one's verdict, the right one's)."""
    sample = Sample(id=sample_id, task="code_generation", language=language, problem=problem,
                    candidate=wrong, reference=right, tests=tests)
    wrong_verdict, right_verdict = await judge_samples(sample, sample.model_copy(update={"candidate": right}))
    return wrong_verdict, right_verdict
