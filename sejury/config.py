"""``JudgeConfig``: every setting of a judge, in one place.  ``Judge``, the CLI and calibration
build from it (and so will the server); environment variables ``SEJURY_<FIELD>`` give defaults::

    SEJURY_MODEL=openai:gpt-4o-mini SEJURY_TEAM=S1,S2 sejury judge examples/code_generation.json

>>> JudgeConfig(team="S1,S3", execute=True).team
[Strategy('direct'), Strategy('equivalence')]
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from sejury.errors import InputError
from sejury.schema import Scale, Strategy, TeamFile, parse_strategy
from sejury.strategies import spec
from sejury.strategies.base import MODEL_NAME

DEFAULT_PASS_MARK = 50.0


def load_team_file(path: str | Path) -> TeamFile:
    p = Path(path)
    try:
        return TeamFile.model_validate_json(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError("no such team file", file=str(p)) from None
    except ValueError as exc:
        raise InputError(f"not a valid team file: {exc}", file=str(p)) from None


def parse_team(team: Any) -> TeamFile | list[Strategy] | None:
    """A team: strategy names (a list or ``"S1,S3"``), a team file's path, or a ``TeamFile`` (or
    its JSON object, as in a dumped ``JudgeConfig``)."""
    if team is None or isinstance(team, TeamFile):
        return team
    if isinstance(team, dict):
        return TeamFile.model_validate(team)
    if isinstance(team, (str, Path)):
        text = str(team)
        if text.endswith(".json") or Path(text).is_file():
            return load_team_file(text)
        team = [t for t in text.split(",") if t.strip()]
    members = [t if isinstance(t, Strategy) else parse_strategy(str(t)) for t in team]
    if len(set(members)) != len(members):
        raise InputError("a strategy is listed twice", field="team")
    return members or None


def parse_jury_models(value: Any) -> dict[str, str]:
    """``["second=openai:gpt-4o-mini", "local=qwen@http://127.0.0.1:8000/v1"]`` (or one string,
    comma-separated, or a dict) as {name: "MODEL" or "MODEL@URL"}."""
    if value is None:
        return {}
    if isinstance(value, dict):
        items = [(str(k), str(v)) for k, v in value.items()]
    else:
        entries = value.split(",") if isinstance(value, str) else list(value)
        items = []
        for entry in (str(e).strip() for e in entries if str(e).strip()):
            name, eq, model = entry.partition("=")
            if not eq or not model.strip():
                raise InputError(f"{entry!r}: a jury model is NAME=MODEL or NAME=MODEL@URL", field="jury_models")
            items.append((name, model))
    out: dict[str, str] = {}
    for name, model in items:
        key = name.strip().lower()
        if not MODEL_NAME.fullmatch(key):
            raise InputError(f"{name!r}: a jury model's name is a letter, then letters, digits, - or _",
                             field="jury_models")
        if key in out:
            raise InputError(f"the jury model {key!r} is given twice", field="jury_models")
        out[key] = model.strip()
    return out


def split_model(value: str) -> tuple[str, str | None]:
    """A jury model's "MODEL@URL" as (model, base URL or None)."""
    model, at, url = value.partition("@http")
    return (model, "http" + url) if at else (value, None)


def missing_model(team: TeamFile | list[Strategy] | None, models: dict[str, str]) -> None:
    """Every ``S1@name`` member must name a model given with ``--jury-model name=...``."""
    members = team.strategies if isinstance(team, TeamFile) else team or []
    for s in members:
        name = spec(s.value).model
        if name is not None and name not in models:
            raise InputError(f"{s.paper_name} asks the jury model {name!r}, which is not given: add "
                             f"--jury-model {name}=MODEL (or MODEL@URL)", field="team")


