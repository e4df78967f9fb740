"""Every setting, in one place: ``JudgeConfig`` (how to judge: ``Judge``, the CLI, calibration and
the server build from it) and ``ServeSettings`` (how ``sejury serve`` listens).  Environment
variables ``SEJURY_<FIELD>`` and ``SEJURY_SERVE_<FIELD>`` give defaults; the command line wins.
Each field's description is its documentation: the CLI's ``--help`` and ``docs/configuration.md``
are made from it.  ``SEJURY_API_KEY`` is the *model's* key, ``SEJURY_SERVE_API_KEY`` the server's::

    SEJURY_MODEL=openai:gpt-4o-mini SEJURY_TEAM=S1,S2 sejury judge examples/code_generation.json

>>> JudgeConfig(team="S1,S3", execute=True).team
[Strategy('direct'), Strategy('equivalence')]
"""

from __future__ import annotations

import ipaddress
import os
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator, model_validator

from sejury import paths
from sejury.errors import InputError
from sejury.roster import MODEL_NAME
from sejury.schema import Scale, Strategy, TeamFile, parse_strategy

DEFAULT_PASS_MARK = 50.0
DEFAULT_MERGE: Literal["evidence_first", "mean"] = "evidence_first"


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
    from sejury.strategies import spec

    members = team.strategies if isinstance(team, TeamFile) else team or []
    for s in members:
        name = spec(s.value).model
        if name is not None and name not in models:
            raise InputError(f"{s.paper_name} asks the jury model {name!r}, which is not given: add "
                             f"--jury-model {name}=MODEL (or MODEL@URL)", field="team")


class EnvSettings(BaseModel):
    """Settings whose fields not given are read from the environment, ``env_prefix`` + the field's
    name in any case (``SEJURY_TEAM`` or ``sejury_team``), then their defaults: what pydantic-settings'
    environment source does with these fields, without importing it (~90 ms of every command's
    start-up, ``bench/startup.py``).  A variable's value is a string for the field's validator:
    the fields that take a list or a mapping parse one.  ``model_validate`` reads it too (pydantic
    validates through a model's own ``__init__``), as it did with pydantic-settings."""

    model_config = ConfigDict(extra="forbid", validate_default=True, arbitrary_types_allowed=True)
    env_prefix: ClassVar[str] = ""

    def __init__(self, **settings: Any) -> None:
        super().__init__(**{**self.from_environment(), **settings})

    @classmethod
    def from_environment(cls) -> dict[str, str]:
        """The settings the environment gives: {field: the variable's value}."""
        env = {name.lower(): value for name, value in os.environ.items()}
        prefix = cls.env_prefix.lower()
        return {field: env[prefix + field] for field in cls.model_fields if prefix + field in env}


