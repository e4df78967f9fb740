"""``sejury rank``: the attempts at each problem of a JSONL file, best first, and the one chosen;
``sejury compare``: the better of the two attempts at each problem.

Rows are samples (``task: code_generation``); rows with the same ``problem`` and ``language`` are
attempts at one problem.  A row's ``reference`` and ``tests``, when given, are the problem's: rows
of one problem that give different ones are an error naming the line.

The judge and the ranking's models load when a command runs, so ``sejury --help`` imports none of
them; ``Judge`` is still this module's attribute (tests replace it)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from sejury.cli.common import err, error, fail, judge_options, loading, out, read_samples
from sejury.config import JudgeConfig
from sejury.errors import InputError, SejuryError
from sejury.rank.records import RankRequest, TieBreakOption
from sejury.schema import Sample, Task

if TYPE_CHECKING:
    from typing import IO

    from pydantic import BaseModel

    from sejury.api import Judge
    from sejury.rank.compare import Comparison
    from sejury.rank.evidence import Problem
    from sejury.rank.records import Ranking


def __getattr__(name: str) -> Any:
    """``Judge``: ``sejury.api``'s, imported at first use."""
    if name == "Judge":
        from sejury.api import Judge

        return Judge
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _judge(config: JudgeConfig) -> Judge:
    """A judge that executes, made by this module's ``Judge`` (``sejury.api``'s unless replaced)."""
    with loading():
        make: Callable[..., Judge] = sys.modules[__name__].Judge
        return make(config=config.with_(execute=True))


def grouped(samples: list[Sample], file: str) -> list[Problem]:
    """The file's problems in the order they first appear, each with its attempts in file order."""
    from sejury.rank.evidence import Problem

    groups: dict[tuple[str, str], list[Sample]] = {}
    for s in samples:
        if s.task is not Task.CODE_GENERATION:
            raise InputError(f"sample {s.id}: ranking is for code generation (task {s.task.value})", file=file,
                             field="task")
        groups.setdefault((s.language, s.problem), []).append(s)
    problems = []
    for (language, text), rows in groups.items():
        shared = {}
        for name in ("reference", "tests"):
            given = {getattr(s, name) for s in rows if getattr(s, name)}
            if len(given) > 1:
                other = next(s for s in rows if getattr(s, name) and getattr(s, name) != getattr(rows[0], name))
                raise InputError(f"sample {other.id}: its {name} differs from sample {rows[0].id}'s, an attempt at "
                                 "the same problem", file=file, field=name)
            shared[name] = next(iter(given), None)
        pid = str(rows[0].metadata.get("problem_id") or _common_id([s.id for s in rows]))
        form = next((str(s.metadata["form"]) for s in rows if s.metadata.get("form")), None)  # "stdio": programs
        problems.append(Problem(id=pid, problem=text, candidates=[s.candidate for s in rows], language=language,
                                reference=shared["reference"], tests=shared["tests"], ids=[s.id for s in rows],
                                form=form))
    return problems


def _common_id(ids: list[str]) -> str:
    """``he-12`` for ``he-12-0``, ``he-12-1``; the first id when they share no such stem."""
    stems = {i.rsplit("-", 1)[0] for i in ids}
    return stems.pop() if len(stems) == 1 and len(ids) > 1 else ids[0]


@judge_options(jury=False)
def rank(
    input: Annotated[Path, typer.Argument(help="Samples (JSONL or JSON); rows with one problem are its attempts.")],
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Rankings, one JSON object per line.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print rankings as JSON lines.")] = False,
    trace: Annotated[bool, typer.Option("--trace/--no-trace",
                                        help="Keep the model call and runs in the JSON.")] = False,
    tie_break: Annotated[TieBreakOption, typer.Option(
        "--tie-break", help=RankRequest.model_fields["tie_break"].description or "")] = "none",
    *, config: JudgeConfig,
) -> None:
    """Rank the attempts at each problem (tests written once per problem, run on every attempt in the
    sandbox; with a reference they are validated on it, without one attempts count by agreement)."""
    try:
        problems = grouped(read_samples(input), str(input))
        if not problems:
            raise InputError("nothing to rank", file=str(input))
        j = _judge(config)
    except SejuryError as exc:
        raise fail(exc) from None
    from sejury.api import run_sync

    failed = 0
    with ExitStack() as stack:
        sink = stack.enter_context(output.open("a", encoding="utf-8")) if output else None
        for p in problems:
            try:
                r = run_sync(j.arank(p.problem, p.candidates, language=p.language, reference=p.reference,
                                     tests=p.tests, problem_id=p.id, ids=p.ids, tie_break=tie_break, form=p.form))
            except SejuryError as exc:
                failed += 1
                error(f"problem {p.id}: {exc}")
                continue
            if not _emit(r, sink, as_json=as_json, trace=trace):
                print_ranking(r)
    j.close()
    if failed:
        err.print(f"[red]{failed} problem(s) failed[/red]")
        raise typer.Exit(1)


def _emit(record: BaseModel, sink: IO[str] | None, *, as_json: bool, trace: bool) -> bool:
    """``record`` as one JSON line, appended to ``sink`` (``-o``) and printed with ``--json``
    (its trace's events only with ``--trace``); True when it was printed so."""
    line = record.model_dump_json(exclude=None if trace else {"events"})
    if sink is not None:
        sink.write(line + "\n")
        sink.flush()
    if as_json:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()
    return as_json


