"""``sejury trace``: a stored judgment's full trace, as a tree in the terminal, as one standalone
HTML page (``--html``) or as JSON; ``--list`` lists the recent judgments.

    sejury trace --list
    sejury trace --list --rankings     # the recent rankings and comparisons
    sejury trace j0k3m                 # any unique prefix of a judgment id
    sejury trace j0k3m --html out.html
    sejury trace r0k3m                 # a ranking's or a comparison's trace (sejury rank, sejury compare)
    sejury trace r0k3m --html out.html
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.table import Table

from sejury.cli.common import err, fail, out
from sejury.errors import SejuryError

if TYPE_CHECKING:  # imported when the command runs
    from sejury.traces.store import StoredRanking, TraceStore

_TASK = {"code_generation": "codegen", "program_repair": "repair", "code_summarization": "summary"}


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _when(created: float) -> str:
    """The time for a judgment of today, else the date and minute."""
    if time.strftime("%Y-%m-%d", time.localtime(created)) == time.strftime("%Y-%m-%d"):
        return time.strftime("%H:%M:%S", time.localtime(created))
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(created))


def _write_page(path: Path, page: str, what: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(page, encoding="utf-8")
    err.print(f"wrote {escape(str(path))} ({what})")


def _recent_table(title: str, rows: list[tuple[str, float]]) -> Table:
    """A --list table with its id and when columns (sized to the rows'), the rest to add."""
    table = Table(title=title, title_justify="left", box=None, pad_edge=False, header_style="bold underline")
    table.add_column("id", no_wrap=True, min_width=max(len(rid) for rid, _ in rows), style="cyan")
    table.add_column("when", no_wrap=True, min_width=max(len(_when(created)) for _, created in rows))
    return table


def _list(store: TraceStore, limit: int, sample: str | None, as_json: bool) -> None:
    from sejury.viewers.common import fmt_score

    rows = store.recent(limit, sample_id=sample)
    if as_json:
        for r in rows:
            sys.stdout.write(r.model_dump_json() + "\n")
        return
    if not rows:
        of = f" for sample {escape(sample)}" if sample else ""
        err.print(f"no judgments stored in {escape(str(store.path))}{of}")
        return
    table = _recent_table(f"recent judgments in {escape(str(store.path))}", [(r.judgment_id, r.created) for r in rows])
    table.add_column("sample", overflow="fold")
    table.add_column("task", no_wrap=True, min_width=7)
    table.add_column("status", no_wrap=True, min_width=8)
    table.add_column("score", justify="right", no_wrap=True, min_width=5)
    table.add_column("model", overflow="fold")
    table.add_column("s", justify="right", no_wrap=True, min_width=4)
    for r in rows:
        colour = "green" if r.status == "scored" else "yellow"
        table.add_row(r.judgment_id, _when(r.created), escape(_cut(r.sample_id, 28)), _TASK.get(r.task, r.task),
                      f"[{colour}]{r.status}[/{colour}]", fmt_score(r.score), escape(_cut(r.model, 24)),
                      f"{r.seconds:.1f}")
    out.print(table)


def _list_rankings(store: TraceStore, limit: int, as_json: bool) -> None:
    rows = store.recent_rankings(limit)
    if as_json:
        for r in rows:
            sys.stdout.write(r.model_dump_json() + "\n")
        return
    if not rows:
        err.print(f"no rankings or comparisons stored in {escape(str(store.path))}")
        return
    table = _recent_table(f"recent rankings and comparisons in {escape(str(store.path))}",
                          [(r.ranking_id, r.created) for r in rows])
    for col in ("kind", "problem", "language", "model"):
        table.add_column(col, overflow="fold")
    table.add_column("s", justify="right", no_wrap=True, min_width=4)
    for r in rows:
        table.add_row(r.ranking_id, _when(r.created), r.kind, escape(_cut(r.problem_id, 28)), r.language,
                      escape(_cut(r.model, 24)), f"{r.seconds:.1f}")
    out.print(table)


def _ranking_trace(stored: StoredRanking, full: bool) -> None:
    """A ranking or comparison: its table, then each model call and sandbox run in order."""
    from sejury.cli.ranking import print_comparison, print_ranking
    from sejury.rank.compare import Comparison
    from sejury.rank.records import Ranking

    if stored.kind == "compare":
        c = Comparison.model_validate(stored.body)
        print_comparison(c, [c.a.id, c.b.id])
        events = c.events
    else:
        r = Ranking.model_validate(stored.body)
        print_ranking(r)
        events = r.events
    width = 10**9 if full else 400
    for e in events:
        head = f"[bold]{e.kind}[/bold] {escape(e.step or '')}" + (f" ({e.seconds:g} s)" if e.seconds else "")
        out.print(head)
        if e.kind in ("llm_call", "cache_hit"):
            prompt = e.messages[-1]["content"] if e.messages else ""
            out.print(f"  [dim]prompt:[/dim] {escape(_cut(prompt, width))}")
            out.print(f"  [dim]reply:[/dim] {escape(_cut(e.reply or '', width))}")
        elif e.detail:
            d = e.detail
            line = f"  loaded {d.get('loaded')}, passed {d.get('passed')}/{d.get('total')}, {d.get('status')}"
            out.print(line + (f"; {escape(_cut(str(d.get('load_error')), width))}" if d.get("load_error") else ""))


def trace(
    judgment: Annotated[str | None, typer.Argument(
        help="A judgment id (a verdict's judgment_id), or any unique prefix of one.")] = None,
    list_: Annotated[bool, typer.Option("--list", help="List the recent judgments.")] = False,
    limit: Annotated[int, typer.Option(help="How many judgments --list shows.")] = 20,
    sample: Annotated[str | None, typer.Option("--sample", help="With --list: only this sample's judgments.")] = None,
    rankings: Annotated[bool, typer.Option("--rankings", help=(
        "With --list: the recent rankings and comparisons (sejury rank, sejury compare) in place of judgments."))
    ] = False,
    html: Annotated[Path | None, typer.Option("--html", help="Write the trace as one standalone HTML page.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the stored judgment (or the list) as JSON.")] = False,
    full: Annotated[bool, typer.Option("--full", help="Prompts, replies and outputs uncut.")] = False,
    store_path: Annotated[Path | None, typer.Option("--store", help=(
        "The trace store (default: SEJURY_TRACE_PATH, else ~/.cache/sejury/traces.sqlite)."))] = None,
) -> None:
    """Show a judgment's full trace: every prompt, raw reply, parsed score, sandbox run and the merge."""
    from sejury.traces.store import TraceStore, env_trace_path

    path = store_path.expanduser() if store_path is not None else env_trace_path()
    if judgment is None and not list_:
        list_ = True
    if not path.exists():
        if list_:
            err.print(f"no judgments stored yet: {escape(str(path))} does not exist (judging stores each one)")
            return
        raise fail(SejuryError(f"no trace store at {path}: judge something first, or give --store PATH"))
    try:
        store = TraceStore(path)
    except SejuryError as exc:
        raise fail(exc) from None
    try:
        if list_:
            if rankings:
                _list_rankings(store, limit, as_json)
            else:
                _list(store, limit, sample, as_json)
            return
        assert judgment is not None
        try:
            if judgment.strip().lower().startswith("r"):  # a ranking's or a comparison's id
                ranking = store.get_ranking(judgment)
                if html is not None:
                    from sejury.viewers.ranking_html import render_ranking_html

                    _write_page(html, render_ranking_html(ranking),
                                f"{'comparison' if ranking.kind == 'compare' else 'ranking'} {ranking.ranking_id}")
                elif as_json:
                    sys.stdout.write(ranking.model_dump_json() + "\n")
                else:
                    _ranking_trace(ranking, full)
                return
            stored = store.get(judgment)
        except SejuryError as exc:
            raise fail(exc) from None
    finally:
        store.close()
    if html is not None:
        from sejury.viewers.html import render_html

        _write_page(html, render_html(stored), f"judgment {stored.judgment_id}, sample {escape(stored.sample.id)}")
        return
    if as_json:
        sys.stdout.write(stored.model_dump_json() + "\n")
        return
    from sejury.viewers.tree import judgment_tree

    out.print(judgment_tree(stored, full=full))
