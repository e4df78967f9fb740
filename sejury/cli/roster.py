"""``sejury strategies``: every registered juror, read from its spec (a new strategy module shows
up here, in ``--team`` and in the graph with no other change).  The specs load when the command
runs; their modules import no LangChain, LangGraph or model client (those load with the first call)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import typer
from rich.markup import escape
from rich.padding import Padding
from rich.table import Table

from sejury.cli.common import out
from sejury.cli.render import WIDE
from sejury.schema import Sample, Task

if TYPE_CHECKING:
    from sejury.strategies.base import StrategySpec


def _needs_reference(s: StrategySpec) -> bool:
    task = s.tasks[0]
    bare = Sample(id="?", task=task, problem="p", candidate="c")
    return s.applies(bare) is not None and s.applies(bare.model_copy(update={"reference": "r"})) is None


def _needs(s: StrategySpec) -> str:
    from sejury.strategies import spec

    parts = ["reference"] if _needs_reference(s) else []
    parts += [f"fed by {' or '.join(spec(f).paper_name for f in s.feeders)}"] if s.feeders else []
    if s.needs_execute:
        parts.append("--execute")
    if set(s.tasks) != set(Task):
        parts.append("not for " + ", ".join(t.value.replace("code_", "") for t in Task if t not in s.tasks))
    return "; ".join(parts)


def strategies(
    as_json: bool = typer.Option(False, "--json", help="One JSON object per strategy."),
) -> None:
    """List the strategies a team can name: value, paper name, kind, calls, what each needs."""
    from sejury.strategies import all_specs
    from sejury.viewers.common import plural

    specs = all_specs()
    if as_json:
        for s in specs:
            typer.echo(json.dumps({
                "value": s.value, "paper_name": s.paper_name, "aliases": list(s.aliases), "kind": s.kind.value,
                "llm_calls": s.llm_calls, "feeders": list(s.feeders), "needs_execute": s.needs_execute,
                "tasks": [t.value for t in s.tasks], "needs_reference": _needs_reference(s),
                "default_member": s.default_member, "summary": s.summary}))
        return
    caption = "* in the default team; + joins it when it applies and --execute is on"
    if out.width < WIDE:  # a block per strategy: the description keeps the console's width
        for s in specs:
            facts = " · ".join(x for x in (s.paper_name, s.kind.value, plural(s.llm_calls, "call"), _needs(s)) if x)
            out.print(f"[bold]{s.value}{_mark(s)}[/bold]  {escape(facts)}")
            out.print(Padding(escape(s.summary), (0, 0, 0, 4)))
        out.print(f"[dim]{caption}[/dim]")
        return
    table = Table("name", "paper", "kind", "calls", "needs", "what it does", caption=caption)
    for col in table.columns[:4]:
        col.no_wrap = True
    for s in specs:
        table.add_row(s.value + _mark(s), s.paper_name, s.kind.value, str(s.llm_calls), _needs(s), s.summary)
    out.print(table)


def _mark(s: StrategySpec) -> str:
    return " *" if s.default_member else " +" if s.joins_default else ""
