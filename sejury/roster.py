"""The jury's roster: ``Strategy``, the name of a juror, and the table of the registered jurors.

A strategy is defined once, by its ``StrategySpec`` in ``sejury/strategies/`` (one module each);
registering the spec puts it in ``JURORS`` (a ``sejury.registry.Registry``), so a name is valid
exactly when a spec says so and ``Strategy.RETHINK.paper_name`` reads the spec.  At load this module
imports nothing of sejury's but the errors and the registry, so the schema, the graph and the
strategies can all use the name type; the built-in jurors (``sejury.strategies``) are imported when
the roster is first read, so importing the schema or the settings stays cheap (``sejury --help``
loads no juror).

``Strategy`` behaves like the string enum it replaces: ``Strategy("rethink") is Strategy.RETHINK``
(a constant only for the four jurors named most, S1, S2, S5 and S5-exec: any other is ``Strategy("bleu")``),
``Strategy.RETHINK.value == "rethink"``, ``for s in Strategy`` walks the registered jurors in the
paper's order, and pydantic fields typed ``Strategy`` accept a value or a paper alias (``S2``).

``Strategy(value)`` only looks a registered juror up.  A juror asked of a jury model (``S1@second``)
comes to be by one named operation, ``derive``, which registers its spec; the places that take a
juror's name from outside call it: ``parse_strategy`` (the CLI's ``--team`` and ``--also``, team
files, the settings, the API's and the servers' team lists, pydantic fields typed ``Strategy``) and
``resolve`` (a juror's value as run files and pickles hold it).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from enum import StrEnum
from typing import Any, ClassVar, Protocol

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import core_schema

from sejury.errors import InputError
from sejury.registry import Registry


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
    @property
    def model(self) -> str | None: ...  # the jury model it asks (``S1@second``), None: the judge's model
    def asked_of(self, model: str) -> JurorInfo:
        """This juror asked of the jury model named ``model`` (``derive`` calls it)."""
        ...


# the registered jurors, by value and alias, in rank order; filled from ``sejury.strategies`` (and the
# ``sejury.strategies`` entry points) when first read, so importing the schema or the settings stays cheap
JURORS: Registry[JurorInfo] = Registry("strategy", package="sejury.strategies", group="sejury.strategies",
                                       name=lambda i: i.value, aliases=lambda i: (i.paper_name, *i.aliases),
                                       rank=lambda i: i.rank)
_INSTANCES: dict[str, Strategy] = {}  # value -> the one Strategy object of that name


class _Roster(type):
    """Lets ``for s in Strategy`` and ``len(Strategy)`` walk the registered jurors, as with an enum."""

    def __iter__(cls) -> Iterator[Strategy]:
        return iter([_constant(v) for v in JURORS.names()])

    def __len__(cls) -> int:
        return len(JURORS)


class Strategy(str, metaclass=_Roster):
    """A juror's name: the value used in teams, traces, run files and the CLI."""

    __slots__ = ()

    # the four built-in jurors code and tests name most (defined by their specs, not here): S1, the
    # anchor of every calibrated team; S2, which S1 feeds; S5, whose tests S5-exec runs; S5-exec, the
    # evidence juror.  Any other is named by its value, ``Strategy("bleu")``: a lookup in the specs.
    DIRECT: ClassVar[Strategy]
    RETHINK: ClassVar[Strategy]
    GENERATE_TESTS: ClassVar[Strategy]
    TEST_PASS: ClassVar[Strategy]

    def __new__(cls, value: str) -> Strategy:
        """The registered juror of this value: a lookup, which registers nothing (a juror asked of a
        jury model is made by ``derive``, through ``parse_strategy`` or ``resolve``)."""
        if isinstance(value, Strategy):
            return value
        if JURORS.exact(str(value)) is None:
            raise ValueError(f"{value!r} is not a registered strategy")
        return _constant(str(value))

    def __repr__(self) -> str:
        return f"Strategy({self.value!r})"

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (resolve, (self.value,))  # another process (a Ray worker) may not have derived S1@second yet

    def __copy__(self) -> Strategy:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Strategy:
        return self

    @property
    def value(self) -> str:
        return str.__str__(self)

    @property
    def spec(self) -> JurorInfo:
        if (info := JURORS.exact(self.value)) is None:
            raise InputError(f"strategy {self.value!r} is not registered", field="team")
        return info

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
        return {"type": "string", "enum": list(JURORS.names()), "title": "Strategy"}


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


for _name in ("direct", "rethink", "generate_tests", "test_pass"):
    setattr(Strategy, _name.upper(), _constant(_name))


def register(info: JurorInfo) -> Strategy:
    """Put a spec's names on the roster (``strategies.base.register`` calls this)."""
    JURORS.load()
    JURORS.register(info)
    return _constant(info.value)


def unregister(value: str) -> None:
    """Take a strategy off the roster (tests that register a toy strategy clean up with this)."""
    JURORS.unregister(value)


MODEL_NAME = re.compile(r"[a-z][a-z0-9_-]{0,31}")  # a jury model's name: ``S1@second``, ``--jury-model second=...``


def derive(name: str) -> Strategy | None:
    """``S1@second``: the juror S1 asked of the jury model named ``second`` (a multi-model jury),
    registered here when first named, with its feeders asked of the same model (``S5-exec@second``
    reads ``S5@second``'s tests); its prompts, parsers and version are its base's (``asked_of``).
    The one operation that adds a juror by naming it.  None when ``name`` names no model or its base
    is unknown; InputError for a bad model name or a juror that asks no model."""
    base_name, _, model = name.strip().lower().partition("@")
    if not model:
        return None
    if not MODEL_NAME.fullmatch(model):
        raise InputError(f"{name!r}: a jury model's name is a letter, then letters, digits, - or _ (at most 32)",
                         field="team")
    try:
        base = parse_strategy(base_name).spec  # base_name has no "@": a lookup
    except InputError:
        return None
    if base.model is not None:
        raise InputError(f"{name!r}: {base.paper_name} already names its model", field="team")
    if base.kind not in (Kind.LLM, Kind.BASELINE) and not base.feeders:
        raise InputError(f"{name!r}: {base.paper_name} calls no model, so there is nothing to ask of {model!r}",
                         field="team")
    value = f"{base.value}@{model}"
    if JURORS.exact(value) is not None:
        return _constant(value)
    for feeder in base.feeders:
        derive(f"{feeder}@{model}")
    return register(base.asked_of(model))


def resolve(value: str) -> Strategy:
    """A juror by its value, as a run file or a pickle holds it: a registered one, or a juror asked of
    a jury model (``direct@second``), derived now if this process has not named it yet.  ValueError
    when it is neither."""
    if isinstance(value, Strategy) or JURORS.exact(str(value)) is not None:
        return Strategy(value)
    if (derived := derive(str(value))) is not None and derived.value == str(value):
        return derived
    raise ValueError(f"{value!r} is not a registered strategy")


def parse_strategy(name: str) -> Strategy:
    """Accept a strategy's name (``rethink``) or its paper alias (``S2``, ``S1-ref``), or either
    with a jury model's name (``S1@second``: S1 asked of the model named ``second``, see ``derive``).
    Every team a user gives is read by this."""
    key = name.strip().lower()
    value = JURORS.canonical(key)
    if JURORS.exact(value) is not None:
        return _constant(value)
    if (derived := derive(key)) is not None:
        return derived
    known = ", ".join([*JURORS.names(), *(i.paper_name for i in JURORS)])
    raise InputError(f"unknown strategy {name!r}; known: {known}", field="team")
