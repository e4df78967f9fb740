"""A verdict's own mutation check (``--mutation-check N``): S5's valid tests, run on N one-bug
mutants of the reference (the operators of ``sejury tests check``), should fail on most of them.
A suite that lets most mutants through passes wrong code too, and S5-exec's score on it is weak
evidence: the verdict records the mutation score, and the agent's review policy flags it."""

from __future__ import annotations

import asyncio
import difflib

from sejury.execution.evidence import MutationRun
from sejury.execution.languages import Suite
from sejury.execution.languages._parse_guard import TooCostly
from sejury.execution.mutants import Mutant, changed_lines, draw, mutants, region_of
from sejury.execution.runner import run_suite
from sejury.sandbox.base import SandboxProvider

MAX_SURVIVORS_SHOWN = 3
WEAK_SUITE = 0.75  # a suite killing fewer of the reference's mutants is weak: a second round, a review flag


async def mutation_check(provider: SandboxProvider, language: str, program: str, reference: str, suite: Suite,
                         n: int, *, seed: int = 0, buggy: str | None = None,
                         ) -> tuple[MutationRun | None, list[Mutant]]:
    """Run ``suite`` on ``n`` mutants of the reference's own code in ``program`` (for a patch, of the
    lines it wrote into ``buggy``): the record and the mutants that survived; None when the language
    has no mutant operators, the reference cannot be found in the program, or the program is a text
    tree-sitter cannot read within the judge's limits (``_parse_guard``)."""
    if buggy is not None:
        spans = changed_lines(buggy, program)
    else:
        region = region_of(program, reference)
        if region is None:
            return None, []
        spans = [region]
    try:
        every = mutants(language, program, spans) if spans else []
    except TooCostly:  # a text tree-sitter cannot read within the limits: no mutants, as for no operators
        return None, []
    drawn = draw(every, n, seed)
    if not drawn:
        return MutationRun(made=len(every), run=0, killed=0), []
    reports = await asyncio.gather(*(run_suite(provider, language, m.program, suite) for m in drawn))
    loaded = [(m, r) for m, r in zip(drawn, reports, strict=True) if r.loaded]
    survivors = [m for m, r in loaded if all(r.passed)]
    killed = len(loaded) - len(survivors)
    return MutationRun(made=len(every), run=len(loaded), killed=killed,
                       score=killed / len(loaded) if loaded else None,
                       survivors=[m.label for m in survivors[:MAX_SURVIVORS_SHOWN]]), survivors


async def still_surviving(provider: SandboxProvider, language: str, survivors: list[Mutant], suite: Suite,
                          ) -> list[Mutant]:
    """The survivors that ``suite`` (new tests) does not kill either."""
    if not suite.units or not survivors:
        return survivors
    reports = await asyncio.gather(*(run_suite(provider, language, m.program, suite) for m in survivors))
    return [m for m, r in zip(survivors, reports, strict=True) if not r.loaded or all(r.passed)]


def change_shown(program: str, mutant: Mutant, context: int = 2) -> str:
    """The mutant's change as a diff of the program: ``-`` the reference's line, ``+`` the changed one."""
    lines = difflib.unified_diff(program.splitlines(), mutant.program.splitlines(), lineterm="", n=context)
    return "\n".join(ln for ln in lines if not ln.startswith(("---", "+++", "@@")))
