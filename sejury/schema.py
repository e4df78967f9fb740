"""Pydantic models at the edges: what goes into a judgment and what comes out.

``Sample`` is what a judge reads, ``Verdict`` what it returns, ``TeamFile`` what calibration writes
and the supervisor reads.  Inside the graph the same models travel in the state.
"""

from __future__ import annotations

import hashlib
import json
import statistics
from collections.abc import Sequence
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from sejury.errors import InputError
from sejury.execution.languages import canonical_language
from sejury.roster import Kind, Strategy, parse_strategy

__all__ = ["Kind", "Sample", "Scale", "Spread", "Status", "Strategy", "StrategyResult", "Task", "TeamFile",
           "TraceEvent", "Verdict", "parse_strategy"]


class Task(StrEnum):
    CODE_GENERATION = "code_generation"
    PROGRAM_REPAIR = "program_repair"
    CODE_SUMMARIZATION = "code_summarization"


class Sample(BaseModel):
    """One artifact to judge.

    Fields a dataset carries beyond these (``human_score``, ``source`` ...) are kept in
    ``metadata`` so that nothing is lost between a dataset and a run file.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    task: Task
    language: str = "python"
    problem: str
    candidate: str
    reference: str | None = None
    tests: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _extras_to_metadata(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        known = set(cls.model_fields)
        extras = {k: v for k, v in data.items() if k not in known}
        if not extras:
            return data
        kept = {k: v for k, v in data.items() if k in known}
        kept["metadata"] = {**extras, **(data.get("metadata") or {})}
        return kept

    @field_validator("id", mode="before")
    @classmethod
    def _id_as_text(cls, v: Any) -> Any:
        return str(v) if isinstance(v, int) else v

    @field_validator("language")
    @classmethod
    def _language(cls, v: str) -> str:
        """Normalised once, here: ``js`` is ``javascript`` for every strategy and runner."""
        return canonical_language(v)

    @field_validator("reference", "tests")
    @classmethod
    def _blank_is_none(cls, v: str | None) -> str | None:
        return v if v is not None and v.strip() else None

    def problem_digest(self) -> str:
        """A digest of the task, language and problem: the same for every candidate of a problem."""
        payload = json.dumps([self.task.value, self.language, self.problem], ensure_ascii=False)
        return hashlib.sha256(payload.encode()).hexdigest()[:16]

    def content_hash(self) -> str:
        """Hash of what a judge reads (not the id or metadata): the cache key's sample part."""
        payload = json.dumps(
            [self.task.value, self.language, self.problem, self.candidate, self.reference, self.tests],
            ensure_ascii=False,
        )
        return hashlib.sha256(payload.encode()).hexdigest()[:32]


class Status(StrEnum):
    SCORED = "scored"
    UNSCORED = "unscored"  # the model replied but no valid score could be read from it
    SKIPPED = "skipped"  # the strategy does not apply to this sample
    FAILED = "failed"  # the model call itself failed (after retries)


class TraceEvent(BaseModel):
    """One step of a judgment: an LLM call, a skip, a cache hit, a sandbox run, an error."""

    kind: Literal["llm_call", "skip", "cache_hit", "sandbox_run", "error", "merge"]
    strategy: str | None = None
    step: str | None = None
    attempt: int | None = None
    messages: list[dict[str, str]] | None = None  # role/content of every prompt message
    reply: str | None = None
    finish_reason: str | None = None
    score: float | None = None
    reasons: list[str] | None = None
    error: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    # of prompt_tokens, those the model server reused from its prompt cache (0 when it does not say)
    cached_prompt_tokens: int = 0
    seconds: float = 0.0
    detail: dict[str, Any] | None = None


class StrategyResult(BaseModel):
    strategy: Strategy
    status: Status
    score: float | None = None
    reasons: list[str] = Field(default_factory=list)
    detail: str | None = None  # why skipped / unscored / failed
    artifacts: dict[str, Any] = Field(default_factory=dict)  # S4 properties, S5 tests, ...
    in_team: bool = True  # False: ran only to feed another member (S1 feeding S2)
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_prompt_tokens: int = 0  # of prompt_tokens, those the model server reused from its prompt cache
    seconds: float = 0.0  # the model's time and the sandbox's, for this juror's own calls and runs
    cached: bool = False
    trace: list[TraceEvent] = Field(default_factory=list)
    # its share in the team's mean, relative to the others' 1: an execution juror whose tests
    # --mutation-check found weak counts by their mutation score (``suite_weight``)
    weight: float = Field(1.0, ge=0, le=1)
    # definitive evidence against the candidate that this juror saw (one of the sample's own tests
    # failing, the candidate not loading where the reference does, tampering with the harness): the
    # evidence-first merge keeps such a candidate below the pass mark and names this as the reason
    against: str | None = None


def team_mean(scores: Sequence[float], weights: Sequence[float]) -> float | None:
    """The team's score: the members' mean, each counted by its weight; when every weight is 0
    (the only evidence is weak and nothing else scored) the plain mean, since nothing outweighs it."""
    if not scores:
        return None
    total = sum(weights)
    if total <= 0:
        return statistics.fmean(scores)
    return sum(s * w for s, w in zip(scores, weights, strict=True)) / total


class Spread(BaseModel):
    min: float
    max: float
    std: float  # population standard deviation of the scored members

    @classmethod
    def of(cls, scores: list[float]) -> Spread | None:
        if not scores:
            return None
        return cls(min=min(scores), max=max(scores), std=statistics.pstdev(scores))


