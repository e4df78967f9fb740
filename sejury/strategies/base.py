"""For strategy authors: a strategy is one ``StrategySpec``, registered by its module.

A spec carries everything about the juror: its names, its kind, its prompt steps (templates live
at ``prompts/<value>/<task>[.<step>].md``), when it applies, what it needs, which strategy feeds it,
its calls per sample, its version (part of every cache key) and how its details print.  The graph,
the supervisor, calibration, the CLI and the roster of names all read the specs; nothing else
names a strategy.  A minimal LLM juror::

    async def run(sample, ctx, rec, feed):
        user = SPEC.render(sample.task, problem=sample.problem, candidate=sample.candidate)
        parsed, error = await ask_score(ctx, rec, "assess", user)
        return Outcome(parsed, detail=error or None)

    SPEC = register(StrategySpec(value="terse", paper_name="Terse", kind=Kind.LLM, run=run,
                                 steps=(None,), llm_calls=1, rank=100))

with ``prompts/terse/code_generation.md`` (and one per task it covers) beside the others, or in
``prompt_root`` for a strategy shipped in another package.

Modules in ``sejury/strategies/`` are loaded (and so registered) when a strategy is first named or
``sejury.strategies`` is imported; a spec defined elsewhere is registered when its module runs
``register``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from sejury import prompts, roster
from sejury.context import JudgeContext
from sejury.roster import Kind, Strategy
from sejury.schema import Sample, StrategyResult, Task
from sejury.scoring import PARSER_VERSION, ParsedReply
from sejury.strategies._calls import Recorder, ScoreReply, ask_score, ask_text


@dataclass
class Outcome:
    """What a strategy hands back: a parsed score (None: unscored) and what it made on the way."""

    parsed: ParsedReply | None
    detail: str | None = None
    artifacts: dict[str, Any] = field(default_factory=dict)
    weight: float = 1.0  # its share in the team's mean (``StrategyResult.weight``)
    against: str | None = None  # definitive evidence against the candidate (``StrategyResult.against``)


StrategyRun = Callable[[Sample, JudgeContext, Recorder, StrategyResult | None], Awaitable[Outcome]]


def always(sample: Sample) -> str | None:
    """An applicability rule: the strategy applies to every sample."""
    return None


def needs_reference(why: str = "no reference in the sample") -> Callable[[Sample], str | None]:
    """An applicability rule: the strategy reads the reference (``why`` is the skip message)."""
    def rule(sample: Sample) -> str | None:
        return None if sample.reference else why

    return rule


def one_prompt(value: str, *, reference: bool = False, step: str = "assess") -> StrategyRun:
    """The run of a juror that is one template and one score (S1, S1-ref, S3, the vanilla
    baseline): the sample fills the template (with the reference when ``reference``), the reply's
    score is read with a repair turn when unreadable."""

    async def run(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
        extra = {"reference": sample.reference} if reference else {}
        user = spec(value).render(sample.task, language=sample.language, problem=sample.problem,
                                  candidate=sample.candidate, **extra)
        parsed, error = await ask_score(ctx, rec, step, user)
        return Outcome(parsed, detail=error or None)

    return run


def when_executing(applies: Callable[[Sample], str | None]) -> Callable[[Sample, bool], bool]:
    """A ``joins_default`` rule: an evidence juror joins the default team whenever the judge executes
    and it applies to the sample (evidence first: with ``--execute`` the evidence is in the team)."""
    def joins(sample: Sample, execute: bool) -> bool:
        return execute and applies(sample) is None

    return joins


NEEDS_EXECUTE = "the pass ratio needs the sandbox: judge with --execute (execute=True)"


@dataclass(frozen=True)
class StrategySpec:
    value: str  # the name in teams, traces, run files and the CLI
    paper_name: str  # S1, S2, ... or the metric's usual name
    kind: Kind
    run: StrategyRun
    rank: float  # order in verdicts, reports and calibration (the paper's order)
    summary: str = ""  # one line: what it asks or measures
    aliases: tuple[str, ...] = ()  # more accepted names (the paper name always is)
    steps: tuple[str | None, ...] = ()  # prompt steps (None: a single template per task)
    tasks: tuple[Task, ...] = tuple(Task)  # the tasks it has templates for
    partials: tuple[str, ...] = ()  # partials only it uses (part of its version)
    parsers: tuple[str, ...] = ()  # versions of reply parsers it uses beyond the default score parser
    version: Callable[[], str] | None = None  # non-prompt jurors: e.g. the metric library's version
    applies: Callable[[Sample], str | None] = always  # None if it applies, else why not
    needs_execute: bool = False  # skipped (saying so) unless judged with --execute
    feeders: tuple[str, ...] = ()  # the first of these that applies to the sample runs first and feeds it
    feed_digest: Callable[[StrategyResult], str] | None = None  # what a follower's cache key reads of it
    cache_extra: Callable[[JudgeContext], str] | None = None  # run settings that change its result
    llm_calls: int = 0  # calls per sample when it runs (for cost estimates)
    anchor: bool = False  # the paper's calibration puts one anchor (an S1 variant) in every team
    default_member: bool = False  # in the team when none is configured (the SE-Jury team)
    opt_in: bool = False  # judged only when named: not in calibration's default pool (a costly variant)
    joins_default: Callable[[Sample, bool], bool] | None = None  # (sample, execute): in that sample's default team
    detail_lines: Callable[[StrategyResult], list[str]] | None = None  # extra lines for the CLI's table
    prompt_root: str | None = None  # where its templates live when shipped outside sejury/prompts
    model: str | None = None  # a jury model's name: this juror asks that model (``S1@second``; ``asked_of``)

    def __post_init__(self) -> None:
        if self.kind in (Kind.LLM, Kind.BASELINE) and not self.steps:
            raise ValueError(f"{self.value}: a prompt strategy names its steps (steps=(None,) for one template)")

    @property
    def strategy(self) -> Strategy:
        return Strategy(self.value)

    @property
    def prompts(self) -> str:
        """Whose templates it fills: its own, or its base's when asked of a jury model (``S1@second``)."""
        return self.value.partition("@")[0]

    def templates(self) -> list[str]:
        return [prompts.template_path(self.prompts, task, step) for task in Task if task in self.tasks
                for step in self.steps]

    def render(self, task: Task, step: str | None = None, **values: str | None) -> str:
        """Fill this strategy's template for ``task`` (and ``step``); see ``sejury.prompts``."""
        return prompts.render(self.prompts, task, step, root=self.prompt_root, **values)

    def version_id(self) -> str:
        """Part of the cache key: a digest of its templates, partials and parsers, or ``version``."""
        if self.version is not None:
            return self.version()
        return _prompt_version(self)

    def skip_reason(self, sample: Sample, *, execute: bool) -> str | None:
        """Why it does not run on this sample (None: it runs)."""
        why = self.applies(sample)
        if why is None and self.steps and sample.task not in self.tasks:
            why = f"{self.paper_name} has no prompt for {sample.task.value}"
        if why is None and self.needs_execute and not execute:
            why = NEEDS_EXECUTE
        return why

    def asked_of(self, model: str) -> StrategySpec:
        """This juror asked of the jury model named ``model`` (``S1@second``; ``roster.derive`` registers
        it, after checking the juror asks a model): its base's prompts, parsers and version, its
        feeders asked of the same model, opt-in."""
        return dataclasses.replace(
            self, value=f"{self.value}@{model}", paper_name=f"{self.paper_name}@{model}", aliases=(), model=model,
            feeders=tuple(f"{f}@{model}" for f in self.feeders), rank=self.rank + 0.001,
            version=self.version_id, default_member=False, opt_in=True, joins_default=None,
            summary=f"{self.summary} (asked of the jury model {model!r})")

    def feeder_for(self, sample: Sample) -> Strategy | None:
        """The strategy whose result this one reads for this sample (the first that applies)."""
        for name in self.feeders:
            if spec(name).applies(sample) is None:
                return Strategy(name)
        return Strategy(self.feeders[-1]) if self.feeders else None


