"""Judgments to store and view in the trace tests: a real ``Judge`` run with the scripted fake
model (tests only, never the demo), with and without executed tests.

``LocalSandbox`` is a test-only fake: it runs the Python harness as a local subprocess, with no
isolation at all, so it only ever runs the tiny programs written below.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage

from sejury import Judge, Sample
from sejury.sandbox.base import ExecResult, ExecStatus, Sandbox, SandboxProvider
from sejury.schema import Verdict
from sejury.traces.store import new_judgment_id
from tests.helpers.fakes import GOOD_REPLIES, ScriptedChatModel, step_of


class _LocalBox(Sandbox):
    async def run(self, files: dict[str, str], command: str, *, timeout: float) -> ExecResult:
        with tempfile.TemporaryDirectory(prefix="sejury-test-box-") as work:
            for name, text in files.items():
                (Path(work) / name).write_text(text, encoding="utf-8")
            started = time.perf_counter()
            proc = await asyncio.create_subprocess_shell(
                command, cwd=work, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
                env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")})
            try:
                out, err = await asyncio.wait_for(proc.communicate(), timeout)
            except TimeoutError:
                proc.kill()
                await proc.wait()
                return ExecResult(status=ExecStatus.TIMEOUT, exit_code=None, seconds=timeout)
            status = ExecStatus.OK if proc.returncode == 0 else ExecStatus.FAILED
            return ExecResult(status=status, exit_code=proc.returncode, stdout=out.decode(errors="replace"),
                              stderr=err.decode(errors="replace"), seconds=time.perf_counter() - started)


class LocalSandbox(SandboxProvider):
    name = "local-test"
    isolation = "none: a local subprocess (test fake)"

    @asynccontextmanager
    async def _box(self) -> AsyncIterator[Sandbox]:
        yield _LocalBox()

    def acquire(self) -> Any:
        return self._box()


HOSTILE = '</pre><script>alert("x")</script><img src="https://evil.example/x.png"> [bold red]markup[/]'

# a candidate that is wrong for negative a; one generated test is itself wrong (fails on the reference)
EXEC_SAMPLE = Sample(
    id="add-exec", task="code_generation", language="python",
    problem="Write add(a, b) returning the sum of a and b.",
    candidate="def add(a, b):\n    return a + b if a >= 0 else a - b\n",
    reference="def add(a, b):\n    return a + b\n",
    tests="assert add(2, 3) == 5\nassert add(-2, 2) == 0\n")

WRITTEN_TESTS = "```python\nassert add(1, 2) == 3\nassert add(-1, 1) == 0\nassert add(2, 2) == 5\n```"


def exec_script(messages: list[BaseMessage]) -> str:
    step = step_of(messages)
    if step == "write_tests":
        return WRITTEN_TESTS
    if step == "predict":
        return "Checks:\n- assert add(1, 2) == 3: PASS\n- assert add(-1, 1) == 0: FAIL\nScore: 50"
    return GOOD_REPLIES[step]


def hostile_script(messages: list[BaseMessage]) -> str:
    step = step_of(messages)
    if step == "direct":
        return f"Reasons:\n- {HOSTILE}\nScore: 30"
    return GOOD_REPLIES[step]


def judge_once(sample: Sample, *, script: Any, execute: bool = False, team: str | None = None) -> Verdict:
    """One real judgment (the graph, the strategies, the merge) on the scripted fake model."""
    settings: dict[str, Any] = {"cache": False, "traces": False}
    if execute:
        settings["execute"] = True
    if team:
        settings["team"] = team
    judge = Judge(ScriptedChatModel(script=script), sandbox=LocalSandbox() if execute else None, **settings)
    try:
        verdict = judge.judge(sample)
    finally:
        judge.close()
    if verdict.judgment_id is None:  # a Judge gives every verdict one; kept working without it
        verdict = verdict.model_copy(update={"judgment_id": new_judgment_id()})
    return verdict


def exec_verdict() -> tuple[Sample, Verdict]:
    """S1, S5 with its tests executed, S5-exec and the sample's own tests."""
    return EXEC_SAMPLE, judge_once(EXEC_SAMPLE, script=exec_script, execute=True,
                                   team="direct,generate_tests,test_pass,sample_tests")


def hostile_verdict() -> tuple[Sample, Verdict]:
    sample = Sample(id=f"evil-{HOSTILE}", task="code_generation", language="python",
                    problem=f"Write add(a, b). @import url(https://evil.example/a.css); {HOSTILE}",
                    candidate=f"def add(a, b):\n    return a + b  # {HOSTILE}\n",
                    reference="def add(a, b):\n    return a + b\n")
    return sample, judge_once(sample, script=hostile_script)
