"""The tree-sitter parser of a language by any of its names: the one its ``Language`` holds
(``Language.parser``), so every reader of a language's syntax shares it.

    >>> parser("py") is parser("python")
    True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sejury.execution import languages
from sejury.execution.languages.base import Parser

if TYPE_CHECKING:
    import tree_sitter as ts


def parser(language: str) -> Parser:
    """tree-sitter's parser of ``language`` (any alias), made once; a ValueError for a language
    that is not registered or has no grammar."""
    lang = languages.get(language)
    if lang is None:
        raise ValueError(f"no tree-sitter grammar for {language!r}: no such language")
    return lang.parser()


def node_text(node: ts.Node | None) -> str:
    """A syntax node's source text ("" for no node): what every reader of a grammar quotes."""
    return (node.text or b"").decode() if node is not None else ""