class Scale(BaseModel):
    """A linear target scale; 0-100 maps to ``low``..``high`` (1-5: ``s/100*4+1``)."""

    low: float
    high: float

    @classmethod
    def parse(cls, text: str) -> Scale:
        try:
            lo, hi = (float(p) for p in text.replace(":", "-").split("-", 1))
        except ValueError:
            raise InputError(f"scale {text!r} is not LOW-HIGH, e.g. 1-5", field="scale") from None
        if hi <= lo:
            raise InputError(f"scale {text!r}: high must exceed low", field="scale")
        return cls(low=lo, high=hi)

    def map(self, score: float) -> float:
        return score / 100 * (self.high - self.low) + self.low


class Verdict(BaseModel):
    sample_id: str
    judgment_id: str | None = None  # set by a Judge: the key of this judgment in the trace store
    task: Task
    status: Literal["scored", "unscored"]
    score: float | None  # 0-100 mean of the scored team members; None when unscored
    scale: Scale | None = None
    scaled_score: float | None = None
    team: list[Strategy]
    strategies: dict[str, StrategyResult]
    unscored_members: list[str] = Field(default_factory=list)
    skipped_members: list[str] = Field(default_factory=list)
    spread: Spread | None = None
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_prompt_tokens: int = 0  # of prompt_tokens, those the model server reused from its prompt cache
    seconds: float = 0.0
    model: str = ""
    jury_models: dict[str, str] = Field(default_factory=dict)  # S1@NAME's model: NAME -> its identity
    prompt_version: str = ""
    metadata: dict[str, Any] = Field(default_factory=dict)
    # the id of an earlier sample of the same run with the same content (``Sample.content_hash``),
    # whose judgment this verdict reuses: its jurors' results, none of its calls
    duplicate_of: str | None = None
    # a digest of the sample's problem: verdicts on candidates for the same problem share it
    # (example-level correlation groups by it)
    problem_digest: str | None = None
    # which of K judgments of the same sample this is (``sejury batch --repeats K``: 0..K-1, each
    # sampled with the model's seed + repeat); None for an ordinary judgment
    repeat: int | None = None
    # how the members' scores were merged: "evidence_first" (the default: execution evidence decides
    # which side of the pass mark the score falls on, opinion moves it within that side) or "mean"
    # (the papers' mean of the team); verdicts written before the rule existed read as "mean"
    merge: Literal["evidence_first", "mean"] = "mean"
    # what the score rests on: "definitive" (evidence against the candidate: ``against``), "evidence"
    # (executed tests, differential runs), "opinion" (only the model's opinion and similarity
    # metrics), or None when unscored
    grounds: Literal["definitive", "evidence", "opinion"] | None = None
    against: list[str] = Field(default_factory=list)  # the definitive evidence, juror by juror
    pass_mark: float | None = None  # a score at or above it passes
    passed: bool | None = None  # score >= pass_mark; None when unscored
    needs_review: bool = False  # not a verdict to act on alone: ``review_reasons`` say why
    review_reasons: list[str] = Field(default_factory=list)

    def duplicate_for(self, sample: Sample) -> Verdict:
        """This verdict for ``sample``, which has the same content as the sample judged: its own id
        and metadata, the same jurors (marked ``cached``: reused, like a cache hit, so each keeps its
        cost per sample) and the same judgment id (whose trace it is); the copy itself made no call."""
        return self.model_copy(update={
            "sample_id": sample.id, "metadata": sample.metadata, "duplicate_of": self.sample_id,
            "strategies": {k: r.model_copy(update={"cached": True}) for k, r in self.strategies.items()},
            "llm_calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "cached_prompt_tokens": 0,
            "seconds": 0.0})

    def trace(self) -> list[TraceEvent]:
        """Every event of the judgment, member by member (feeders first)."""
        events: list[TraceEvent] = []
        for result in self.strategies.values():
            events.extend(result.trace)
        return events


class TeamFile(BaseModel):
    """The team the supervisor uses.  Calibration writes one; users may write their own.

    ``{"format": "sejury.team/1", "task": "code_generation", "strategies": ["direct", "rethink"]}``
    """

    model_config = ConfigDict(extra="forbid")

    format: Literal["sejury.team/1"] = "sejury.team/1"
    task: Task | None = None  # None: any task
    strategies: list[Strategy]
    calibration: dict[str, Any] = Field(default_factory=dict)  # written by `sejury calibrate`
    # a pass mark calibrated on pass/fail labels: a score at or above it passes (the agent tool's default)
    threshold: float | None = Field(None, ge=0, le=100)
    # the merge rule the team was calibrated with (None: see ``merge_rule``)
    merge: Literal["evidence_first", "mean"] | None = None

    def merge_rule(self, otherwise: Literal["evidence_first", "mean"]) -> Literal["evidence_first", "mean"]:
        """The rule this team merges by: its own, else the mean for a calibrated file (the rule it
        was measured with), else ``otherwise`` (a hand-written file)."""
        return self.merge or ("mean" if self.calibration else otherwise)

    @field_validator("strategies", mode="before")
    @classmethod
    def _names(cls, v: Any) -> Any:
        if isinstance(v, list):
            return [parse_strategy(s) if isinstance(s, str) else s for s in v]
        return v

    @field_validator("strategies")
    @classmethod
    def _not_empty(cls, v: list[Strategy]) -> list[Strategy]:
        if not v:
            raise ValueError("a team needs at least one strategy")
        if len(set(v)) != len(v):
            raise ValueError("a strategy is listed twice")
        return v
