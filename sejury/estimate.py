"""What a run will cost, before it runs (``--dry-run``, ``Judge.estimate``): per sample, the LLM
calls the supervisor's plan makes and an estimate of their tokens, less what the run will not
call for: results already in the cache, samples already in a resumed run file, and samples with
the same content as an earlier one (judged once).  Nothing here builds, starts or calls a model.

- **Calls** follow the plan the supervisor makes (``resolve_team``, ``plan_for``): each member
  that applies, and the feeders it needs, at its spec's ``llm_calls``.  A member is a cache hit
  when the cache holds its result under the key its node would look up (``member_key``); a
  follower's key reads its feeder's result, so it is known only when the feeder is a hit too (on a
  re-run of a cached batch every key is, and the count is exact: 0).  Not counted: repair turns
  after a reply without a readable score (up to ``parse_retries`` per score), retries of failed
  calls; counted although it may not happen: S2 when S1 gives no score.
- **Tokens** are an estimate: every prompt is rendered from its template with the sample (the
  prompt loader the strategies use) and counted at ``CHARS_PER_TOKEN`` characters a token, system
  prompt included; a reply counts as ``max_tokens``, its upper bound.  A prompt that holds an
  earlier reply (S2 reads S1's reasons, S4 and S5 their first step's) is rendered without it, and
  the reply is counted as up to ``max_tokens`` more.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Literal

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatResult
from pydantic import BaseModel, Field

from sejury import prompts
from sejury.cache import ResultCache
from sejury.config import JudgeConfig
from sejury.context import JudgeContext
from sejury.errors import SejuryError
from sejury.execution.runner import call_form
from sejury.graph.member import member_key
from sejury.graph.supervisor import plan_for, resolve_team
from sejury.io import run_key
from sejury.llm import ChatClient, repeat_scope
from sejury.models import ModelSettings, model_name
from sejury.sandbox.libraries import sample_profile
from sejury.schema import Sample, Strategy, StrategyResult
from sejury.strategies import StrategySpec, spec
from sejury.strategies._calls import messages_for, reply_key
from sejury.strategies.base import Kind

CHARS_PER_TOKEN = 4  # the usual rule of thumb for English and code with BPE tokenizers; an estimate

__all__ = ["CHARS_PER_TOKEN", "MemberPlan", "PlannedCall", "RunEstimate", "SampleEstimate", "dry_context",
           "estimate_run"]


class PlannedCall(BaseModel):
    """One LLM call a member will make."""

    step: str | None  # the template's step (None: the strategy's one template)
    prompt_tokens: int  # estimated: the rendered prompt, CHARS_PER_TOKEN characters a token
    completion_tokens: int  # the upper bound: max_tokens
    from_reply: bool = False  # the prompt holds an earlier reply, counted as up to max_tokens
    prompt: str | None = Field(default=None, exclude=True)  # a text step's prompt: one reply serves them all


class MemberPlan(BaseModel):
    strategy: Strategy
    in_team: bool = True  # False: it runs only to feed another member
    fed_by: Strategy | None = None
    cached: bool = False  # the cache holds its result: no call
    calls: list[PlannedCall] = Field(default_factory=list)


class SampleEstimate(BaseModel):
    sample_id: str
    repeat: int | None = None  # ``--repeats``: which judgment of the sample
    status: Literal["to_judge", "done", "duplicate", "error"]
    duplicate_of: str | None = None  # the earlier sample with the same content, judged once for both
    error: str | None = None  # why the judgment would fail at once (e.g. a team file for another task)
    members: list[MemberPlan] = Field(default_factory=list)
    skipped: dict[str, str] = Field(default_factory=dict)  # members that do not apply, and why
    llm_calls: int = 0
    cached_calls: int = 0  # calls the cache saves
    prompt_tokens: int = 0
    completion_tokens: int = 0


class RunEstimate(BaseModel):
    model: str
    max_tokens: int
    chars_per_token: int = CHARS_PER_TOKEN
    samples: list[SampleEstimate]
    llm_calls: int
    cached_calls: int
    prompt_tokens: int
    completion_tokens: int
    to_judge: int
    done: int
    duplicates: int
    errors: int
    # not in llm_calls: S5's second rounds (--mutation-check with --mutation-rounds), asked only
    # when a suite turns out weak; at most this many
    second_rounds_max: int = 0


def tokens(text: str) -> int:
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def _sample_values(sample: Sample) -> dict[str, str]:
    """The template values a sample gives by itself (as the strategies pass them); any other value
    a template reads comes from an earlier reply."""
    return {"language": sample.language, "problem": sample.problem, "candidate": sample.candidate,
            "reference": sample.reference or "",
            "test_style": prompts.test_style(sample.language, sample_profile(sample)),
            "call": call_form(sample.language, sample.problem, sample.reference or "")}


def planned_calls(s: StrategySpec, sample: Sample, max_tokens: int) -> list[PlannedCall]:
    """The calls ``s`` makes on ``sample`` when it runs: one per step, its prompt rendered."""
    if s.llm_calls == 0:
        return []
    steps = list(s.steps) or [None]
    values = _sample_values(sample)
    system = len(prompts.system_prompt())
    calls = []
    for n in range(s.llm_calls):
        step = steps[min(n, len(steps) - 1)]
        reads = prompts.placeholders(s.prompts, sample.task, step, s.prompt_root)
        later = reads - values.keys()
        user = s.render(sample.task, step, **values, **dict.fromkeys(later, ""))
        # a text step that never sees the candidate sends the same prompt for every candidate of a problem
        shareable = not later and "candidate" not in reads and s.kind is not Kind.BASELINE and n == 0 and \
            len(steps) > 1
        calls.append(PlannedCall(step=step, prompt_tokens=math.ceil((system + len(user)) / CHARS_PER_TOKEN)
                                 + (max_tokens if later else 0),
                                 completion_tokens=max_tokens, from_reply=bool(later),
                                 prompt=user if shareable else None))
    return calls


def estimate_sample(ctx: JudgeContext, sample: Sample, max_tokens: int, asked: set[str] | None = None,
                    ) -> SampleEstimate:
    """The supervisor's plan for ``sample`` and what each member of it will call.  ``asked``: the
    text-step prompts the run asks before this sample (their replies are shared, as ``ask_text``
    shares them); this sample's are added."""
    try:
        team = resolve_team(sample, None, ctx.team, execute=ctx.execute)
    except SejuryError as exc:
        return SampleEstimate(sample_id=sample.id, status="error", error=str(exc))
    plan, _ = plan_for(sample, team, execute=ctx.execute)
    known: dict[str, StrategyResult] = {}  # cached results: what their followers will be fed
    members: list[MemberPlan] = []
    shared = 0  # text steps another sample of the run (or the cache) answers
    followers = [s for s in plan.runnable if s.value in plan.feeds]
    run_ctx = ctx
    for member in [*plan.first_wave(), *followers]:
        s = spec(member.value)
        ctx = run_ctx.for_model(s.model).for_sample(sample)
        feeder = plan.feeds.get(member.value)
        hit: StrategyResult | None = None
        if ctx.cache is not None and (feeder is None or feeder.value in known):
            feed = known[feeder.value] if feeder is not None else None
            hit = ctx.cache.get(member_key(s, sample, ctx, feed))
        if hit is not None:
            known[member.value] = hit
        planned = [] if hit is not None else planned_calls(s, sample, max_tokens)
        kept = [c for c in planned if not _shared(ctx, c, asked)]
        shared += len(planned) - len(kept)
        members.append(MemberPlan(strategy=member, in_team=member in plan.team, fed_by=feeder, cached=hit is not None,
                                  calls=kept))
    calls = [c for m in members for c in m.calls]
    return SampleEstimate(
        sample_id=sample.id, status="to_judge", members=members, skipped=plan.skipped, llm_calls=len(calls),
        cached_calls=sum(spec(m.strategy.value).llm_calls for m in members if m.cached) + shared,
        prompt_tokens=sum(c.prompt_tokens for c in calls), completion_tokens=sum(c.completion_tokens for c in calls))


