"""``create_app``: the FastAPI app around one ``Judge`` (one model client, one sandbox pool, one
cache), which it closes when the server shuts down.

    GET  /healthz               no key needed: {"status": "ok", "model": ..., "execute": ...}
    POST /judge/invoke | batch | stream | stream_log, GET /judge/*_schema, /judge/playground/
                                the judge, by LangServe (``routes.py``)
    GET  /judge/event_schema    the JSON schema of a /judge/stream chunk (``JudgeEvent``)
    POST /rank                  {"problem", "candidates", ..., "tie_break"} -> a Ranking and its "summary",
                                the rank tool's words (needs --execute)
    POST /compare               {"problem", "a", "b", ...} -> a Comparison and its "summary" (needs --execute)
    GET  /docs, /openapi.json   OpenAPI (with a key set, these need it too, like the playground)
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, TypeVar

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ValidationError
from starlette.exceptions import HTTPException

from sejury import __version__
from sejury.config import ServeSettings
from sejury.errors import InputError
from sejury.rank.integrations import CompareReply, RankReply, compare_reply, compare_request, rank_reply, rank_request
from sejury.rank.records import CompareRequest, RankRequest
from sejury.serve.middleware import CatchAll, JudgmentGate, LimitBody, RequireKey, Slots, error_body
from sejury.serve.routes import add_judge_routes, validation_field
from sejury.serve.runnable import JudgeEvent, JudgeRunnable

if TYPE_CHECKING:
    from sejury.api import Judge

__all__ = ["create_app"]

log = logging.getLogger("sejury.serve")
PATH = "/judge"
Done = TypeVar("Done", bound=BaseModel)


def create_app(judge: Judge, settings: ServeSettings | None = None) -> FastAPI:
    """The server's app; it owns ``judge`` from now on and closes it at shutdown."""
    settings = settings or ServeSettings()
    slots = Slots(settings.max_concurrent)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        try:
            yield
        finally:
            log.info("closing the judge")
            await judge.aclose()  # the sandbox's containers; the cache; the trace store

    app = FastAPI(title="sejury", version=__version__, lifespan=lifespan, redoc_url=None,
                  description="An LLM jury for generated code: POST a Sample to /judge/invoke, get a Verdict.")
    app.state.judge = judge
    app.state.slots = slots
    app.state.settings = settings

    runnable = JudgeRunnable(judge, allow_team=settings.allow_caller_config)
    preflight = add_judge_routes(app, runnable, PATH, allow_team=settings.allow_caller_config)

    @app.get("/healthz", tags=["server"])
    async def healthz() -> dict[str, Any]:
        return {"status": "ok", "model": judge.llm.name, "execute": judge.config.execute}

    @app.get(f"{PATH}/event_schema", tags=[PATH.strip("/")])
    async def event_schema() -> dict[str, Any]:
        """The JSON schema of each `data` event of /judge/stream."""
        return JudgeEvent.model_json_schema()

    async def in_a_slot(work: Callable[[], Awaitable[Done]], words: Callable[[Done], BaseModel],
                        trace: bool) -> dict[str, Any]:
        """A ranking or a comparison: it runs the attempts, so it needs the sandbox, and it holds one
        judgment slot while it runs; the answer is the record with its tool's words (``words``)."""
        if not judge.config.execute:
            raise HTTPException(503, "this server runs without the sandbox (start it with --execute): ranking "
                                     "and comparing run the attempts")
        async with slots.held(1):
            done = await work()
        return words(done).model_dump(mode="json", exclude=None if trace else {"events"})

    # the answer is built as the model says (rank_reply, compare_reply) and dumped without the trace
    # unless asked: the model documents it, FastAPI does not validate it again
    @app.post("/rank", tags=["rank"], response_model=None,
              responses={200: {"model": RankReply, "description": "The ranking, and the rank tool's words for it"}})
    async def rank(req: RankRequest, trace: bool = False) -> dict[str, Any]:
        """Rank the attempts at one problem, best first (``Judge.rank``); ``"tie_break": "model"`` lets
        the model choose among different behaviours that share the top score; ``?trace=true`` keeps the
        model calls and the sandbox runs (``events``).  ``summary`` is the ranking in the words the rank
        tool gives an agent: ``CHOSEN: attempt N``, the tie-break's line if asked for, then each attempt's
        score and evidence, best first."""
        return await in_a_slot(lambda: rank_request(judge, req), rank_reply, trace)

    @app.post("/compare", tags=["rank"], response_model=None,
              responses={200: {"model": CompareReply,
                               "description": "The comparison, and the compare tool's words for it"}})
    async def compare(req: CompareRequest, trace: bool = False) -> dict[str, Any]:
        """Which of two attempts is right (``Judge.compare``); ``?trace=true`` keeps the calls and runs.
        ``summary`` is the comparison in the words the compare tool gives an agent: ``BETTER: a``,
        ``BETTER: b`` or ``TIE`` and what decided it, then each attempt's evidence."""
        return await in_a_slot(lambda: compare_request(judge, req), compare_reply, trace)

    _add_error_handlers(app)
    # outermost last: CatchAll -> RequireKey -> LimitBody -> JudgmentGate -> the routes
    app.add_middleware(JudgmentGate, slots=slots, preflight=preflight)
    app.add_middleware(LimitBody, max_bytes=settings.max_body_bytes)
    if settings.key is not None:
        app.add_middleware(RequireKey, key=settings.key)
    app.add_middleware(CatchAll)
    return app


def _add_error_handlers(app: FastAPI) -> None:
    """Client errors as ``{"error", "field"}`` JSON, never a stack trace; LangServe's 422s are 400s."""

    @app.exception_handler(RequestValidationError)
    async def request_invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = list(exc.errors())
        first = errors[0] if errors else "invalid request"
        if not isinstance(first, dict):  # LangServe's ["Invalid JSON body"]
            return JSONResponse(error_body(str(first)), status_code=400)
        loc = [str(p) for p in first.get("loc", ()) if p != "body"]
        return JSONResponse(error_body(str(first.get("msg", "invalid")), ".".join(loc) or None), status_code=400)

    @app.exception_handler(ValidationError)
    async def model_invalid(request: Request, exc: ValidationError) -> JSONResponse:
        message, field = validation_field(exc)
        return JSONResponse(error_body(message, field), status_code=400)

    @app.exception_handler(InputError)
    async def input_error(request: Request, exc: InputError) -> JSONResponse:
        return JSONResponse(error_body(exc.message, exc.field), status_code=400)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        status = 400 if exc.status_code == 422 else exc.status_code
        return JSONResponse(error_body(str(exc.detail)), status_code=status, headers=exc.headers)
