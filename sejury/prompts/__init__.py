"""Prompt templates are data: one file per strategy x task (x step) under this folder.

Template syntax (deliberately tiny, so code in the data never clashes with it):
- ``{{name}}`` inserts a value; every value is neutralised first (see ``neutralise``).
- ``{{#name}} ... {{/name}}`` keeps the section only when ``name`` is non-empty.
- ``{{> partial}}`` inserts ``_partials/partial.md``.

A missing value or an unknown placeholder is an error, not an empty string.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from functools import cache
from importlib import resources
from pathlib import Path

from sejury.schema import Task

_ROOT = resources.files(__package__)
_PLACEHOLDER = re.compile(r"\{\{\s*([a-z_0-9]+)\s*\}\}")
_SECTION = re.compile(r"\{\{#([a-z_0-9]+)\}\}(.*?)\{\{/\1\}\}", re.DOTALL)
_PARTIAL = re.compile(r"\{\{>\s*([a-z_0-9]+)\s*\}\}")
# Our data blocks are fenced by "[BEGIN X]" / "[END X]"; the same markers inside data are defused
# so a candidate cannot close its block early and speak as the instructions.
_MARKER = re.compile(r"\[(\s*)(BEGIN|END)\b", re.IGNORECASE)


def neutralise(value: str) -> str:
    """Defuse block markers in model-controlled text: ``[END CANDIDATE]`` -> ``(END CANDIDATE]``."""
    return _MARKER.sub(lambda m: "(" + m.group(1) + m.group(2), value)


@cache
def _read(relpath: str, root: str | None = None) -> str:
    """A prompt file from ``root`` (a strategy shipped outside sejury keeps its templates there;
    partials it does not have come from sejury's own), else from this folder."""
    if root is not None:
        own = Path(root) / relpath
        if own.is_file():
            return own.read_text(encoding="utf-8")
        if not relpath.startswith("_partials/"):
            raise FileNotFoundError(f"no prompt template {relpath!r} in {root}")
    path = _ROOT.joinpath(relpath)
    if not path.is_file():
        raise FileNotFoundError(f"no prompt template {relpath!r} in sejury/prompts")
    return path.read_text(encoding="utf-8")


def template_path(strategy: str, task: Task, step: str | None = None) -> str:
    """``<strategy>/<task>[.<step>].md``: where a strategy's template for a task (and step) lives."""
    return f"{strategy}/{task.value}{'.' + step if step else ''}.md"


@cache
def template(strategy: str, task: Task, step: str | None = None, root: str | None = None) -> str:
    text = _read(template_path(strategy, task, step), root)
    return _PARTIAL.sub(lambda m: _read(f"_partials/{m.group(1)}.md", root).rstrip("\n"), text)


def placeholders(strategy: str, task: Task, step: str | None = None, root: str | None = None) -> set[str]:
    """The value names a template reads (``{{name}}`` and ``{{#name}}`` sections)."""
    text = template(strategy, task, step, root)
    return {m.group(1) for m in _PLACEHOLDER.finditer(text)} | {m.group(1) for m in _SECTION.finditer(text)}


def system_prompt() -> str:
    return _read("_partials/system.md").strip()


def render(strategy: str, task: Task, step: str | None = None, *, root: str | None = None,
           **values: str | None) -> str:
    """Fill a template; values are neutralised.  Raises KeyError for a missing value."""
    text = template(strategy, task, step, root)

    def section(m: re.Match[str]) -> str:
        return m.group(2) if values.get(m.group(1)) else ""

    text = _SECTION.sub(section, text)

    def value(m: re.Match[str]) -> str:
        name = m.group(1)
        if name not in values or values[name] is None:
            raise KeyError(f"template {template_path(strategy, task, step)} needs {name!r}")
        return neutralise(str(values[name]))

    return re.sub(r"\n{3,}", "\n\n", _PLACEHOLDER.sub(value, text)).strip() + "\n"


def render_partial(name: str, **values: str) -> str:
    """Fill a partial (``_partials/NAME.md``), e.g. the repair turn."""
    text = _read(f"_partials/{name}.md")
    return _PLACEHOLDER.sub(lambda m: neutralise(values[m.group(1)]), text).strip()


def test_style(language: str, profile: str = "base") -> str:
    """How S5 should write tests in this language (``_partials/test_style_LANG.md``; ``Sample``
    has already turned an alias such as ``js`` into the language's name), for code of the sandbox
    ``profile`` it runs in (``test_style_python_scientific.md``: library-heavy Python)."""
    for name in ([f"test_style_{language}_{profile}"] if profile != "base" else []) + [f"test_style_{language}"]:
        try:
            return _read(f"_partials/{name}.md").strip()
        except FileNotFoundError:
            pass
    return _read("_partials/test_style_any.md").strip()


# The partials every prompt strategy's version covers (a strategy adds its own in its spec).
# (and the sample's data blocks, which every juror's prompt starts with)
SHARED_PARTIALS = ("_partials/system.md", "_partials/score_format.md", "_partials/check_format.md",
                   "_partials/data_note.md", "_partials/repair.md",
                   *(f"_partials/{part}_{task.value}.md" for part in ("problem", "reference", "candidate")
                     for task in Task))


def partials_named(prefix: str) -> tuple[str, ...]:
    """Every partial whose name starts with ``prefix`` (e.g. S5's ``test_style_`` files), sorted."""
    return tuple(sorted(f"_partials/{p.name}" for p in _ROOT.joinpath("_partials").iterdir()
                        if p.name.startswith(prefix)))


def digest(paths: Sequence[str], seeds: Sequence[str] = (), root: str | None = None) -> str:
    """A 12-hex digest of ``seeds`` (parser versions) then each file's name and text: the prompt
    part of a cache key, so editing a template invalidates exactly the results that used it."""
    h = hashlib.sha256()
    for seed in seeds:
        h.update(seed.encode())
    for name in paths:
        h.update(name.encode())
        h.update(_read(name, root).encode())
    return h.hexdigest()[:12]
