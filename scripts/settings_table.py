"""docs/configuration.md's tables of settings, made from the settings themselves: every field of
``JudgeConfig`` and ``ServeSettings`` with its environment variable, its command-line option, its
default and its description (the same text ``--help`` shows), so the page cannot drift.

    .venv/bin/python scripts/settings_table.py          # rewrite the tables in docs/configuration.md
    .venv/bin/python scripts/settings_table.py --check  # exit 1 if they are not current (CI)
"""

from __future__ import annotations

import argparse
import inspect
import sys
import typing
from pathlib import Path
from typing import Any

import typer

from sejury.cli.common import JURY_OPTIONS, MODEL_OPTIONS
from sejury.cli.serve import serve
from sejury.config import EnvSettings, JudgeConfig, ServeSettings

PAGE = Path(__file__).resolve().parent.parent / "docs" / "configuration.md"
BEGIN, END = "<!-- settings table: {} (made by scripts/settings_table.py) -->", "<!-- end of settings table: {} -->"


def flags(params: dict[str, inspect.Parameter]) -> dict[str, str]:
    """Each option's flags, by the setting it fills: ``--name`` unless its declarations say more."""
    out = {}
    for name, p in params.items():
        option = next((m for m in typing.get_args(p.annotation)[1:] if isinstance(m, typer.models.OptionInfo)), None)
        # with Annotated, typer takes a first string argument (the ``default`` slot) as a flag
        first = [option.default] if option and isinstance(option.default, str) else []
        decls = [d for d in [*first, *(option.param_decls if option else ())] if d.startswith("-")]
        out[name] = " ".join(f"`{d}`" for d in decls) or f"`--{name.replace('_', '-')}`"
    return out


def default(field: Any) -> str:
    value = field.default_factory() if field.default_factory is not None else field.default
    return "unset" if value is None or value == {} else f"`{value}`"


def table(settings: type[EnvSettings], options: dict[str, str]) -> str:
    prefix = settings.env_prefix
    rows = ["| setting | environment | command line | default | what it does |", "| --- | --- | --- | --- | --- |"]
    for name, field in settings.model_fields.items():
        text = (field.description or "").replace("|", "\\|")
        rows.append(f"| `{name}` | `{prefix}{name.upper()}` | {options.get(name, '—')} | {default(field)} | {text} |")
    return "\n".join(rows)


def tables() -> dict[str, str]:
    serve_params = {n: p for n, p in inspect.signature(serve).parameters.items() if n != "config"}
    judge = flags({**MODEL_OPTIONS, **JURY_OPTIONS})
    return {"judge": table(JudgeConfig, judge), "serve": table(ServeSettings, flags(serve_params))}


def render(page: str) -> str:
    for key, text in tables().items():
        begin, end = BEGIN.format(key), END.format(key)
        if begin not in page or end not in page:
            raise SystemExit(f"{PAGE}: the markers {begin!r} ... {end!r} are missing")
        head, rest = page.split(begin, 1)
        page = f"{head}{begin}\n{text}\n{end}{rest.split(end, 1)[1]}"
    return page


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the page's tables are not current")
    args = ap.parse_args()
    page = PAGE.read_text(encoding="utf-8")
    new = render(page)
    if args.check:
        if new != page:
            print(f"{PAGE} is out of date: run .venv/bin/python scripts/settings_table.py", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