class JudgeConfig(EnvSettings):
    """How to judge: the model, the team, the sandbox, the cache."""

    model_config = ConfigDict(protected_namespaces=())
    env_prefix: ClassVar[str] = "SEJURY_"

    # every field's description is its documentation: the CLI's --help and docs/configuration.md
    # are made from it (scripts/settings_table.py)
    # the model
    model: str = Field("embedded", description=(
        "'embedded' (default: local Qwen2.5-Coder-1.5B), 'embedded-inprocess', 'provider:name' "
        "(e.g. openai:gpt-4o-mini), or a model name with --base-url."))
    base_url: str | None = Field(None, description="An OpenAI-compatible server, e.g. http://127.0.0.1:8000/v1")
    api_key: str | None = Field(None, repr=False, description="API key for --base-url or the provider.")
    model_path: Path | None = Field(None, description="Another GGUF file for the embedded backends.")
    max_tokens: int = Field(384, ge=1, description="Reply token limit per call (default 384).")
    temperature: float = Field(0.0, ge=0, le=2, description=(
        "Sampling temperature (default 0: greedy). Above 0 the model samples, seeded: "
        "`sejury batch --repeats K` measures how much a verdict moves."))
    timeout: float = Field(600.0, gt=0, description="Seconds a model call may take.")
    llm_concurrency: int | None = Field(None, ge=1, description=(
        "Max LLM calls in flight (default 1 embedded, 8 otherwise)."))
    structured: bool | None = Field(None, description=(
        "Ask for structured output (default: off for the embedded model, on for provider:name)."))
    prompt_cache_mb: int = Field(1024, ge=0, description=(
        "The embedded server's RAM prompt cache in MiB (default 1024; 0: off)."))
    embedded_runtime: Literal["auto", "native", "python"] = Field("auto", description=(
        "The embedded model's server: auto (default: llama.cpp's llama-server when setup.sh built it), "
        "native, or python (llama-cpp-python's)."))
    jury_models: dict[str, str] = Field(default_factory=dict, description=(
        "Another model for a multi-model jury, NAME=MODEL or NAME=MODEL@URL (repeatable); a member "
        "S1@NAME is S1 asked of it (e.g. --jury-model second=qwen@http://127.0.0.1:8000/v1 --team S1,S1@second)."))
    # the jury
    team: TeamFile | list[Strategy] | None = Field(None, description=(
        "Comma-separated strategies by name or paper name (e.g. S1,S2,S5 or direct,rethink; "
        "'sejury strategies' lists them), or a team file (.json). Default: the SE-Jury team, all that apply."))
    scale: Scale | None = Field(None, description="Map 0-100 to a target scale, e.g. 1-5 or 0-4.")
    merge: Literal["evidence_first", "mean"] | None = Field(None, description=(
        "How the members' scores merge: evidence_first (default: executed checks decide the side of the pass "
        "mark, a failing own test or a candidate that does not load keeps it below; opinion moves the score "
        "within that side) or mean (the papers' mean). Default: the team file's rule, else evidence_first."))
    pass_mark: float | None = Field(None, ge=0, le=100, description=(
        "A score at or above it passes (default: the team file's calibrated mark, else 50)."))
    evidence_pass: float = Field(100.0, gt=0, le=100, description=(
        "Evidence first: the executed checks' mean (0-100) at which a candidate reaches the pass mark "
        "(default 100: every check holds)."))
    parse_retries: int = Field(1, ge=0, description=(
        "Repair turns after a reply with no readable score (default 1)."))
    retry_attempts: int = Field(3, ge=1, description="Attempts per member on transient model errors.")
    # the cache and the sandbox
    cache: bool = Field(True, description="Reuse cached strategy results (default: yes).")
    cache_path: Path | None = Field(None, description="Cache file (default ~/.cache/sejury/results.sqlite).")
    execute: bool = Field(False, description=(
        "Really run S5's tests in the Docker sandbox: validated on the reference, then run on the candidate "
        "(default: no)."))
    sandbox_mode: Literal["warm", "oneshot"] = Field("warm", description=(
        "warm (default: a pool of running containers) or oneshot (one per run)."))
    execution_weight: float = Field(0.75, ge=0, le=1, description=(
        "S5: share of the execution pass ratio in its score (default 0.75)."))
    mutation_check: int = Field(0, ge=0, le=50, description=(
        "With --execute: also run S5's valid tests on N one-bug mutants of the reference and record their "
        "mutation score in the verdict; a weak suite gets second rounds of tests, counts less in the team's "
        "mean and is flagged for review (default 0: off)."))
    mutation_rounds: int = Field(1, ge=0, le=5, description=(
        "With --mutation-check: while S5's suite kills under 75 % of the mutants, show the model a survivor "
        "and add the tests it writes that pass on the reference, up to N rounds (default 1; 0: none)."))
    # the trace store: every judgment's full trace, by judgment id (`sejury trace ID`)
    traces: bool = Field(True, description="Store each judgment's full trace (default: yes; `sejury trace ID`).")
    trace_path: Path | None = Field(None, description="Trace store (default ~/.cache/sejury/traces.sqlite).")

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
        """``merge``, else the team file's rule when it names one (a calibrated file without one was
        measured with the mean), else evidence first."""
        if self.merge is not None:
            return self.merge
        return self.team.merge_rule(DEFAULT_MERGE) if isinstance(self.team, TeamFile) else DEFAULT_MERGE

    def results_path(self) -> Path:
        """The strategy-result cache file: ``cache_path``, else ``~/.cache/sejury/results.sqlite``."""
        return self.cache_path or paths.results_path()


