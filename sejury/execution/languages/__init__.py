"""The languages S5's tests run in: one module each (``python.py``, ``javascript.py``, ...) holding
its aliases, test splitting, harness and time limit as a ``LANGUAGE`` constant.  Every public module
of this folder is loaded and registered when a language is first looked up (not on import: a command
that validates no sample, such as ``sejury --help``, loads none of them), so adding a language is
adding one module (or, from another package, an entry point in the ``sejury.languages`` group:
``sejury.registry``).

    >>> get("js").name
    'javascript'
"""

from __future__ import annotations

from sejury.execution.languages.base import Harness, Language, Suite, wrap_units
from sejury.registry import Registry

# the registered languages, by name and alias: every public module of this folder (its ``LANGUAGE``),
# then the ``sejury.languages`` entry points (``sejury.registry``)
LANGUAGES: Registry[Language] = Registry("language", package=__name__, group="sejury.languages",
                                         attribute="LANGUAGE", name=lambda lang: lang.name,
                                         aliases=lambda lang: lang.aliases)


def register(language: Language) -> Language:
    """Add a language (a module of this folder needs no call: its ``LANGUAGE`` is read)."""
    LANGUAGES.load()
    return LANGUAGES.register(language)


def unregister(name: str) -> None:
    """Remove a language (tests that add a toy language clean up with this)."""
    LANGUAGES.unregister(name)


def canonical_language(name: str) -> str:
    """The language's registered name for any of its aliases (``js`` -> ``javascript``); other
    names are only trimmed and lower-cased."""
    return LANGUAGES.canonical(name)


def get(name: str) -> Language | None:
    """The runner for a language (any alias), or None when none is registered."""
    return LANGUAGES.get(name)


def test_name(language: str, unit: str) -> str:
    """How a verdict names a test unit: its language's ``Language.test_name`` (a unittest class's
    ``TestCases.test_x`` and body, a Jest test's titles, a JUnit ``Class.method``), else the unit."""
    lang = get(language) if language else None
    return lang.test_name(unit) if lang is not None and lang.test_name is not None else unit


def names() -> tuple[str, ...]:
    return LANGUAGES.names()


__all__ = ["LANGUAGES", "Harness", "Language", "Suite", "canonical_language", "get", "names", "register",
           "test_name", "unregister", "wrap_units"]
