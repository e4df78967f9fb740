"""The child of ``_parse_guard``: parses a text with a tree-sitter grammar, within the memory limit
``workers.serve`` sets, and says whether the parse finished.

Request ``{"grammar": "tree_sitter_java", "text": ...}`` (the bytes as ``surrogateescape`` text);
reply ``{"ok": true}``, or ``{"ok": false}`` when the grammar's own time limit stopped it.
"""

from __future__ import annotations

from typing import Any

from sejury import workers
from sejury.execution.languages.base import grammar_parser


def check(request: dict[str, Any]) -> dict[str, Any]:
    data = str(request["text"]).encode("utf-8", "surrogateescape")
    try:
        grammar_parser(str(request["grammar"]), guarded=False).parse(data)
    except ValueError:  # over ``PARSE_LIMIT_MICROS``
        return {"ok": False}
    return {"ok": True}


if __name__ == "__main__":
    workers.serve(check)
