"""The Python API: a ``Judge`` holds one compiled graph, one model client (one bound on in-flight
LLM calls), one cache; ``judge``/``ajudge``/``judge_many`` are thin conveniences over it.

>>> from sejury import Judge, Sample
>>> j = Judge()                       # the embedded model; Judge(model="openai:gpt-4o-mini") etc.
>>> v = j.judge(Sample(id="1", task="code_generation", problem="add a and b",
...                    candidate="def add(a, b): return a - b"))
>>> v.score, v.strategies["direct"].reasons
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Coroutine, Iterable, Sequence
from pathlib import Path
from typing import Any, Literal, TypeVar

from langchain_core.language_models import BaseChatModel

from sejury.cache import ResultCache
from sejury.errors import InputError
from sejury.graph.build import build_graph
from sejury.graph.context import JudgeContext
from sejury.llm import ChatClient
from sejury.models import ModelSettings, make_client
from sejury.models.embedded import cache_dir
from sejury.sandbox.base import SandboxProvider
from sejury.schema import Sample, Scale, Strategy, TeamFile, Verdict, parse_strategy

T = TypeVar("T")


def load_team_file(path: str | Path) -> TeamFile:
    p = Path(path)
    try:
        return TeamFile.model_validate_json(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError("no such team file", file=str(p)) from None
    except ValueError as exc:
        raise InputError(f"not a valid team file: {exc}", file=str(p)) from None


def _team(team: Sequence[str | Strategy] | TeamFile | str | Path | None) -> TeamFile | list[Strategy] | None:
    if team is None or isinstance(team, TeamFile):
        return team
    if isinstance(team, (str, Path)):
        text = str(team)
        if text.endswith(".json") or Path(text).is_file():
            return load_team_file(text)
        team = [t for t in text.split(",") if t.strip()]
    members = [t if isinstance(t, Strategy) else parse_strategy(t) for t in team]
    if len(set(members)) != len(members):
        raise InputError("a strategy is listed twice", field="team")
    return members


def as_sample(sample: Sample | dict[str, Any]) -> Sample:
    return sample if isinstance(sample, Sample) else Sample.model_validate(sample)


class Judge:
    """A configured judge.  Reuse one for many samples: nothing is rebuilt per sample."""

    def __init__(
        self,
        model: str | BaseChatModel | ChatClient = "embedded",
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        team: Sequence[str | Strategy] | TeamFile | str | Path | None = None,
        scale: Scale | str | None = None,
        cache: bool | str | Path = True,
        llm_concurrency: int | None = None,
        max_tokens: int = 384,
        parse_retries: int = 1,
        retry_attempts: int = 3,
        structured: bool | None = None,
        model_path: str | Path | None = None,
        timeout: float = 600.0,
        execute: bool = False,
        sandbox: SandboxProvider | None = None,
        sandbox_mode: Literal["warm", "oneshot"] = "warm",
        execution_weight: float = 0.75,
    ) -> None:
        if isinstance(model, ChatClient):
            client = model
        else:
            settings = ModelSettings(
                model=model if isinstance(model, str) else "custom", base_url=base_url, api_key=api_key,
                max_tokens=max_tokens, max_concurrency=llm_concurrency, structured=structured,
                model_path=Path(model_path) if model_path else None, timeout=timeout)
            client = make_client(settings, chat_model=model if isinstance(model, BaseChatModel) else None)
        self.cache: ResultCache | None = None
        if cache:
            path = Path(cache) if isinstance(cache, (str, Path)) else cache_dir() / "results.sqlite"
            self.cache = ResultCache(path)
        if execute and sandbox is None:
            from sejury.sandbox.docker import DockerSandbox

            sandbox = DockerSandbox(mode=sandbox_mode)  # says clearly if the engine or image is missing
        if not 0 <= execution_weight <= 1:
            raise InputError("must be between 0 and 1", field="execution_weight")
        self.sandbox = sandbox
        self.context = JudgeContext(
            llm=client, team=_team(team), scale=Scale.parse(scale) if isinstance(scale, str) else scale,
            cache=self.cache, parse_retries=parse_retries, sandbox=sandbox, execute=execute,
            execution_weight=execution_weight)
        self.graph = build_graph(self.context, retry_attempts=retry_attempts)

    @property
    def llm(self) -> ChatClient:
        return self.context.llm

    async def ajudge(self, sample: Sample | dict[str, Any], *,
                     team: Sequence[str | Strategy] | None = None) -> Verdict:
        s = as_sample(sample)
        override = _team(list(team)) if team else None
        state: dict[str, Any] = {"sample": s}
        if isinstance(override, list):
            state["team"] = override
        out = await self.graph.ainvoke(state)
        verdict: Verdict = out["verdict"]
        return verdict

    def judge(self, sample: Sample | dict[str, Any], *,
              team: Sequence[str | Strategy] | None = None) -> Verdict:
        return run_sync(self.ajudge(sample, team=team))

    async def ajudge_many(self, samples: Iterable[Sample | dict[str, Any]], *, concurrency: int = 4,
                          ) -> AsyncIterator[tuple[int, Verdict | BaseException]]:
        """Judge samples concurrently, yielding ``(index, verdict or error)`` as each finishes.

        ``concurrency`` bounds samples in flight; LLM calls are bounded separately by the client.
        An error in one sample is yielded, never raised, so the others go on."""
        if concurrency < 1:
            raise ValueError("concurrency must be >= 1")
        queue: asyncio.Queue[tuple[int, Verdict | BaseException]] = asyncio.Queue()
        sem = asyncio.Semaphore(concurrency)

        async def one(i: int, sample: Sample | dict[str, Any]) -> None:
            async with sem:
                try:
                    await queue.put((i, await self.ajudge(sample)))
                except Exception as exc:
                    await queue.put((i, exc))

        items = list(samples)
        tasks = [asyncio.create_task(one(i, s)) for i, s in enumerate(items)]
        try:
            for _ in items:
                yield await queue.get()
        finally:
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    def judge_many(self, samples: Iterable[Sample | dict[str, Any]], *, concurrency: int = 4,
                   ) -> list[Verdict | BaseException]:
        async def collect() -> list[Verdict | BaseException]:
            items = list(samples)
            out: list[Verdict | BaseException | None] = [None] * len(items)
            async for i, v in self.ajudge_many(items, concurrency=concurrency):
                out[i] = v
            return [v for v in out if v is not None]

        return run_sync(collect())

    def close(self) -> None:
        if self.sandbox is not None:
            run_sync(self.sandbox.close())
        if self.cache is not None:
            self.cache.close()


# --- module-level conveniences: one Judge per distinct configuration, reused across calls ---

_JUDGES: dict[str, Judge] = {}
_JUDGES_LOCK = threading.Lock()


def _shared_judge(kwargs: dict[str, Any]) -> Judge:
    key = repr(sorted(kwargs.items()))
    with _JUDGES_LOCK:
        if key not in _JUDGES:
            _JUDGES[key] = Judge(**kwargs)
        return _JUDGES[key]


def judge(sample: Sample | dict[str, Any], **kwargs: Any) -> Verdict:
    """Judge one sample (blocking).  Keyword arguments are ``Judge``'s."""
    return _shared_judge(kwargs).judge(sample)


async def ajudge(sample: Sample | dict[str, Any], **kwargs: Any) -> Verdict:
    return await _shared_judge(kwargs).ajudge(sample)


def judge_many(samples: Iterable[Sample | dict[str, Any]], *, concurrency: int = 4,
               **kwargs: Any) -> list[Verdict | BaseException]:
    return _shared_judge(kwargs).judge_many(samples, concurrency=concurrency)


# --- a long-lived event loop for the blocking API: model clients keep connections bound to a
# loop, so every sync call runs on the same one (and works inside Jupyter's running loop too).

_LOOP: asyncio.AbstractEventLoop | None = None
_LOOP_LOCK = threading.Lock()


def _loop() -> asyncio.AbstractEventLoop:
    global _LOOP
    with _LOOP_LOCK:
        if _LOOP is None or _LOOP.is_closed():
            _LOOP = asyncio.new_event_loop()
            threading.Thread(target=_LOOP.run_forever, name="sejury-loop", daemon=True).start()
        return _LOOP


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run_coroutine_threadsafe(coro, _loop()).result()
