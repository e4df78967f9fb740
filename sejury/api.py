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
from collections.abc import AsyncIterator, Callable, Collection, Coroutine, Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import Runnable

from sejury.cache import ResultCache
from sejury.config import JudgeConfig, judge_config, load_team_file, missing_model, parse_team
from sejury.context import JudgeContext
from sejury.execution.languages import canonical_language
from sejury.graph.build import build_graph
from sejury.io import RunFile
from sejury.llm import ChatClient, sample_rank, set_repeat
from sejury.models import ModelSettings, make_client
from sejury.rank.records import Ranking

if TYPE_CHECKING:  # the agent tools and the dry run's estimate load when used (~30 ms a judging run need not spend)
    from langchain_core.tools import StructuredTool

    from sejury.agent import Feedback, ReviewPolicy
    from sejury.estimate import RunEstimate
    from sejury.rank.compare import Comparison
from sejury.sandbox.base import SandboxProvider
from sejury.schema import Sample, Strategy, TeamFile, Verdict
from sejury.strategies import Kind, spec
from sejury.traces.store import TraceStore, default_trace_path

__all__ = ["Judge", "JudgeConfig", "ajudge", "as_sample", "judge", "judge_many", "load_team_file", "run_sync"]

T = TypeVar("T")


def makes_no_model_call(team: TeamFile | list[Strategy] | None) -> bool:
    """Whether every member of a configured team, and whatever feeds it, judges without the model
    (Ex-fuzz, the sample's own tests, the metrics): then the model is started only if a call comes."""
    members = team.strategies if isinstance(team, TeamFile) else team
    return bool(members) and all(
        spec(m).kind is not Kind.LLM and spec(m).llm_calls == 0 and not spec(m).feeders for m in members or [])


def as_sample(sample: Sample | dict[str, Any]) -> Sample:
    return sample if isinstance(sample, Sample) else Sample.model_validate(sample)


