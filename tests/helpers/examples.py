"""The bundled examples of a test form (``examples/<folder>/<stem>_right.json`` and ``_wrong.json``),
judged by Sample-tests alone: no model call, a Docker sandbox of its own."""

from __future__ import annotations

import json

from sejury import Judge, Sample, Verdict
from sejury.sandbox.docker import DockerSandbox
from tests.helpers.paths import EXAMPLES


def example(folder: str, stem: str, which: str) -> Sample:
    return Sample.model_validate(json.loads((EXAMPLES / folder / f"{stem}_{which}.json").read_text()))


async def judge_pair(folder: str, stem: str) -> dict[str, Verdict]:
    """The right and the wrong candidate's verdicts, by ``"right"`` and ``"wrong"``."""
    sandbox = DockerSandbox(size=1)
    try:
        judge = Judge(team="Sample-tests", cache=False, traces=False, execute=True, sandbox=sandbox)
        return {which: await judge.ajudge(example(folder, stem, which)) for which in ("right", "wrong")}
    finally:
        await sandbox.close()