def _shared(ctx: JudgeContext, call: PlannedCall, asked: set[str] | None) -> bool:
    """Whether a text step's reply is shared: asked earlier in the run, or kept in the cache."""
    if call.prompt is None or asked is None:
        return False
    key = reply_key(ctx.llm.name, messages_for(call.prompt))
    if key in asked or (ctx.cache is not None and ctx.cache.get_raw(key) is not None):
        return True
    asked.add(key)
    return False


def estimate_run(ctx: JudgeContext, samples: Sequence[Sample], *, max_tokens: int,
                 done: Collection[str] = (), repeats: Sequence[int | None] | None = None,
                 share_replies: bool | None = None) -> RunEstimate:
    """What judging ``samples`` in ``ctx`` will call, sample by sample: ``done`` holds the judgments
    (``io.run_key``) a resumed run file already has; a sample with the same content as an earlier
    one is judged once (once per repeat: ``repeats`` gives each sample's, as ``Judge.ajudge_many``)."""
    first: dict[tuple[str, int | None], str] = {}  # (content hash, repeat) -> the first sample's id
    # text-step prompts asked by the samples before (shared with the cache on: by default, when the
    # context has a cache; a dry run with a cache that has no file yet says so itself)
    asked: set[str] | None = set() if (ctx.cache is not None if share_replies is None else share_replies) else None
    rows: list[SampleEstimate] = []
    for i, sample in enumerate(samples):
        repeat = repeats[i] if repeats is not None else None
        if run_key(sample.id, repeat) in done:
            rows.append(SampleEstimate(sample_id=sample.id, repeat=repeat, status="done"))
            continue
        h = (sample.content_hash(), repeat)
        if h in first:
            rows.append(SampleEstimate(sample_id=sample.id, repeat=repeat, status="duplicate",
                                       duplicate_of=first[h]))
            continue
        first[h] = sample.id
        with repeat_scope(repeat):  # the repeat's own cache keys
            rows.append(estimate_sample(ctx, sample, max_tokens, asked).model_copy(update={"repeat": repeat}))
    count = {k: sum(r.status == k for r in rows) for k in ("to_judge", "done", "duplicate", "error")}
    return RunEstimate(
        model=ctx.llm.name, max_tokens=max_tokens, samples=rows, llm_calls=sum(r.llm_calls for r in rows),
        cached_calls=sum(r.cached_calls for r in rows), prompt_tokens=sum(r.prompt_tokens for r in rows),
        completion_tokens=sum(r.completion_tokens for r in rows), to_judge=count["to_judge"], done=count["done"],
        duplicates=count["duplicate"], errors=count["error"], second_rounds_max=_second_rounds(ctx, rows))


