"""Run-scoped dependencies and settings, handed to every node as LangGraph's runtime context."""

from __future__ import annotations

from dataclasses import dataclass

from sejury.cache import ResultCache
from sejury.llm import ChatClient
from sejury.sandbox.base import Sandbox
from sejury.schema import Scale, Strategy, TeamFile


@dataclass
class JudgeContext:
    llm: ChatClient
    team: TeamFile | list[Strategy] | None = None  # None: every strategy that applies
    scale: Scale | None = None
    cache: ResultCache | None = None
    sandbox: Sandbox | None = None
    execute: bool = False  # run S5's tests in the sandbox (needs a sandbox backend)
    parse_retries: int = 1  # repair turns after a reply without a readable score
