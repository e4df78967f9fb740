"""The judgment routes, by LangServe: the only module that imports it, so it can be swapped.

LangServe (maintenance mode upstream: bug fixes only) publishes a ``Runnable`` under ``path``:

    POST {path}/invoke       {"input": Sample, "config": {...}}      -> {"output": Verdict, "metadata": ...}
    POST {path}/batch        {"inputs": [Sample, ...], "config": ...} -> {"output": [Verdict, ...], ...}
    POST {path}/stream       {"input": Sample}  -> server-sent events: `metadata`, then one `data` event
                             per chunk (here a JudgeEvent: each juror, then the verdict), then `end`
                             (or `error`, which carries no detail: the server log has it)
    POST {path}/stream_log   the same chunks as JSON patches (LangServe's playground reads this one)
    GET  {path}/input_schema | output_schema | config_schema, {path}/playground/

``stream_events`` and the config-hash variants are off.  LangServe's own request checks answer
422 with its own shapes; ``LangServePreflight`` checks each judgment request first (JSON, the
samples, the config) so that callers get 400 naming the field, and counts its judgments for the
concurrency gate.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI
from langchain_core.runnables import Runnable
from langserve import add_routes
from pydantic import ValidationError
from starlette.types import Scope

from sejury.errors import InputError
from sejury.schema import Sample, parse_strategy
from sejury.serve.middleware import RequestError
from sejury.serve.runnable import TEAM_KEY

__all__ = ["LangServePreflight", "add_judge_routes", "validation_field"]

ENDPOINTS = ("invoke", "batch", "stream", "stream_log", "input_schema", "output_schema", "config_schema",
             "playground")
JUDGING = {"invoke": "input", "stream": "input", "stream_log": "input", "batch": "inputs"}


def add_judge_routes(app: FastAPI, runnable: Runnable[Any, Any], path: str = "/judge", *,
                     allow_team: bool = False) -> LangServePreflight:
    """Publish ``runnable`` under ``path``; returns the check its judgment requests go through."""
    add_routes(app, runnable, path=path, enabled_endpoints=list(ENDPOINTS),  # type: ignore[arg-type]
               enable_feedback_endpoint=False, enable_public_trace_link_endpoint=False,
               include_callback_events=False)
    return LangServePreflight(path, allow_team=allow_team)


def validation_field(exc: ValidationError, prefix: str | None = None) -> tuple[str, str | None]:
    """The first error's message and its dotted field (``input.candidate``, ``inputs.2.task``)."""
    err = exc.errors()[0]
    original = (err.get("ctx") or {}).get("error")
    message = original.message if isinstance(original, InputError) else str(err["msg"])
    parts = [prefix] if prefix else []
    parts += [str(p) for p in err["loc"]]
    return message, ".".join(parts) or None


class LangServePreflight:
    """Checks a judgment request's body as LangServe's protocol shapes it."""

    def __init__(self, path: str, *, allow_team: bool) -> None:
        self.path = path.rstrip("/")
        self.allow_team = allow_team
        self.routes = {f"{self.path}/{name}": key for name, key in JUDGING.items()}

    def applies(self, scope: Scope) -> bool:
        return scope.get("method") == "POST" and scope["path"] in self.routes

    def judgments(self, path: str, body: bytes) -> int:
        data = _json(body)
        key = self.routes[path]
        config = data.get("config")
        if key == "inputs":
            inputs = data.get("inputs")
            if not isinstance(inputs, list):
                raise RequestError(400, "a list of samples is required" if inputs is None
                                   else "must be a list of samples", field="inputs")
            if isinstance(config, list):
                if len(config) != len(inputs):
                    raise RequestError(400, f"{len(config)} configs for {len(inputs)} inputs", field="config")
                for i, c in enumerate(config):
                    self._config(c, f"config.{i}")
            else:
                self._config(config, "config")
            for i, item in enumerate(inputs):
                _sample(item, f"inputs.{i}")
            return len(inputs)
        self._config(config, "config")
        if "input" not in data:
            raise RequestError(400, "a sample is required", field="input")
        _sample(data["input"], "input")
        return 1

    def _config(self, config: Any, where: str) -> None:
        """Only ``configurable.team`` may be set, and only when allowed.  Other top-level keys
        (tags, metadata ... which LangChain's client always sends) are dropped by LangServe."""
        if config is None:
            return
        if not isinstance(config, dict):
            raise RequestError(400, "must be an object", field=where)
        configurable = config.get("configurable")
        if not configurable:
            return
        if not isinstance(configurable, dict):
            raise RequestError(400, "must be an object", field=f"{where}.configurable")
        for name, value in configurable.items():
            field = f"{where}.configurable.{name}"
            if name != TEAM_KEY:
                raise RequestError(400, "callers cannot set this: the model, the sandbox and the cache are the "
                                        "server's; only 'team' may be chosen, when the server allows it",
                                   field=field)
            if not self.allow_team:
                raise RequestError(400, "this server does not let callers choose the team "
                                        "(its operator can allow it: sejury serve --allow-caller-config)",
                                   field=field)
            _team(value, field)


def _json(body: bytes) -> dict[str, Any]:
    try:
        data = json.loads(body)
    except UnicodeDecodeError:
        raise RequestError(400, "the body is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise RequestError(400, f"the body is not valid JSON: {exc.msg} (line {exc.lineno}, "
                                f"column {exc.colno})") from None
    if not isinstance(data, dict):
        raise RequestError(400, 'the body must be a JSON object, e.g. {"input": {...sample...}}')
    return data


def _sample(item: Any, where: str) -> None:
    try:
        Sample.model_validate(item)
    except ValidationError as exc:
        message, field = validation_field(exc, where)
        raise RequestError(400, message, field=field) from None
    except InputError as exc:
        raise RequestError(400, exc.message, field=f"{where}.{exc.field}" if exc.field else where) from None


def _team(value: Any, field: str) -> None:
    if value is None:
        return
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RequestError(400, 'must be a list of strategy names, e.g. ["S1", "S3"]', field=field)
    try:
        members = [parse_strategy(v) for v in value]
    except InputError as exc:
        raise RequestError(400, exc.message, field=field) from None
    if len(set(members)) != len(members):
        raise RequestError(400, "a strategy is listed twice", field=field)
