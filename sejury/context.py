"""Run-scoped dependencies and settings, handed to every node as LangGraph's runtime context."""

from __future__ import annotations

import asyncio
import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

from sejury.cache import ResultCache
from sejury.errors import InputError, SandboxError
from sejury.llm import ChatClient, Reply
from sejury.sandbox.base import SandboxProvider
from sejury.sandbox.libraries import sample_profile
from sejury.schema import Sample, Scale, Strategy, TeamFile
from sejury.traces.store import TraceStore


@dataclass
class JudgeContext:
    llm: ChatClient
    team: TeamFile | list[Strategy] | None = None  # None: every strategy that applies
    scale: Scale | None = None
    cache: ResultCache | None = None
    sandbox: SandboxProvider | None = None
    execute: bool = False  # run S5's tests in the sandbox
    execution_weight: float = 0.75  # S5: share of the execution pass ratio in its score
    mutation_check: int = 0  # S5's valid tests also run on this many mutants of the reference (0: off)
    mutation_rounds: int = 1  # with mutation_check: rounds of new tests for a weak suite's survivors
    parse_retries: int = 1  # repair turns after a reply without a readable score
    traces: TraceStore | None = None  # every verdict's trace is stored here, under its judgment id
    # text steps (S4's analysis, S5's tests) asked and not answered yet, by prompt: the same prompt
    # for another candidate of the problem waits for that reply instead of asking again
    replies_in_flight: dict[str, asyncio.Future[Reply]] = field(default_factory=dict, repr=False)
    merge: Literal["evidence_first", "mean"] = "evidence_first"  # how the scores merge (``sejury.merge``)
    pass_mark: float = 50.0  # passed = score >= pass_mark
    evidence_pass: float = 100.0  # evidence first: the evidence mean that reaches the pass mark
    models: dict[str, ChatClient] = field(default_factory=dict)  # a multi-model jury's other models, by name
    _per_model: dict[str, JudgeContext] = field(default_factory=dict, repr=False)
    _per_profile: dict[str, JudgeContext] = field(default_factory=dict, repr=False)

    def for_model(self, name: str | None) -> JudgeContext:
        """The context a member asking the jury model ``name`` runs in (this one for None): the
        same run, with that model's client, so its calls and cache keys are that model's."""
        if name is None:
            return self
        if name not in self._per_model:
            if name not in self.models:
                raise InputError(f"no jury model named {name!r}: add --jury-model {name}=MODEL (or MODEL@URL)",
                                 field="jury_models")
            self._per_model[name] = dataclasses.replace(self, llm=self.models[name], _per_model={})
        return self._per_model[name]

    def for_sample(self, sample: Sample) -> JudgeContext:
        """The context a member judging ``sample`` runs in: with execution on, its sandbox is the
        image its code's libraries need (``sandbox/libraries.py``).  When that image is not built
        the base one runs it, and a missing library is reported as such."""
        if self.sandbox is None or not self.execute:
            return self
        profile = sample_profile(sample)
        if profile == self.sandbox.profile:
            return self
        if profile not in self._per_profile:
            try:
                sandbox = self.sandbox.for_profile(profile)
            except SandboxError:
                return self
            self._per_profile[profile] = dataclasses.replace(self, sandbox=sandbox, _per_model={}, _per_profile={})
        return self._per_profile[profile]

    def settings(self) -> dict[str, Any]:
        """The settings that shaped a judgment, stored with its trace (no secrets)."""
        team = self.team.strategies if isinstance(self.team, TeamFile) else self.team
        return {"model": self.llm.name, "team": [t.value for t in team] if team else None,
                "execute": self.execute,
                "merge": self.merge, "pass_mark": self.pass_mark,
                "scale": self.scale.model_dump() if self.scale else None,
                "sandbox": type(self.sandbox).__name__ if self.sandbox else None,
                "jury_models": {n: c.name for n, c in self.models.items()}}
