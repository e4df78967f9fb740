"""``ServeSettings``: how ``sejury serve`` listens and what it lets callers do.

Environment variables ``SEJURY_SERVE_<FIELD>`` give defaults (``SEJURY_SERVE_API_KEY``,
``SEJURY_SERVE_PORT`` ...); the command line's options win.  ``SEJURY_API_KEY`` is something else:
the *model's* key (``JudgeConfig.api_key``).
"""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, SecretStr, ValidationError, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from sejury.config import config_error
from sejury.errors import InputError

__all__ = ["ServeSettings"]


class ServeSettings(BaseSettings):
    """The server's own settings; the judge's are ``JudgeConfig``'s."""

    model_config = SettingsConfigDict(env_prefix="SEJURY_SERVE_", extra="forbid")

    host: str = "127.0.0.1"  # loopback unless told otherwise
    port: int = Field(8321, ge=0, le=65535)  # 0: any free port
    # required on every route but /healthz when set: `Authorization: Bearer KEY` or `X-API-Key: KEY`
    api_key: SecretStr | None = Field(None, repr=False)
    api_key_file: Path | None = None  # the key, read from this file (stripped)
    max_body_bytes: int = Field(1_048_576, ge=1024)  # beyond: 413
    max_concurrent: int = Field(4, ge=1)  # judgments in flight; beyond: 429 with Retry-After
    allow_caller_config: bool = False  # callers may choose the team (config.configurable.team)
    shutdown_grace: int = Field(10, ge=0)  # seconds in-flight requests get after SIGTERM
    log_level: Literal["critical", "error", "warning", "info", "debug", "trace"] = "info"

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