class JudgeConfig(BaseSettings):
    """How to judge: the model, the team, the sandbox, the cache."""

    model_config = SettingsConfigDict(env_prefix="SEJURY_", extra="forbid", protected_namespaces=(),
                                      arbitrary_types_allowed=True)

    # the model
    model: str = "embedded"  # 'embedded', 'embedded-inprocess', 'provider:name', or a name with base_url
    base_url: str | None = None  # an OpenAI-compatible server, e.g. http://127.0.0.1:8000/v1
    api_key: str | None = Field(None, repr=False)
    model_path: Path | None = None  # another GGUF for the embedded backends
    max_tokens: int = Field(384, ge=1)  # reply cap per call
    temperature: float = Field(0.0, ge=0, le=2)  # 0: greedy; above 0 the model samples (seeded)
    timeout: float = Field(600.0, gt=0)  # seconds per call
    llm_concurrency: int | None = Field(None, ge=1)  # calls in flight (default 1 embedded, 8 otherwise)
    structured: bool | None = None  # structured output (default: off for the embedded model)
    prompt_cache_mb: int = Field(1024, ge=0)  # the embedded server's RAM prompt cache, MiB (0: off)
    # the embedded server: llama.cpp's llama-server when installed (auto), or llama-cpp-python's
    embedded_runtime: Literal["auto", "native", "python"] = "auto"
    # more models for a multi-model jury: name -> "MODEL" or "MODEL@URL" (``S1@name`` asks that one)
    jury_models: Annotated[dict[str, str], NoDecode] = Field(default_factory=dict)
    # the jury
    team: Annotated[TeamFile | list[Strategy] | None, NoDecode] = None  # None: the SE-Jury team
    scale: Annotated[Scale | None, NoDecode] = None  # map 0-100 to e.g. 1-5
    # how the members' scores merge (``sejury.merge``): evidence first (executed checks decide the side of
    # the pass mark, opinion moves the score within it), or the papers' mean; a team file may name its own
    merge: Literal["evidence_first", "mean"] = "evidence_first"
    pass_mark: float | None = Field(None, ge=0, le=100)  # passed = score >= it (default: the team file's, else 50)
    # evidence first: the graded evidence's mean (0-100) at which a candidate reaches the pass mark
    evidence_pass: float = Field(100.0, gt=0, le=100)
    parse_retries: int = Field(1, ge=0)  # repair turns after a reply with no readable score
    retry_attempts: int = Field(3, ge=1)  # attempts per member on transient model errors
    # the cache and the sandbox
    cache: bool = True
    cache_path: Path | None = None  # default ~/.cache/sejury/results.sqlite
    execute: bool = False  # really run S5's tests in the Docker sandbox
    sandbox_mode: Literal["warm", "oneshot"] = "warm"
    execution_weight: float = Field(0.75, ge=0, le=1)  # S5: share of the pass ratio in its score
    mutation_check: int = Field(0, ge=0, le=50)  # run S5's valid tests on N mutants of the reference (0: off)
    mutation_rounds: int = Field(1, ge=0, le=5)  # with it: rounds of new tests while the suite stays weak
    # the trace store: every judgment's full trace, by judgment id (`sejury trace ID`)
    traces: bool = True
    trace_path: Path | None = None  # default ~/.cache/sejury/traces.sqlite

    @field_validator("team", mode="before")
    @classmethod
    def _team(cls, v: Any) -> Any:
        return parse_team(v)

    @field_validator("jury_models", mode="before")
    @classmethod
    def _jury_models(cls, v: Any) -> Any:
        return parse_jury_models(v)

    @model_validator(mode="after")
    def _members_have_models(self) -> JudgeConfig:
        missing_model(self.team, self.jury_models)
        return self

    @field_validator("scale", mode="before")
    @classmethod
    def _scale(cls, v: Any) -> Any:
        return Scale.parse(v) if isinstance(v, str) else v

    @classmethod
    def build(cls, **settings: Any) -> JudgeConfig:
        """Like ``JudgeConfig(**settings)``, with bad settings as an ``InputError`` naming the field."""
        try:
            return cls(**settings)
        except ValidationError as exc:
            raise config_error(exc) from None

    def with_(self, **changes: Any) -> JudgeConfig:
        """A copy with some settings changed (validated)."""
        return type(self).build(**{**{k: getattr(self, k) for k in type(self).model_fields}, **changes})

    def effective_pass_mark(self) -> float:
        """``pass_mark``, else the team file's calibrated threshold, else 50."""
        if self.pass_mark is not None:
            return self.pass_mark
        if isinstance(self.team, TeamFile) and self.team.threshold is not None:
            return self.team.threshold
        return DEFAULT_PASS_MARK

    def effective_merge(self) -> Literal["evidence_first", "mean"]:
        """The team file's merge rule when it names one (a calibrated file without one was measured
        with the mean), else ``merge``."""
        if isinstance(self.team, TeamFile):
            if self.team.merge is not None:
                return self.team.merge
            if self.team.calibration:
                return "mean"
        return self.merge

    def results_path(self) -> Path:
        """The strategy-result cache file: ``cache_path``, else ``~/.cache/sejury/results.sqlite``."""
        from sejury.models.embedded import cache_dir

        return self.cache_path or cache_dir() / "results.sqlite"


def config_error(exc: ValidationError) -> InputError:
    err = exc.errors()[0]
    original = (err.get("ctx") or {}).get("error")
    if isinstance(original, InputError):
        return original
    field = ".".join(str(p) for p in err["loc"]) or None
    message = "is not a setting of the judge" if err["type"] == "extra_forbidden" else err["msg"]
    return InputError(message, field=field)