def judge_config(first: Any, config: JudgeConfig | None, settings: dict[str, Any]) -> tuple[Any, JudgeConfig]:
    """``Judge``'s arguments as (the model object it was handed, if any; its settings): a name first
    is the ``model`` setting and a ``JudgeConfig`` first is ``config`` (it was once taken for a model
    and dropped); ``cache="path"`` is that cache file; keywords override the config's fields."""
    if isinstance(first, JudgeConfig):
        if config is not None:
            raise TypeError("Judge takes one JudgeConfig: first or as config=, not both")
        first, config = None, first
    if isinstance(first, str):
        settings["model"] = first
    if isinstance(settings.get("cache"), (str, Path)):  # Judge(cache="path/to/results.sqlite")
        settings["cache_path"], settings["cache"] = Path(settings["cache"]), True
    return first, (config.with_(**settings) if config is not None else JudgeConfig.build(**settings))


def config_error(exc: ValidationError) -> InputError:
    err = exc.errors()[0]
    original = (err.get("ctx") or {}).get("error")
    if isinstance(original, InputError):
        return original
    field = ".".join(str(p) for p in err["loc"]) or None
    message = "is not a setting of the judge" if err["type"] == "extra_forbidden" else err["msg"]
    return InputError(message, field=field)


class ServeSettings(EnvSettings):
    """The server's own settings; the judge's are ``JudgeConfig``'s."""

    env_prefix: ClassVar[str] = "SEJURY_SERVE_"

    host: str = Field("127.0.0.1", description="Address to listen on (default 127.0.0.1: this machine only).")
    port: int = Field(8321, ge=0, le=65535, description="Port (default 8321; 0: any free port).")
    api_key: SecretStr | None = Field(None, repr=False, description=(
        "The API key callers must send on every route but /healthz (Authorization: Bearer KEY or "
        "X-API-Key: KEY). Not SEJURY_API_KEY: that one is the model's key."))
    api_key_file: Path | None = Field(None, description=(
        "A file holding the API key callers must send (Authorization: Bearer KEY or X-API-Key: KEY); "
        "or set SEJURY_SERVE_API_KEY. Not SEJURY_API_KEY: that one is the model's key."))
    max_body_bytes: int = Field(1_048_576, ge=1024, description="Request body limit (default 1 MiB); beyond it 413.")
    max_concurrent: int = Field(4, ge=1, description=(
        "Judgments in flight at most (default 4); beyond it callers get 429 with Retry-After."))
    allow_caller_config: bool = Field(False, description=(
        "Let callers choose the team (config.configurable.team). The model, the sandbox and the cache "
        "are never theirs to choose."))
    shutdown_grace: int = Field(10, ge=0, description=(
        "Seconds requests in flight get to finish after SIGTERM (default 10)."))
    log_level: Literal["critical", "error", "warning", "info", "debug", "trace"] = Field("info", description=(
        "critical, error, warning, info (default), debug."))

    @model_validator(mode="after")
    def _key_from_file(self) -> ServeSettings:
        if self.api_key_file is None:
            if self.api_key is not None and not self.api_key.get_secret_value().strip():
                raise ValueError("the API key is empty")
            return self
        if self.api_key is not None:
            raise ValueError("give the API key once: SEJURY_SERVE_API_KEY or --api-key-file, not both")
        try:
            key = self.api_key_file.read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise ValueError(f"cannot read the API key file {self.api_key_file}: {exc.strerror}") from None
        if not key:
            raise ValueError(f"the API key file {self.api_key_file} is empty")
        self.api_key = SecretStr(key)
        return self

    @property
    def key(self) -> str | None:
        return self.api_key.get_secret_value() if self.api_key is not None else None

    @property
    def loopback(self) -> bool:
        """Only this machine can connect."""
        if self.host == "localhost":
            return True
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return False

    @classmethod
    def build(cls, **settings: Any) -> ServeSettings:
        """Like ``ServeSettings(**settings)``, with bad settings as an ``InputError`` naming the field."""
        try:
            return cls(**settings)
        except ValidationError as exc:
            err = exc.errors()[0]
            if not err["loc"]:  # the model validator: it is about the key
                raise InputError(str(err["msg"]).removeprefix("Value error, "), field="api_key") from None
            raise config_error(exc) from None
