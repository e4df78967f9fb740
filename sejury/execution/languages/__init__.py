"""The languages S5's tests run in: one module each (``python.py``, ``javascript.py``, ...) holding
its aliases, test splitting, harness and time limit as a ``LANGUAGE`` constant.  Every public module
of this folder is loaded and registered, so adding a language is adding one module.

    >>> get("js").name
    'javascript'
"""

from __future__ import annotations

import importlib
import pkgutil

from sejury.execution.languages.base import Harness, Language, Suite, wrap_units

_LANGUAGES: dict[str, Language] = {}
_ALIASES: dict[str, str] = {}


def register(language: Language) -> Language:
    for name in (language.name, *language.aliases):
        owner = _ALIASES.get(name)
        if owner is not None and owner != language.name:
            raise ValueError(f"language name {name!r} already belongs to {owner!r}")
    _LANGUAGES[language.name] = language
    _ALIASES.update({n: language.name for n in (language.name, *language.aliases)})
    return language


def unregister(name: str) -> None:
    """Remove a language (tests that add a toy language clean up with this)."""
    _LANGUAGES.pop(name, None)
    for alias in [a for a, owner in _ALIASES.items() if owner == name]:
        del _ALIASES[alias]


def canonical_language(name: str) -> str:
    """The language's registered name for any of its aliases (``js`` -> ``javascript``); other
    names are only trimmed and lower-cased."""
    key = name.strip().lower()
    return _ALIASES.get(key, key)


def get(name: str) -> Language | None:
    """The runner for a language (any alias), or None when none is registered."""
    return _LANGUAGES.get(canonical_language(name))


def names() -> tuple[str, ...]:
    return tuple(_LANGUAGES)


def _load_builtin() -> None:
    for module in pkgutil.iter_modules(__path__):
        if module.name.startswith("_") or module.name == "base":
            continue
        loaded = importlib.import_module(f"{__name__}.{module.name}")
        register(loaded.LANGUAGE)


_load_builtin()

__all__ = ["Harness", "Language", "Suite", "canonical_language", "get", "names", "register", "unregister", "wrap_units"]
