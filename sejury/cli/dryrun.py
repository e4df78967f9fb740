"""``--dry-run`` for ``sejury judge`` and ``sejury batch``: what the run will call, per sample and in
total, printed before anything is called (``sejury.estimate``); no model is built or started."""

from __future__ import annotations

import sys
from collections.abc import Collection, Sequence
from pathlib import Path

from rich.markup import escape
from rich.table import Table

from sejury.cli.common import out
from sejury.config import JudgeConfig
from sejury.estimate import CHARS_PER_TOKEN, RunEstimate, SampleEstimate, dry_context, estimate_run
from sejury.schema import Sample
from sejury.strategies import spec


def show_estimate(config: JudgeConfig, samples: Sequence[Sample], *, done: Collection[str] = (),
                  run_path: Path | None = None, as_json: bool = False,
                  repeats: Sequence[int | None] | None = None) -> RunEstimate:
    """Estimate judging ``samples`` with ``config`` (less the ``done`` judgments of ``run_path``;
    ``repeats`` aligned with ``samples``) and print it."""
    with dry_context(config) as ctx:
        est = estimate_run(ctx, samples, max_tokens=config.max_tokens, done=done, repeats=repeats,
                           share_replies=config.cache)
    if as_json:
        sys.stdout.write(est.model_dump_json() + "\n")
        sys.stdout.flush()
    else:
        print_estimate(est, run_path=run_path, parse_retries=config.parse_retries)
    return est


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _plan(row: SampleEstimate, run_path: Path | None) -> str:
    if row.status == "done":
        return f"already in {run_path}" if run_path else "already judged"
    if row.status == "duplicate":
        return f"same content as {row.duplicate_of}: judged once, its verdict copied"
    if row.status == "error":
        return f"[red]will fail:[/red] {escape(row.error or '')}"
    parts = []
    for m in row.members:
        s = spec(m.strategy.value)
        if s.llm_calls == 0:
            continue
        name = s.paper_name + ("" if m.in_team else f" (feeds {_fed(row, m.strategy.value)})")
        if m.cached:
            parts.append(f"{name} [blue]cached[/blue]")
        else:
            parts.append(name + (f" x{len(m.calls)}" if len(m.calls) > 1 else "")
                         + ("*" if any(c.from_reply for c in m.calls) else ""))
    return ", ".join(parts) or "no LLM juror"


def _fed(row: SampleEstimate, feeder: str) -> str:
    return ", ".join(spec(m.strategy.value).paper_name for m in row.members
                     if m.fed_by is not None and m.fed_by.value == feeder) or "?"


def print_estimate(est: RunEstimate, *, run_path: Path | None = None, parse_retries: int = 1) -> None:
    table = Table(title="dry run: what the run will call (nothing is called now)", title_justify="left")
    table.add_column("sample", overflow="fold")
    table.add_column("LLM calls", justify="right")
    table.add_column("cached", justify="right")
    table.add_column("prompt tokens", justify="right")
    table.add_column("reply tokens", justify="right")
    table.add_column("plan")
    for row in est.samples:
        name = row.sample_id + (f" (repeat {row.repeat})" if row.repeat is not None else "")
        table.add_row(escape(name), str(row.llm_calls), str(row.cached_calls) if row.cached_calls else "",
                      f"~{row.prompt_tokens:,}" if row.llm_calls else "",
                      f"<={row.completion_tokens:,}" if row.llm_calls else "", _plan(row, run_path))
    out.print(table)
    skipped = [f"{_plural(est.cached_calls, 'call')} cached"] if est.cached_calls else []
    if est.done:
        skipped.append(f"{_plural(est.done, 'sample')} already in {run_path}")
    if est.duplicates:
        skipped.append(f"{_plural(est.duplicates, 'duplicate sample')} judged with the first")
    if est.errors:
        skipped.append(f"{_plural(est.errors, 'sample')} that will fail")
    out.print(f"[bold]dry run: {_plural(est.llm_calls, 'LLM call')}[/bold] for {_plural(est.to_judge, 'sample')} "
              f"to judge{' (' + '; '.join(skipped) + ')' if skipped else ''}; estimate: "
              f"~{est.prompt_tokens:,} prompt + at most {est.completion_tokens:,} completion tokens", soft_wrap=True)
    out.print(f"[dim]model {escape(est.model)}. Tokens are an estimate: each prompt rendered from its template and "
              f"counted at ~{CHARS_PER_TOKEN} characters a token; each reply at --max-tokens ({est.max_tokens}), "
              "its upper bound.[/dim]", soft_wrap=True)
    notes = []
    if any(c.from_reply for row in est.samples for m in row.members for c in m.calls):
        notes.append(f"* a prompt that holds an earlier reply (S2: S1's reasons; S4, S5: their first step's) "
                     f"counts it as up to {est.max_tokens} tokens")
    if est.second_rounds_max:
        notes.append(f"not counted: up to {_plural(est.second_rounds_max, 'second-round call')} (--mutation-rounds), "
                     "asked only where S5's tests kill under 75 % of the reference's mutants")
    if parse_retries and est.llm_calls:
        notes.append(f"not counted: repair turns after a reply without a readable score (up to {parse_retries} "
                     "per score) and retries of failed calls")
    for note in notes:
        out.print(f"[dim]{escape(note)}[/dim]", soft_wrap=True)
