"""Each language's tree-sitter parser: one per grammar, held by its ``Language`` (issue 36)."""

from __future__ import annotations

import re

import pytest

from sejury.execution import languages
from sejury.execution.languages import Harness, Language, Suite
from sejury.execution.languages._parsers import parser

# a tiny program of each language that has a grammar
_PROGRAMS = {
    "python": "def f(x):\n    return x + 1\n",
    "javascript": "function f(x) { return x + 1; }\n",
    "java": "class P { static long f(long x) { return x + 1; } }\n",
    "cpp": "#include <vector>\nlong f(std::vector<long> v) { return v.size() + 1; }\n",
    "go": "package p\n\nfunc f(x int) int { return x + 1 }\n",
}


def _with_grammar() -> list[Language]:
    return [lang for name in languages.names() if (lang := languages.get(name)) is not None and lang.grammar]


def test_every_language_with_a_grammar_parses_its_programs_with_one_cached_parser() -> None:
    with_grammar = _with_grammar()
    assert {lang.name for lang in with_grammar} >= {"python", "javascript", "java", "cpp", "go"}
    for lang in with_grammar:
        assert lang.name in _PROGRAMS, f"give {lang.name!r} a tiny program here"
        tree = lang.parser().parse(_PROGRAMS[lang.name].encode())
        assert not tree.root_node.has_error, lang.name
        assert lang.parser() is lang.parser() is parser(lang.name)
        for alias in lang.aliases:
            assert parser(alias) is lang.parser()


def test_a_language_without_a_grammar_has_no_parser() -> None:
    toy = languages.register(Language(
        name="toyparse", aliases=(), split=lambda tests, names: Suite("", [tests]),
        defined_names=lambda program: set(), harness=lambda program, suite, active, per_test: Harness({}, "true"),
        test_line=re.compile(r"check")))
    try:
        with pytest.raises(ValueError, match="no tree-sitter grammar for 'toyparse'"):
            toy.parser()
        with pytest.raises(ValueError, match="no tree-sitter grammar for 'toyparse'"):
            parser("toyparse")
    finally:
        languages.unregister("toyparse")
    with pytest.raises(ValueError, match="no tree-sitter grammar for 'cobol'"):
        parser("cobol")
