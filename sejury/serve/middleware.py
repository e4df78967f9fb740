"""The server's guards, as pure ASGI middlewares (Starlette's ``BaseHTTPMiddleware`` would buffer
the stream endpoint's events).  Outermost first:

- ``CatchAll``: a ``RequestError`` becomes its JSON answer; anything unexpected becomes
  ``500 {"error": "internal error", "id": ...}``, the traceback only in the server log under that id.
- ``RequireKey``: every route but ``/healthz`` needs the key, when one is set (401 otherwise).
- ``LimitBody``: bodies over the limit are refused (413), by ``Content-Length`` or by counting.
- ``JudgmentGate``: on the judgment routes, reads and checks the body (``Preflight``), then takes
  one slot per judgment (a batch of N takes N or is refused whole: 429 with ``Retry-After``) and
  gives them back when the response is done, streamed or not.  Nothing waits in a queue.

Every error body is JSON: ``{"error": message, "field": dotted path or null}``.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import logging
import math
import time
import uuid
from collections.abc import AsyncIterator, Sequence
from typing import Any, Protocol

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CatchAll", "JudgmentGate", "LimitBody", "Preflight", "RequestError", "RequireKey", "Slots",
           "error_body", "send_json"]

log = logging.getLogger("sejury.serve")


class RequestError(Exception):
    """A request refused, with the status, the message and the field at fault."""

    def __init__(self, status: int, message: str, *, field: str | None = None,
                 headers: Sequence[tuple[str, str]] = ()) -> None:
        self.status = status
        self.message = message
        self.field = field
        self.headers = list(headers)
        super().__init__(message)


def error_body(message: str, field: str | None = None) -> dict[str, Any]:
    return {"error": message, "field": field}


async def send_json(send: Send, status: int, payload: dict[str, Any],
                    headers: Sequence[tuple[str, str]] = ()) -> None:
    body = json.dumps(payload).encode()
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
           *((k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers)]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


class CatchAll:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = ended = False

        async def tracking_send(message: Message) -> None:
            nonlocal started, ended
            if message["type"] == "http.response.start":
                started = True
            elif message["type"] == "http.response.body" and not message.get("more_body", False):
                ended = True
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except RequestError as exc:
            if started:
                raise
            await send_json(send, exc.status, error_body(exc.message, exc.field), exc.headers)
        except Exception:
            error_id = uuid.uuid4().hex
            log.exception("internal error %s on %s %s", error_id, scope.get("method"), scope.get("path"))
            if not started:
                await send_json(send, 500, {"error": "internal error", "id": error_id})
            elif not ended:  # a stream under way (LangServe has sent its `error` event): end it properly
                with contextlib.suppress(Exception):  # the client may be gone already
                    await send({"type": "http.response.body", "body": b"", "more_body": False})


def _header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return bytes(value)
    return None


class RequireKey:
    """``Authorization: Bearer KEY`` or ``X-API-Key: KEY``, compared in constant time."""

    def __init__(self, app: ASGIApp, key: str, *, public: Sequence[str] = ("/healthz",)) -> None:
        self.app = app
        self.key = key.encode()
        self.public = frozenset(public)

    def _presented(self, scope: Scope) -> bytes | None:
        auth = _header(scope, b"authorization")
        if auth is not None:
            scheme, _, token = auth.partition(b" ")
            if scheme.lower() == b"bearer":
                return token.strip()
        return _header(scope, b"x-api-key")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in self.public:
            await self.app(scope, receive, send)
            return
        presented = self._presented(scope)
        if presented is None or not hmac.compare_digest(presented, self.key):
            message = ("an API key is required: `Authorization: Bearer KEY` or `X-API-Key: KEY`"
                       if presented is None else "wrong API key")
            raise RequestError(401, message, headers=[("WWW-Authenticate", "Bearer")])
        await self.app(scope, receive, send)


class LimitBody:
    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    def _too_large(self) -> RequestError:
        return RequestError(413, f"the request body is over this server's limit of {self.max_bytes} bytes")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = _header(scope, b"content-length")
        if length is not None:
            try:
                declared = int(length)
            except ValueError:
                raise RequestError(400, "Content-Length is not a number") from None
            if declared > self.max_bytes:
                raise self._too_large()
        received = 0

        async def counting_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise self._too_large()
            return message

        await self.app(scope, counting_receive, send)


class Slots:
    """Judgments in flight, at most ``limit``; taken and given on the server's one event loop."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.in_use = 0
        self._mean_seconds: float | None = None  # a running mean of how long a request held its slots

    def try_take(self, n: int) -> bool:
        if self.in_use + n > self.limit:
            return False
        self.in_use += n
        return True

    def give(self, n: int, seconds: float) -> None:
        self.in_use -= n
        m = self._mean_seconds
        self._mean_seconds = seconds if m is None else 0.8 * m + 0.2 * seconds

    @contextlib.asynccontextmanager
    async def held(self, n: int) -> AsyncIterator[None]:
        """``n`` slots for the block, given back after it (its time feeds ``retry_after``); when
        they are not free, 429 with ``Retry-After`` and the block does not run."""
        if not self.try_take(n):
            raise RequestError(429, f"busy: {self.in_use} of {self.limit} judgments in flight; retry later",
                               headers=[("Retry-After", str(self.retry_after()))])
        start = time.perf_counter()
        try:
            yield
        finally:
            self.give(n, time.perf_counter() - start)

    def retry_after(self) -> int:
        """Seconds a refused caller should wait: about one judgment's time, 1 to 600."""
        return min(600, max(1, math.ceil(self._mean_seconds or 1.0)))


class Preflight(Protocol):
    """What the gate needs to know of the judgment routes' protocol (``routes.py``)."""

    def applies(self, scope: Scope) -> bool:
        """Is this request a judgment (it runs the judge)?"""

    def judgments(self, path: str, body: bytes) -> int:
        """Check the body (``RequestError`` naming the field at fault); how many judgments it asks for."""


async def _read_body(receive: Receive) -> bytes:
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise RequestError(400, "the client went away before sending the whole body")
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


class JudgmentGate:
    def __init__(self, app: ASGIApp, slots: Slots, preflight: Preflight) -> None:
        self.app = app
        self.slots = slots
        self.preflight = preflight

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self.preflight.applies(scope):
            await self.app(scope, receive, send)
            return
        body = await _read_body(receive)
        n = self.preflight.judgments(scope["path"], body)
        if n > self.slots.limit:
            raise RequestError(413, f"{n} judgments in one request; this server runs at most "
                                    f"{self.slots.limit} at once: send smaller batches", field="inputs")
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # after the body: wait for the disconnect, as the app expects

        async with self.slots.held(n):
            await self.app(scope, replay, send)