_VERSIONS: dict[str, str] = {}


def _prompt_version(s: StrategySpec) -> str:
    if s.value not in _VERSIONS:
        _VERSIONS[s.value] = prompts.digest([*s.templates(), *prompts.SHARED_PARTIALS, *s.partials],
                                            seeds=[PARSER_VERSION, *s.parsers], root=s.prompt_root)
    return _VERSIONS[s.value]


def register(s: StrategySpec) -> StrategySpec:
    """Add a strategy: its names join the roster (``roster.JURORS``, the one table of the specs), the
    graph gets a node for it when built."""
    roster.register(s)
    _VERSIONS.pop(s.value, None)
    return s


def unregister(value: str) -> None:
    """Remove a strategy (tests that add a toy strategy clean up with this)."""
    roster.unregister(value)
    _VERSIONS.pop(value, None)


def spec(strategy: str) -> StrategySpec:
    """The spec of a registered strategy (by value)."""
    found = roster.JURORS.exact(str(strategy))
    if not isinstance(found, StrategySpec):
        raise KeyError(f"no strategy {strategy!r} is registered")
    return found


def all_specs() -> list[StrategySpec]:
    """Every registered spec, in rank order."""
    return [spec(s.value) for s in Strategy]


def prompt_version(strategy: str) -> str:
    """A strategy's version: the digest of its prompts (or its library's version)."""
    return spec(strategy).version_id()


def prompts_version() -> str:
    """One digest over every prompt strategy's version (shown in verdicts and team files)."""
    import hashlib

    h = hashlib.sha256()
    for s in all_specs():
        if s.steps and s.model is None:  # a juror asked of another model has its base's prompts
            h.update(s.version_id().encode())
    return h.hexdigest()[:12]


__all__ = ["NEEDS_EXECUTE", "Kind", "Outcome", "Recorder", "ScoreReply", "StrategyRun", "StrategySpec", "all_specs",
           "always", "ask_score", "ask_text", "needs_reference", "one_prompt", "prompt_version", "prompts_version",
           "register", "spec", "unregister", "when_executing"]