def print_ranking(r: Ranking) -> None:
    chosen = next((c for c in r.candidates if c.index == r.chosen), None)
    head = f"[bold]{escape(r.problem_id)}[/bold] ({r.language}, {len(r.candidates)} attempts): "
    head += (f"chose #{chosen.index}" + (f" ({escape(chosen.id)})" if chosen.id else "") + f", score {chosen.score:g}"
             if chosen else "no attempt loads")
    out.print(head + ("  [yellow]needs review[/yellow]" if r.needs_review else ""))
    t = Table(show_header=True, header_style="bold")
    for col in ("rank", "attempt", "score", "alike", "tests", "examples", "reference", "yours", "review"):
        t.add_column(col)
    for c in r.candidates:
        t.add_row(str(c.rank), escape(c.id or f"#{c.index}"), f"{c.score:g}" if c.loaded else "does not load",
                  f"{c.support:g}", f"{c.tests_passed}/{c.tests_total}" if c.tests_total else "-",
                  f"{c.examples_passed}/{c.examples_total}" if c.examples_total else "-",
                  f"{c.agreed}/{c.inputs}" if c.inputs else "-",
                  f"{c.user_tests_passed}/{c.user_tests_total}" if c.user_tests_total else "-",
                  "yes" if c.needs_review else "")
    out.print(t)
    for w in r.reasons:
        out.print(f"  [yellow]review:[/yellow] {escape(w)}")
    if r.tie_break_line:  # --tie-break model: what the model chose, or why it was not asked
        out.print(f"  [cyan]tie-break:[/cyan] {escape(r.tie_break_line)}")
        if r.tie_break is not None:
            out.print("  [dim]asked in both orders: " + escape("; ".join(x.outcome for x in r.tie_break.pairs))
                      + "[/dim]")
    if r.trace_id:
        out.print(f"  [dim]`sejury trace {r.trace_id}` shows its trace[/dim]")
    written = "" if r.written_tests is None else f"{r.written_tests}, "  # None: no test (programs' inputs)
    out.print(f"  [dim]{escape(r.rule)}; {escape(written)}{r.probe_inputs} inputs; {r.model_calls} model call(s), "
              f"{r.sandbox_runs} sandbox runs, {r.seconds:g} s[/dim]\n")


@judge_options(jury=False)
def compare(
    input: Annotated[Path, typer.Argument(help="Samples (JSONL or JSON): two attempts at each problem, a then b.")],
    output: Annotated[Path | None, typer.Option("--output", "-o", help=(
        "Comparisons, one JSON object per line (appended): `sejury evaluate` reads them."))] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print comparisons as JSON lines.")] = False,
    trace: Annotated[bool, typer.Option("--trace/--no-trace",
                                        help="Keep the model calls and runs in the JSON.")] = False,
    *, config: JudgeConfig,
) -> None:
    """Which of two attempts at each problem is right: execution evidence first; where it does not
    separate them the model decides, asked in both orders (a choice that follows the order is a tie)."""
    try:
        problems = grouped(read_samples(input), str(input))
        for p in problems:
            if len(p.candidates) != 2:
                raise InputError(f"problem {p.id}: {len(p.candidates)} attempts; compare takes two per problem "
                                 "(sejury rank takes any number)", file=str(input))
        j = _judge(config)
    except SejuryError as exc:
        raise fail(exc) from None
    from sejury.api import run_sync

    failed = 0
    done: list[Comparison] = []
    with ExitStack() as stack:
        sink = stack.enter_context(output.open("a", encoding="utf-8")) if output else None
        for p in problems:
            try:
                c = run_sync(j.acompare(p.problem, p.candidates[0], p.candidates[1], language=p.language,
                                        reference=p.reference, tests=p.tests, problem_id=p.id, form=p.form))
            except SejuryError as exc:
                failed += 1
                error(f"problem {p.id}: {exc}")
                continue
            done.append(c)
            if not _emit(c, sink, as_json=as_json, trace=trace):
                print_comparison(c, p.ids or [None, None])
    j.close()
    if done:
        err.print(position_bias(done))
    if output is not None:
        err.print(f"wrote {output}; `sejury evaluate {output} --pairs {input}` reports the position bias and the "
                  "accuracy", markup=False, highlight=False, soft_wrap=True)
    if failed:
        raise typer.Exit(1)


def position_bias(done: list[Comparison]) -> str:
    """How the pairs were decided, and how often the model's choice followed the order shown."""
    from sejury.evaluate_pairs import evaluate_pairs, summary_line

    return summary_line(evaluate_pairs(list(enumerate(done, 1))))


def print_comparison(c: Comparison, ids: list[str | None]) -> None:
    name = {"a": ids[0] or "a", "b": ids[1] or "b"}
    verdict = "a tie" if c.winner == "tie" else f"{escape(str(name[c.winner]))} is better"
    out.print(f"[bold]{escape(c.problem_id)}[/bold] ({c.language}): {verdict}, decided by {c.decided_by}"
              + ("  [yellow]needs review[/yellow]" if c.needs_review else ""))
    for side, r in (("a", c.a), ("b", c.b)):
        out.print(f"  {escape(str(name[side]))}: " + "; ".join(escape(x) for x in r.reasons))
    for w in c.reasons:
        out.print(f"  [dim]{escape(w)}[/dim]")
    out.print(f"  [dim]{c.model_calls} model call(s), {c.sandbox_runs} sandbox runs, {c.seconds:g} s"
              + (f"; `sejury trace {c.trace_id}` shows its trace" if c.trace_id else "") + "[/dim]\n")
