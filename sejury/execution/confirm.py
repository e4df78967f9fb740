"""A second run of the units the sealed harness failed, with the tests in the program's own process.

The sealed harness cannot run every test a user writes (a program's class constructed, a type its
stubs do not declare): such a test fails on every program, right ones too.  With a reference the
test fails there and is dropped; without one nothing else tells it from the candidate's failure.
So, for a sample's own tests with no reference, the units it failed run again as the user's own
runner has them (the language's ``plain_harness``).  The candidate can forge a pass in that run,
never a failure it would want: a unit failing there is the candidate's failure (definitive), and
one passing there is only *not confirmed* (``SuiteRun.unconfirmed``: it still counts as failed,
and the verdict needs review).
"""

from __future__ import annotations

import dataclasses

from sejury.execution.languages import Suite
from sejury.execution.runner import RunReport, run_plain
from sejury.sandbox.base import SandboxProvider

Plain = dict[int, tuple[bool, str]]  # a plain run's outcome (passed, why) of each unit it ran, by index


async def confirm_failures(provider: SandboxProvider, language: str, candidate: str, valid: Suite,
                           report: RunReport) -> Plain | None:
    """The units of ``report`` that failed, run again on the plain harness: their outcomes there by
    index.  None: nothing to confirm, no plain harness, tampering seen, or the plain run did not load
    the program (then it says nothing)."""
    failed = [i for i, ok in enumerate(report.passed) if not ok]
    if not failed or not report.loaded or report.tampering:
        return None
    again = await run_plain(provider, language, candidate,
                            dataclasses.replace(valid, units=[valid.units[i] for i in failed]))
    if again is None or not again.loaded:
        return None
    return {i: (ok, why) for i, ok, why in zip(failed, again.passed, again.reasons, strict=True)}
