"""The reference's runs are shared (``execution/reference.py``): judging another candidate of the
same sample on the same sandbox, or several side by side, runs each suite on the reference once;
the candidates' runs are their own.  On ``LocalSandbox`` (the Python harness as a local process)."""

from __future__ import annotations

import asyncio

from sejury import Judge
from sejury.execution.reference import run_reference_program
from sejury.execution.runner import split_tests
from sejury.sandbox.base import ExecResult, ExecStatus
from tests.helpers.fakes import ScriptedChatModel
from tests.helpers.trace_helpers import EXEC_SAMPLE, LocalSandbox, exec_script

REFERENCE = EXEC_SAMPLE.reference or ""
RIGHT = "def add(a, b):\n    return b + a\n"
SUITE = split_tests("python", "assert add(1, 2) == 3\nassert add(2, 2) == 5\n")


class Counting(LocalSandbox):
    """Counts its runs, by the program they ran (the reference or not)."""

    def __init__(self, status: ExecStatus | None = None) -> None:
        self.runs: list[bool] = []  # one per run: did it run the reference
        self.status = status  # a status to report instead of the run's own (a busy machine's timeout)

    async def run(self, files: dict[str, str], command: str, *, timeout: float) -> ExecResult:
        self.runs.append(any(REFERENCE in text for text in files.values()))
        got = await super().run(files, command, timeout=timeout)
        return got if self.status is None else got.model_copy(update={"status": self.status})


async def test_a_reference_run_asked_for_again_is_not_run_again() -> None:
    box = Counting()
    first = await run_reference_program(box, "python", REFERENCE, SUITE)
    again = await run_reference_program(box, "python", REFERENCE, SUITE)
    assert len(box.runs) == 1 and first[0].passed == again[0].passed == [True, False]
    again[0].passed[0] = False  # a copy: what one caller does to its report is its own
    assert (await run_reference_program(box, "python", REFERENCE, SUITE))[0].passed == [True, False]
    # another time limit, another suite, another program: each a run of its own
    await run_reference_program(box, "python", REFERENCE, SUITE, timeout=7)
    await run_reference_program(box, "python", REFERENCE, split_tests("python", "assert add(0, 0) == 0\n"))
    await run_reference_program(box, "python", RIGHT, SUITE)
    assert len(box.runs) == 4
    other = Counting()  # another sandbox runs it again
    await run_reference_program(other, "python", REFERENCE, SUITE)
    assert len(other.runs) == 1


async def test_the_same_reference_run_asked_for_side_by_side_runs_once() -> None:
    box = Counting()
    got = await asyncio.gather(*(run_reference_program(box, "python", REFERENCE, SUITE) for _ in range(4)))
    assert len(box.runs) == 1 and all(r[0].passed == [True, False] for r in got)


async def test_a_run_that_did_not_end_normally_is_run_again() -> None:
    box = Counting(status=ExecStatus.TIMEOUT)  # as a busy machine's run that timed out
    await run_reference_program(box, "python", REFERENCE, SUITE)
    await run_reference_program(box, "python", REFERENCE, SUITE)
    assert len(box.runs) == 2


def _judge(box: Counting) -> Judge:
    return Judge(ScriptedChatModel(script=exec_script), team="generate_tests,test_pass,sample_tests", cache=False,
                 traces=False, execute=True, sandbox=box)


async def test_judging_another_candidate_of_a_sample_runs_only_the_candidate() -> None:
    box = Counting()
    wrong = await _judge(box).ajudge(EXEC_SAMPLE)
    assert sum(box.runs) == 2 and len(box.runs) > 2  # the sample's tests and S5's on the reference, then the candidate
    box.runs.clear()
    right = await _judge(box).ajudge(EXEC_SAMPLE.model_copy(update={"candidate": RIGHT}))
    assert box.runs and not any(box.runs)  # the candidate's runs only
    assert right.strategies["sample_tests"].score == 100 and wrong.strategies["sample_tests"].score == 50
    assert right.strategies["test_pass"].score == 100 and wrong.strategies["test_pass"].score == 50


async def test_candidates_judged_side_by_side_share_the_reference_runs() -> None:
    box = Counting()
    await asyncio.gather(*(_judge(box).ajudge(EXEC_SAMPLE.model_copy(update={"candidate": c}))
                           for c in (EXEC_SAMPLE.candidate, RIGHT)))
    assert sum(box.runs) == 2 and len(box.runs) > 2  # as many reference runs as one judgment makes
