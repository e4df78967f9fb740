"""A small error hierarchy; every message says what to do next."""

from __future__ import annotations


class SejuryError(Exception):
    """Base of every error sejury raises on purpose."""


class InputError(SejuryError, ValueError):
    """Bad input: names the file, line and field where they are known."""

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None,
                 field: str | None = None) -> None:
        self.message = message
        self.file = file
        self.line = line
        self.field = field
        super().__init__(str(self))

    def __str__(self) -> str:
        where = ""
        if self.file is not None:
            where = self.file + (f":{self.line}" if self.line is not None else "") + ": "
        elif self.line is not None:
            where = f"line {self.line}: "
        field = f"field {self.field!r}: " if self.field else ""
        return f"{where}{field}{self.message}"


class ModelError(SejuryError):
    """A model call failed.  ``transient`` errors (connection, timeout, 5xx, rate limit) are retried."""

    def __init__(self, message: str, *, transient: bool) -> None:
        self.transient = transient
        super().__init__(message)


class APIError(Exception):
    """A model call that did not return a completion, as ``OpenAICompatibleChat`` raises it.

    These classes mirror the openai SDK's (same names, same tree: ``APITimeoutError`` is an
    ``APIConnectionError``; ``RateLimitError`` and ``InternalServerError`` are ``APIStatusError``s), so
    a call's failure reads the same whichever client made it.  ``sejury.llm.is_transient`` retries
    ``APIConnectionError``, ``RateLimitError`` and ``InternalServerError``.  ``ChatClient`` wraps each
    in a ``ModelError``.
    """


class APIConnectionError(APIError):
    """The server could not be reached, or the connection broke: transient."""


class APITimeoutError(APIConnectionError):
    """The call took longer than its timeout: transient."""


class APIStatusError(APIError):
    """The server answered with an HTTP error status (4xx other than 408, 409 and 429: not transient)."""

    def __init__(self, status: int, body: str) -> None:
        super().__init__(f"Error code: {status} - {body[:1000]}")
        self.status_code = status


class RateLimitError(APIStatusError):
    """HTTP 429: transient."""


class InternalServerError(APIStatusError):
    """HTTP 5xx, 408 or 409: transient."""


class APIResponseValidationError(APIError):
    """The server answered, but not with a chat completion: not transient."""


class ModelSetupError(SejuryError):
    """The model could not be prepared (missing packages, bad checksum, server did not start)."""


class ScoreParseError(SejuryError, ValueError):
    """No valid score could be read from a reply."""


class SandboxError(SejuryError):
    """The sandbox backend is missing or failed."""
