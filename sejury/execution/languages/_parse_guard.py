"""Texts too costly to parse are found in a child process, never in the judge's.

tree-sitter's error recovery is quadratic in memory on some texts: 10 kB of ``a<b<c`` in Java
takes 0.6 GB, 50 kB ~10 GB, and its time limit is checked too seldom to stop it (15.7 s for a
5 s limit).  A text over ``IN_PROCESS_BYTES`` is therefore parsed first in a ``workers.Worker``
limited to ``MEMORY`` and ``PARSE_LIMIT_MICROS`` (plus the child's start); only a text that parses
there within both is parsed in-process, where its cost is then known to be bounded (a parse is
deterministic).  Each distinct text's lasting finding (parsed, over the memory, over the grammar's
time limit) is kept by its digest, up to ``_KEEP`` of them; a stall of the helper or a helper that
did not start refuses the text this time only.

Below ``IN_PROCESS_BYTES`` the worst found (that text, 2 kB) takes ~27 MB in-process.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict

from sejury.execution.languages.base import PARSE_LIMIT_MICROS
from sejury.workers import MIB, Worker, WorkerFailed

IN_PROCESS_BYTES = 2048
MEMORY = 512 * MIB  # the child's address space; 1 MB of code in any of the five grammars takes ~70 MB
_KEEP = 1024  # findings kept (digest -> why not, or None)

_worker = Worker("sejury.execution.languages._parse_worker", memory=MEMORY,
                 seconds=PARSE_LIMIT_MICROS / 1e6 + 5, what="tree-sitter's parse")
_found: OrderedDict[tuple[str, str], str | None] = OrderedDict()
_lock = threading.Lock()


class TooCostly(ValueError):
    """A text tree-sitter cannot parse within the judge's limits; nothing of it is read."""


def check(grammar: str, data: bytes) -> None:
    """Return if ``grammar`` parses ``data`` within the limits; raise ``TooCostly`` otherwise."""
    key = (grammar, hashlib.sha256(data).hexdigest())
    with _lock:
        known = key in _found
        why = _found.get(key)
    if not known:
        why, lasting = _why_not(grammar, data)
        if lasting:  # what the text itself does; not a stall of a loaded machine or a helper that did not start
            with _lock:
                _found[key] = why
                while len(_found) > _KEEP:
                    _found.popitem(last=False)
    if why is not None:
        raise TooCostly(f"a text of {len(data):,} bytes was not read: {why}")


def _why_not(grammar: str, data: bytes) -> tuple[str | None, bool]:
    """Why the text is not to be parsed here (None: it may be), and whether that finding lasts."""
    try:
        reply = _worker.ask({"grammar": grammar, "text": data.decode("utf-8", "surrogateescape")})
    except WorkerFailed as exc:
        return str(exc), exc.deterministic
    if "error" in reply:
        return f"tree-sitter's parse failed ({reply['error']})", True
    return (None if reply.get("ok") is True else f"tree-sitter's parse took over {PARSE_LIMIT_MICROS / 1e6:g} s"), True