class Judge:
    """A configured judge.  Reuse one for many samples: nothing is rebuilt per sample.

    Settings are ``JudgeConfig``'s fields, given as keywords (``Judge(team="S1,S3", execute=True)``)
    or as a ``JudgeConfig`` (``config=``, or first); ``model`` may also be any LangChain chat model or
    a ready ``ChatClient``, and ``sandbox`` any ``SandboxProvider`` (default: Docker, when ``execute``)."""

    def __init__(self, model: str | BaseChatModel | ChatClient | JudgeConfig | None = None, *,
                 config: JudgeConfig | None = None, sandbox: SandboxProvider | None = None,
                 **settings: Any) -> None:
        model, cfg = judge_config(model, config, settings)
        if model is not None and not isinstance(model, (str, BaseChatModel, ChatClient)):
            raise TypeError(f"Judge's model is a name, a LangChain chat model or a ChatClient, not "
                            f"{type(model).__name__}")
        self.config = cfg
        if isinstance(model, ChatClient):
            client = model
        else:
            ms = ModelSettings.of(cfg, custom=isinstance(model, BaseChatModel))
            client = make_client(ms, chat_model=model if isinstance(model, BaseChatModel) else None,
                                 lazy=makes_no_model_call(cfg.team))
        self.cache: ResultCache | None = None
        if cfg.cache:
            self.cache = ResultCache(cfg.results_path())
        if cfg.execute and sandbox is None:
            from sejury.sandbox.docker import DockerSandbox

            sandbox = DockerSandbox(mode=cfg.sandbox_mode)  # says clearly if the engine or image is missing
        self.sandbox = sandbox
        self.traces: TraceStore | None = None
        if cfg.traces:
            self.traces = TraceStore(cfg.trace_path or default_trace_path())
        self.context = JudgeContext(
            llm=client, team=cfg.team, scale=cfg.scale, cache=self.cache, parse_retries=cfg.parse_retries,
            sandbox=sandbox, execute=cfg.execute, execution_weight=cfg.execution_weight,
            mutation_check=cfg.mutation_check, mutation_rounds=cfg.mutation_rounds,
            traces=self.traces, merge=cfg.effective_merge(), pass_mark=cfg.effective_pass_mark(),
            evidence_pass=cfg.evidence_pass, models={n: make_client(s) for n, s in ModelSettings.jury(cfg).items()})
        self.graph = build_graph(self.context, retry_attempts=cfg.retry_attempts)
        self._nodes = {s.value for s in Strategy}  # a juror registered later (S1@second) needs a new graph

    @property
    def llm(self) -> ChatClient:
        return self.context.llm

    async def ajudge(self, sample: Sample | dict[str, Any], *,
                     team: Sequence[str | Strategy] | None = None, repeat: int | None = None) -> Verdict:
        """``repeat``: which of several judgments of the same sample this is (``Verdict.repeat``);
        repeat r samples with the model's seed + r and has cache entries of its own (r = 0 shares
        the ordinary judgment's).  Repeats differ only when the model samples (``temperature`` > 0)."""
        s = as_sample(sample)
        sample_rank()  # its calls go before those of judgments begun later
        set_repeat(repeat)
        override = parse_team(list(team)) if team else None
        if isinstance(override, list):
            missing_model(override, self.config.jury_models)
            if any(m.value not in self._nodes for m in override):
                self.graph = build_graph(self.context, retry_attempts=self.config.retry_attempts)
                self._nodes = {s.value for s in Strategy}
        state: dict[str, Any] = {"sample": s}
        if isinstance(override, list):
            state["team"] = override
        out = await self.graph.ainvoke(state)
        verdict: Verdict = out["verdict"]
        return verdict

    async def arank(self, problem: str, candidates: Sequence[str], *, language: str = "python",
                    reference: str | None = None, tests: str | None = None, problem_id: str = "problem",
                    ids: Sequence[str | None] | None = None, tie_break: str = "none", form: str | None = None,
                    ) -> Ranking:
        """Order several attempts at one problem, best first, and choose one (``sejury.rank``). Tests are written
        once for the problem and run, with its example inputs, on every attempt in the sandbox; with ``reference``
        they are validated on it, without one the attempts are scored by their agreement (CodeT's dual agreement).
        ``tests``: the user's own tests, which come first.  ``tie_break="model"``: where attempts that behave
        differently share the top score, the model chooses between them, asked in both orders
        (``sejury.rank.tiebreak``; off by default until measured).  ``form="stdio"``: the attempts are programs that
        read stdin and print (found as judging finds them when not given).  Needs the sandbox (``execute=True``)."""
        from sejury.errors import InputError
        from sejury.rank.evidence import Problem, rank_problem

        if tie_break not in ("model", "none"):
            raise InputError(f"tie_break {tie_break!r}: 'model' or 'none'", field="tie_break")
        p = Problem(id=problem_id, problem=problem, candidates=list(candidates), language=canonical_language(language),
                    reference=reference, tests=tests, ids=list(ids) if ids is not None else None, form=form)
        return await rank_problem(self.context, p, tie_break="model" if tie_break == "model" else "none")

    def rank(self, problem: str, candidates: Sequence[str], **options: Any) -> Ranking:
        """``arank``, from synchronous code."""
        return run_sync(self.arank(problem, candidates, **options))

    async def acompare(self, problem: str, a: str, b: str, *, language: str = "python", reference: str | None = None,
                       tests: str | None = None, problem_id: str = "problem", form: str | None = None) -> Comparison:
        """Which of two attempts at one problem is right (``sejury.rank.compare``): execution
        evidence first (loading, your tests, the reference or the generated tests, the same
        behaviour); where it does not separate them the model decides, asked in both orders, and a
        choice that follows the position is a tie.  ``form`` as ``arank``'s.  Needs the sandbox."""
        from sejury.rank.compare import compare_pair
        from sejury.rank.evidence import Problem

        p = Problem(id=problem_id, problem=problem, candidates=[a, b], language=canonical_language(language),
                    reference=reference, tests=tests, ids=["a", "b"], form=form)
        return await compare_pair(self.context, p)

    def compare(self, problem: str, a: str, b: str, **options: Any) -> Comparison:
        """``acompare``, from synchronous code."""
        return run_sync(self.acompare(problem, a, b, **options))

    def as_rank_tool(self, *, name: str = "rank_attempts") -> StructuredTool:
        """``rank`` as a LangChain tool for agents: a problem and its attempts in, the choice out."""
        from sejury.rank.integrations import as_rank_tool

        return as_rank_tool(self, name=name)

    def as_compare_tool(self, *, name: str = "compare_attempts") -> StructuredTool:
        """``compare`` as a LangChain tool for agents: two attempts in, a, b or tie and why out."""
        from sejury.rank.integrations import compare_tool

        return compare_tool(self, name=name)

    def as_tool(self, policy: ReviewPolicy | None = None, **options: Any) -> StructuredTool:
        """This judge as a LangChain tool for agents (``sejury.agent``): problem and candidate
        in; PASS/FAIL at ``policy.threshold``, the lowest jurors' reasons and failing tests out."""
        from sejury import agent  # LangChain's tools, loaded when asked for
        return agent.as_tool(self, policy, **options)

    def as_runnable(self, policy: ReviewPolicy | None = None) -> Runnable[Any, Feedback]:
        """This judge as a Runnable: a ``JudgeRequest`` (or ``Sample``) in, ``Feedback`` out."""
        from sejury import agent  # LangChain's tools, loaded when asked for
        return agent.as_runnable(self, policy)

    def judge(self, sample: Sample | dict[str, Any], *,
              team: Sequence[str | Strategy] | None = None, repeat: int | None = None) -> Verdict:
        return run_sync(self.ajudge(sample, team=team, repeat=repeat))

    async def ajudge_many(self, samples: Iterable[Sample | dict[str, Any]], *, concurrency: int = 4,
                          repeats: Sequence[int | None] | None = None,
                          ) -> AsyncIterator[tuple[int, Verdict | BaseException]]:
        """Judge samples concurrently, yielding ``(index, verdict or error)`` as each finishes.

        ``concurrency`` bounds samples in flight; LLM calls are bounded separately by the client.
        An error in one sample is yielded, never raised, so the others go on.  Samples with the same
        content (``Sample.content_hash``) are judged once: a later one waits for the first, without
        holding a slot, and gets its verdict as ``Verdict.duplicate_for`` (or its error).
        ``repeats``: the repeat of each sample (see ``ajudge``), aligned with ``samples``; the same
        content is judged once per repeat."""
        if concurrency < 1:
            raise ValueError("concurrency must be >= 1")
        queue: asyncio.Queue[tuple[int, Verdict | BaseException]] = asyncio.Queue()
        sem = asyncio.Semaphore(concurrency)

        async def judged(sample: Sample, repeat: int | None) -> Verdict | Exception:
            async with sem:
                try:
                    return await self.ajudge(sample, repeat=repeat)
                except Exception as exc:
                    return exc

        async def deliver(i: int, sample: Sample, first: asyncio.Task[Verdict | Exception], copy: bool) -> None:
            result = await asyncio.shield(first)  # a copy's cancellation leaves the judgment be
            await queue.put((i, result.duplicate_for(sample) if copy and isinstance(result, Verdict) else result))

        items = list(samples)
        if repeats is not None and len(repeats) != len(items):
            raise ValueError("repeats must give one repeat per sample")
        firsts: dict[tuple[str, int | None], asyncio.Task[Verdict | Exception]] = {}  # (content, repeat) -> judgment
        tasks: list[asyncio.Task[Any]] = []
        for i, raw in enumerate(items):
            try:
                sample = as_sample(raw)
            except Exception as exc:
                queue.put_nowait((i, exc))
                continue
            repeat = repeats[i] if repeats is not None else None
            key = (sample.content_hash(), repeat)
            copy = key in firsts
            if not copy:
                firsts[key] = asyncio.create_task(judged(sample, repeat))
            tasks.append(asyncio.create_task(deliver(i, sample, firsts[key], copy)))
        tasks.extend(firsts.values())
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

    def estimate(self, samples: Sequence[Sample | dict[str, Any]], *, done: Collection[str] = (),
                 repeats: Sequence[int | None] | None = None) -> RunEstimate:
        """What judging ``samples`` will call, before calling anything (``sejury.estimate``): per
        sample the plan's LLM calls less cache hits, ``done`` ids and duplicates, and estimated tokens."""
        from sejury.estimate import estimate_run

        return estimate_run(self.context, [as_sample(s) for s in samples], max_tokens=self.config.max_tokens,
                            done=done, repeats=repeats)

    async def judge_into(self, samples: Sequence[Sample], run: RunFile, *, concurrency: int = 4,
                         trace: bool = True,
                         on_result: Callable[[Sample, Verdict | BaseException], None] | None = None,
                         repeats: Sequence[int | None] | None = None) -> int:
        """Judge ``samples`` into a run file (each verdict written and flushed as it lands, fsynced
        within milliseconds, so a killed batch loses nothing finished); returns how many failed.
        ``on_result`` sees each; ``repeats`` as in ``ajudge_many``."""
        failures = 0
        async for i, result in self.ajudge_many(samples, concurrency=concurrency, repeats=repeats):
            if isinstance(result, BaseException):
                failures += 1
            else:
                run.write(result, trace=trace)
            if on_result is not None:
                on_result(samples[i], result)
        return failures

    async def aclose(self) -> None:
        """``close`` on the caller's event loop (a server's), not the blocking API's."""
        if self.sandbox is not None:
            await self.sandbox.close()
        await self.llm.aclose()
        self._close_stores()

    def close(self) -> None:
        if self.sandbox is not None:
            run_sync(self.sandbox.close())
        run_sync(self.llm.aclose())
        self._close_stores()

    def _close_stores(self) -> None:
        if self.cache is not None:
            self.cache.close()
        if self.traces is not None:
            self.traces.close()


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
