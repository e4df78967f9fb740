"""The jury's roster: ``Strategy``, the name of a juror, and the table of the registered jurors.

A strategy is defined once, by its ``StrategySpec`` in ``sejury/strategies/`` (one module each);
registering the spec puts its names and kind here, so a name is valid exactly when a spec says so
and ``Strategy.RETHINK.paper_name`` reads the spec.  This module imports nothing of sejury's but
the errors, so the schema, the graph and the strategies can all use the name type; the built-in
jurors (``sejury.strategies``) are imported when the roster is first read, so importing the schema
or the settings stays cheap (``sejury --help`` loads no juror).

``Strategy`` behaves like the string enum it replaces: ``Strategy("rethink") is Strategy.RETHINK``,
``Strategy.RETHINK.value == "rethink"``, ``for s in Strategy`` walks the registered jurors in the
paper's order, and pydantic fields typed ``Strategy`` accept a value or a paper alias (``S2``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from enum import StrEnum
from typing import Any, ClassVar, Protocol

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import core_schema

from sejury.errors import InputError


class Kind(StrEnum):
    """What a juror's score rests on."""

    LLM = "llm"  # the model's judgment (S1-S5)
    METRIC = "metric"  # similarity to the reference; no model call
    EVIDENCE = "evidence"  # what really running code shows (S5-exec)
    BASELINE = "baseline"  # the papers' RQ1 baselines: judged and reported, never in a team


class JurorInfo(Protocol):
    """What the roster reads of a spec (``strategies.base.StrategySpec`` provides it)."""

    @property
    def value(self) -> str: ...
    @property
    def paper_name(self) -> str: ...
    @property
    def aliases(self) -> tuple[str, ...]: ...
    @property
    def kind(self) -> Kind: ...
    @property
    def feeders(self) -> tuple[str, ...]: ...
    @property
    def anchor(self) -> bool: ...
    @property
    def rank(self) -> float: ...


_TABLE: dict[str, JurorInfo] = {}  # value -> spec, in rank order
_ALIASES: dict[str, str] = {}  # lower-cased alias or paper name -> value
_INSTANCES: dict[str, Strategy] = {}  # value -> the one Strategy object of that name
_LOADED: list[bool] = []  # set once the built-in jurors are being (or have been) registered


def _load() -> None:
    """Register the built-in jurors (importing ``sejury.strategies``) before the roster is first
    read; their own ``register`` calls and reads during that import see the table as it fills."""
    if not _LOADED:
        _LOADED.append(True)
        importlib.import_module("sejury.strategies")


class _Roster(type):
    """Lets ``for s in Strategy`` and ``len(Strategy)`` walk the registered jurors, as with an enum."""

    def __iter__(cls) -> Iterator[Strategy]:
        _load()
        return iter([_INSTANCES[v] for v in _TABLE])

    def __len__(cls) -> int:
        _load()
        return len(_TABLE)


