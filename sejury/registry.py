"""One registry for everything sejury looks up by name: the jurors (``roster.JURORS``), the languages
S5's tests run in (``execution.languages.LANGUAGES``) and the model backends (``models.BACKENDS``).

A registry holds items under a name and aliases (matched without regard to case or surrounding
space), kept in rank order when it has a rank.  It fills itself the first time it is read: the
public modules of its package (each registers its items itself, or holds one in a module constant
named ``attribute``), then the entry points of its group, so another package adds a juror, a
language or a backend without touching sejury, by declaring in its ``pyproject.toml``::

    [project.entry-points."sejury.languages"]
    kotlin = "my_package.kotlin"   # a module with a LANGUAGE constant (or the Language itself)

The groups are ``sejury.strategies``, ``sejury.languages`` and ``sejury.backends``.  A plug-in
that fails to load is reported (a warning naming it and the error) and the others still load.

>>> r = Registry[str]("colour", package="", group="", name=str.lower, aliases=lambda c: (c[0],))
>>> _ = r.register("Red"); r.canonical("R"), r.get(" r ") == "Red"
('red', True)
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import warnings
from collections.abc import Callable, Iterable, Iterator
from types import ModuleType
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

T = TypeVar("T")


def _none(item: object) -> tuple[str, ...]:
    return ()


class Registry(Generic[T]):
    """Items of one kind (``what``), by name and alias; see the module's docstring."""

    def __init__(self, what: str, *, package: str, group: str, name: Callable[[T], str],
                 aliases: Callable[[T], Iterable[str]] = _none, attribute: str | None = None,
                 rank: Callable[[T], float] | None = None) -> None:
        self.what, self.package, self.group, self.attribute = what, package, group, attribute
        self._name, self._aliases_of, self._rank = name, aliases, rank
        self._items: dict[str, T] = {}
        self._aliases: dict[str, str] = {}  # every accepted name, folded -> the item's name
        self._loaded = not package and not group

    # ---- filling ------------------------------------------------------------------------------

    def load(self) -> None:
        """Register the built-in items and the plug-ins, once (each read does this first).  Reads
        made while loading (a module that looks a name up as it registers) see what is in so far."""
        if self._loaded:
            return
        self._loaded = True
        if self.package:
            package = importlib.import_module(self.package)
            for module in pkgutil.iter_modules(package.__path__):
                if not module.name.startswith("_") and module.name != "base":
                    self._adopt(importlib.import_module(f"{self.package}.{module.name}"))
        if self.group:
            for point in _installed().select(group=self.group):
                try:
                    self._adopt(point.load())
                except Exception as exc:  # a broken plug-in must not take the others down
                    warnings.warn(f"sejury: the {self.what} plug-in {point.name!r} ({point.value}, entry point "
                                  f"group {self.group!r}) did not load: {type(exc).__name__}: {exc}", stacklevel=2)

    def _adopt(self, loaded: object) -> None:
        if isinstance(loaded, ModuleType):
            item = getattr(loaded, self.attribute, None) if self.attribute else None
            if item is None:
                return  # a module that registered its items as it ran
            loaded = item
        self.register(loaded)  # type: ignore[arg-type]  # a plug-in's object, checked by its use

    def register(self, item: T) -> T:
        """Add ``item`` under its name and aliases.  Registering the same object again is a no-op;
        another object under a name already taken is refused (ValueError, naming the owner)."""
        key = self._name(item)
        if (current := self._items.get(key)) is not None and current is not item:
            raise ValueError(f"a {self.what} named {key!r} is already registered")
        names = {_fold(n) for n in (key, *self._aliases_of(item))}
        for name in sorted(names):
            owner = self._aliases.get(name)
            if owner is not None and owner != key:
                raise ValueError(f"{self.what} {key!r}: the name {name!r} already belongs to {owner!r}")
        self._items[key] = item
        if self._rank is not None:
            rank = self._rank
            ordered = sorted(self._items.values(), key=rank)
            self._items = {self._name(i): i for i in ordered}
        self._aliases.update(dict.fromkeys(names, key))
        return item

    def unregister(self, name: str) -> None:
        """Remove an item and its aliases (tests that add a toy one clean up with this)."""
        self._items.pop(name, None)
        for alias in [a for a, owner in self._aliases.items() if owner == name]:
            del self._aliases[alias]

    # ---- reading ------------------------------------------------------------------------------

    def canonical(self, name: str) -> str:
        """The registered name for any accepted name; other names are only trimmed and folded."""
        self.load()
        folded = _fold(name)
        return self._aliases.get(folded, folded)

    def get(self, name: str) -> T | None:
        """The item for any accepted name, or None."""
        return self._items.get(self.canonical(name))

    def exact(self, name: str) -> T | None:
        """The item registered under exactly this name (no alias, no folding), or None."""
        self.load()
        return self._items.get(name)

    def names(self) -> tuple[str, ...]:
        self.load()
        return tuple(self._items)

    def accepted(self) -> tuple[str, ...]:
        """Every accepted name (registered names and aliases), folded."""
        self.load()
        return tuple(self._aliases)

    def __iter__(self) -> Iterator[T]:
        self.load()
        return iter(list(self._items.values()))

    def __len__(self) -> int:
        self.load()
        return len(self._items)

    def __contains__(self, name: object) -> bool:
        self.load()
        return name in self._items


class _EntryPoints(Protocol):
    def select(self, *, group: str) -> Iterable[EntryPoint]: ...


@functools.cache
def _installed() -> _EntryPoints:
    """Every installed entry point, read once for all the registries: one scan of the installs
    (~10 ms here), made when a registry is first read."""
    from importlib.metadata import entry_points

    return entry_points()


def _fold(name: str) -> str:
    return name.strip().lower()
