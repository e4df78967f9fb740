"""How a verdict prints: one row per member (its spec adds detail lines), then the merged score.
The jurors' specs and the merge load when a verdict prints (``sejury --help`` imports this module)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console
from rich.markup import escape
from rich.padding import Padding
from rich.table import Table

from sejury.cli.common import out
from sejury.schema import Status

if TYPE_CHECKING:
    from sejury.schema import Verdict


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:g}"


def _followers(v: Verdict, feeder: str) -> str:
    from sejury.strategies import spec

    names = [v.strategies[f].strategy.paper_name for f in v.strategies if feeder in spec(f).feeders]
    return ", ".join(names) or "another member"


def verdict_lines(v: Verdict) -> list[str]:
    """PASS / FAIL at the pass mark, what the score rests on, the evidence against, needs review."""
    from sejury.merge import GROUNDS

    lines = []
    if v.passed is not None and v.pass_mark is not None:
        word = "[bold green]PASS[/bold green]" if v.passed else "[bold red]FAIL[/bold red]"
        rests = f"; rests on {GROUNDS[v.grounds]}" if v.grounds else ""
        lines.append(f"{word} at pass mark {v.pass_mark:g} ({v.merge.replace('_', '-')} merge{rests})")
    lines += [f"[red]against: {escape(a)}[/red]" for a in v.against]
    if v.needs_review:
        lines.append("[bold yellow]needs review:[/bold yellow] " + escape("; ".join(v.review_reasons)))
    return lines


WIDE = 120  # narrower consoles get each member as a block instead of a table row (80 columns stay readable)


def _member_rows(v: Verdict) -> list[tuple[str, str, str, str, str, str]]:
    """Each member as (label, status, score, calls, seconds, reasons and detail lines)."""
    from sejury.strategies import spec

    rows = []
    for name, r in v.strategies.items():
        colour = {Status.SCORED: "green", Status.UNSCORED: "yellow", Status.FAILED: "red",
                  Status.SKIPPED: "dim"}[r.status]
        label = f"{r.strategy.paper_name} {name}" + ("" if r.in_team else f" (feeds {_followers(v, name)})")
        lines = [f"• {escape(x)}" for x in r.reasons[:4]]
        if r.status is Status.SCORED and not r.reasons and r.strategy.is_llm:
            lines.append("[dim](no reasons given)[/dim]")
        if r.detail:
            lines.append(f"[{colour}]{escape(r.detail)}[/{colour}]")
        more = spec(r.strategy).detail_lines
        lines += [f"[dim]{escape(x)}[/dim]" for x in (more(r) if more else [])]
        rows.append((label, f"[{colour}]{r.status.value}[/{colour}]" + (" (cached)" if r.cached else ""),
                     _fmt(r.score), str(r.llm_calls), f"{r.seconds:.1f}", "\n".join(lines)))
    return rows


def print_verdict(v: Verdict, *, console: Console = out) -> None:
    """A verdict: each member's status, score, calls and reasons (a table on a wide console, a block
    per member on a narrow one), then the merge."""
    from sejury.viewers.common import plural

    title = f"[bold]{escape(v.sample_id)}[/bold]  ({v.task.value})"
    rows = _member_rows(v)
    if console.width >= WIDE:
        table = Table(title=title, title_justify="left", show_lines=True, expand=True)
        for column in ("strategy", "status", "score", "calls", "s"):
            table.add_column(column, no_wrap=True, justify="left" if column in ("strategy", "status") else "right")
        table.add_column("reasons / detail", ratio=1)
        for row in rows:
            table.add_row(*row)
        console.print(table)
    else:
        console.print(title)
        for label, status, score, calls, seconds, lines in rows:
            cost = f"{plural(int(calls), 'call')}, {seconds} s"
            console.print(f"\n[bold]{label}[/bold]  {status}  score {score}  ({cost})")
            if lines:
                console.print(Padding(lines, (0, 0, 0, 4)))
        console.print()
    if v.status == "scored":
        scaled = ""
        if v.scale and v.scaled_score is not None:
            scaled = f"  →  {v.scaled_score:g} on {v.scale.low:g}-{v.scale.high:g}"
        console.print(f"[bold]merged score: {v.score:g}/100{scaled}[/bold]   "
                      f"spread {_fmt(v.spread.min if v.spread else None)}–{_fmt(v.spread.max if v.spread else None)} "
                      f"(std {v.spread.std if v.spread else 0:.1f})")
    else:
        console.print("[bold yellow]unscored: no team member produced a score[/bold yellow]")
    for line in verdict_lines(v):
        console.print(line)
    extra = []
    if v.unscored_members:
        extra.append(f"unscored: {', '.join(v.unscored_members)}")
    if v.skipped_members:
        extra.append(f"skipped: {', '.join(v.skipped_members)}")
    console.print(f"team: {', '.join(s.value for s in v.team)}" + (f"  ({'; '.join(extra)})" if extra else ""))
    if v.duplicate_of is not None:
        console.print(f"[blue]same content as sample {escape(v.duplicate_of)}: its verdict, judged once[/blue]")
    from sejury.viewers.common import tokens

    console.print(f"[dim]{v.llm_calls} LLM calls, {tokens(v)}, "
                  f"{v.seconds:.1f}s, model {escape(v.model)}, prompts {v.prompt_version}[/dim]\n")
