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
from functools import cache
from importlib import resources

from sejury.schema import Strategy, Task

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
def _read(relpath: str) -> str:
    path = _ROOT.joinpath(relpath)
    if not path.is_file():
        raise FileNotFoundError(f"no prompt template {relpath!r} in sejury/prompts")
    return path.read_text(encoding="utf-8")


def template_path(strategy: Strategy, task: Task, step: str | None = None) -> str:
    return f"{strategy.value}/{task.value}{'.' + step if step else ''}.md"


@cache
def template(strategy: Strategy, task: Task, step: str | None = None) -> str:
    text = _read(template_path(strategy, task, step))
    return _PARTIAL.sub(lambda m: _read(f"_partials/{m.group(1)}.md").rstrip("\n"), text)


def system_prompt() -> str:
    return _read("_partials/system.md").strip()


def render(strategy: Strategy, task: Task, step: str | None = None, **values: str | None) -> str:
    """Fill a template; values are neutralised.  Raises KeyError for a missing value."""
    text = template(strategy, task, step)

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


def test_style(language: str) -> str:
    """How S5 should write tests in this language (``_partials/test_style_LANG.md``)."""
    lang = {"js": "javascript", "c++": "cpp", "golang": "go", "py": "python"}.get(language, language)
    try:
        return _read(f"_partials/test_style_{lang}.md").strip()
    except FileNotFoundError:
        return _read("_partials/test_style_any.md").strip()


# Which steps each strategy has, per task (None: a single step).  Summaries get no S5.
STEPS: dict[Strategy, tuple[str | None, ...]] = {
    Strategy.DIRECT: (None,),
    Strategy.DIRECT_REF: (None,),
    Strategy.RETHINK: (None,),
    Strategy.EQUIVALENCE: (None,),
    Strategy.REFERENCE_ANALYSIS: ("analyze", "assess"),
    Strategy.GENERATE_TESTS: ("write", "predict"),
    Strategy.VANILLA: (None,),
    Strategy.ICE_SCORE: (None,),
    Strategy.ICE_SCORE_REF: (None,),
}
# partials only some strategies use (part of their version, not of everyone's)
_OWN_PARTIALS: dict[Strategy, list[str]] = {
    Strategy.ICE_SCORE: ["_partials/repair_rubric.md"],
    Strategy.ICE_SCORE_REF: ["_partials/repair_rubric.md"],
}


def templates_for(strategy: Strategy) -> list[str]:
    return [
        template_path(strategy, task, step)
        for task in Task
        for step in STEPS[strategy]
        if not (strategy is Strategy.GENERATE_TESTS and task is Task.CODE_SUMMARIZATION)
    ]


_SHARED_PARTIALS = ["_partials/system.md", "_partials/score_format.md", "_partials/check_format.md",
                    "_partials/data_note.md", "_partials/repair.md"]


@cache
def prompt_version(strategy: Strategy) -> str:
    """A digest of the strategy's templates, the partials and the parser: part of the cache key."""
    from sejury.scoring import PARSER_VERSION, RUBRIC_PARSER_VERSION

    h = hashlib.sha256(PARSER_VERSION.encode())
    if strategy in _OWN_PARTIALS:  # the rubric strategies read their replies with the rubric parser
        h.update(RUBRIC_PARSER_VERSION.encode())
    names = [*templates_for(strategy), *_SHARED_PARTIALS, *_OWN_PARTIALS.get(strategy, [])]
    if strategy is Strategy.GENERATE_TESTS:
        names += sorted(f"_partials/{p.name}" for p in _ROOT.joinpath("_partials").iterdir()
                        if p.name.startswith("test_style_"))
    for name in names:
        h.update(name.encode())
        h.update(_read(name).encode())
    return h.hexdigest()[:12]


def prompts_version() -> str:
    """One digest over every strategy's version (shown in verdicts and team files)."""
    h = hashlib.sha256()
    for s in STEPS:
        h.update(prompt_version(s).encode())
    return h.hexdigest()[:12]