class Strategy(str, metaclass=_Roster):
    """A juror's name: the value used in teams, traces, run files and the CLI."""

    __slots__ = ()

    # the built-in jurors, for code and tests that name them (defined by their specs, not here)
    DIRECT: ClassVar[Strategy]
    DIRECT_REF: ClassVar[Strategy]
    RETHINK: ClassVar[Strategy]
    EQUIVALENCE: ClassVar[Strategy]
    REFERENCE_ANALYSIS: ClassVar[Strategy]
    GENERATE_TESTS: ClassVar[Strategy]
    TEST_PASS: ClassVar[Strategy]
    TEST_DIFF: ClassVar[Strategy]
    BLEU: ClassVar[Strategy]
    CHRF: ClassVar[Strategy]
    ROUGE_L: ClassVar[Strategy]
    CODEBLEU: ClassVar[Strategy]
    METEOR: ClassVar[Strategy]
    VANILLA: ClassVar[Strategy]
    ICE_SCORE: ClassVar[Strategy]
    ICE_SCORE_REF: ClassVar[Strategy]

    def __new__(cls, value: str) -> Strategy:
        if isinstance(value, Strategy):
            return value
        _load()
        found = _INSTANCES.get(str(value))
        if found is None or str(value) not in _TABLE:
            if (derived := _derived(str(value))) is not None and derived.value == str(value):
                return derived
            raise ValueError(f"{value!r} is not a registered strategy")
        return found

    def __repr__(self) -> str:
        return f"Strategy({self.value!r})"

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (Strategy, (self.value,))

    def __copy__(self) -> Strategy:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Strategy:
        return self

    @property
    def value(self) -> str:
        return str.__str__(self)

    @property
    def spec(self) -> JurorInfo:
        _load()
        try:
            return _TABLE[self.value]
        except KeyError:
            raise InputError(f"strategy {self.value!r} is not registered", field="team") from None

    @property
    def paper_name(self) -> str:
        return self.spec.paper_name

    @property
    def kind(self) -> Kind:
        return self.spec.kind

    @property
    def is_llm(self) -> bool:
        """Its score comes from model calls (the baselines' too)."""
        return self.spec.kind in (Kind.LLM, Kind.BASELINE)

    @property
    def is_evidence(self) -> bool:
        """Its score is what running code shows (S5-exec, S5-diff, Sample-tests), not an opinion."""
        return self.spec.kind is Kind.EVIDENCE

    @property
    def is_baseline(self) -> bool:
        """A baseline is judged and reported, but never chosen into a team."""
        return self.spec.kind is Kind.BASELINE

    @property
    def is_s1(self) -> bool:
        """An anchor of calibration: the paper's rule puts one in every team (S1, S1-ref)."""
        return self.spec.anchor

    @property
    def feeder(self) -> Strategy | None:
        """The one strategy that must run for this one whatever the sample (S5 for S5-exec); None
        when there is none or it depends on the sample (S2 re-checks S1-ref or S1)."""
        feeders = self.spec.feeders
        return Strategy(feeders[0]) if len(feeders) == 1 else None

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.no_info_plain_validator_function(
            _validate, serialization=core_schema.plain_serializer_function_ser_schema(str, when_used="always"))

    @classmethod
    def __get_pydantic_json_schema__(cls, schema: core_schema.CoreSchema,
                                     handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        _load()
        return {"type": "string", "enum": list(_TABLE), "title": "Strategy"}


def _validate(value: Any) -> Strategy:
    if isinstance(value, Strategy):
        return value
    if not isinstance(value, str):
        raise ValueError(f"a strategy name is a string, not {type(value).__name__}")
    return parse_strategy(value)


def _constant(value: str) -> Strategy:
    found = _INSTANCES.get(value)
    if found is None:
        found = _INSTANCES[value] = str.__new__(Strategy, value)
    return found


for _name in ("direct", "direct_ref", "rethink", "equivalence", "reference_analysis", "generate_tests",
              "test_pass", "test_diff", "bleu", "chrf", "rouge_l", "codebleu", "meteor", "vanilla", "ice_score",
              "ice_score_ref"):
    setattr(Strategy, _name.upper(), _constant(_name))


def register(info: JurorInfo) -> Strategy:
    """Put a spec's names on the roster (``strategies.base.register`` calls this)."""
    _load()
    value = info.value
    if value in _TABLE and _TABLE[value] is not info:
        raise ValueError(f"a strategy named {value!r} is already registered")
    names = [n.lower() for n in (info.paper_name, *info.aliases) if n.lower() != value]
    for name in names:
        if _ALIASES.get(name, value) != value or (name in _TABLE and name != value):
            raise ValueError(f"{info.value}: the name {name!r} already belongs to {_ALIASES.get(name, name)!r}")
    _TABLE[value] = info
    ordered = sorted(_TABLE.values(), key=lambda i: i.rank)
    _TABLE.clear()
    _TABLE.update((i.value, i) for i in ordered)
    for name in names:
        _ALIASES[name] = value
    return _constant(value)


def unregister(value: str) -> None:
    """Take a strategy off the roster (tests that register a toy strategy clean up with this)."""
    _TABLE.pop(value, None)
    for alias in [a for a, v in _ALIASES.items() if v == value]:
        del _ALIASES[alias]


# makes ``S1@second`` (a juror asked of another model) when first named: set by ``sejury.strategies``
_DERIVE: list[Callable[[str], Strategy | None]] = []


def set_deriver(derive: Callable[[str], Strategy | None]) -> None:
    _DERIVE[:] = [derive]


def _derived(name: str) -> Strategy | None:
    return _DERIVE[0](name) if _DERIVE and "@" in name else None


def parse_strategy(name: str) -> Strategy:
    """Accept a strategy's name (``rethink``) or its paper alias (``S2``, ``S1-ref``), or either
    with a jury model's name (``S1@second``: S1 asked of the model named ``second``)."""
    _load()
    key = name.strip().lower()
    value = _ALIASES.get(key, key)
    if value in _TABLE:
        return _constant(value)
    if (derived := _derived(key)) is not None:
        return derived
    known = ", ".join([*_TABLE, *(i.paper_name for i in _TABLE.values())])
    raise InputError(f"unknown strategy {name!r}; known: {known}", field="team")