TESTS_WRITERS = ("generate_tests", "generate_tests_nl", "generate_tests_code")


def _second_rounds(ctx: JudgeContext, rows: Sequence[SampleEstimate]) -> int:
    """At most how many second-round calls the run can ask: R for each test-writing member that is
    called, when the mutation check is on (executed tests, a reference)."""
    if not (ctx.execute and ctx.mutation_check and ctx.mutation_rounds):
        return 0
    return ctx.mutation_rounds * sum(1 for r in rows for m in r.members
                                     if m.strategy.value in TESTS_WRITERS and m.calls)


class _NoModel(BaseChatModel):
    """The model of a dry run's context: never called (a call would be a bug, and says so)."""

    @property
    def _llm_type(self) -> str:
        return "dry-run"

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        raise SejuryError("a dry run calls no model")


@contextmanager
def dry_context(config: JudgeConfig) -> Iterator[JudgeContext]:
    """The run context a ``Judge(config=config)`` would have, for planning only: the model's
    identity (what cache keys hold) without the model, and the cache when its file exists; no
    sandbox, no trace store."""
    path = config.results_path()
    cache = ResultCache(path) if config.cache and path.is_file() else None
    try:
        yield JudgeContext(llm=ChatClient(_NoModel(), name=model_name(ModelSettings.of(config))), team=config.team,
                           scale=config.scale, cache=cache, execute=config.execute,
                           execution_weight=config.execution_weight, parse_retries=config.parse_retries,
                           mutation_check=config.mutation_check, mutation_rounds=config.mutation_rounds,
                           models={name: ChatClient(_NoModel(), name=model_name(s))
                                   for name, s in ModelSettings.jury(config).items()})
    finally:
        if cache is not None:
            cache.close()
