"""One stored judgment as a rich ``Tree`` for the terminal (``sejury trace ID``): the header, each
juror with its trace (LLM calls, sandbox runs, skips, errors) and executed tests, then the merge.
Prompts and replies are abbreviated unless ``full``.  Every piece of stored text goes in as a plain
``Text``, never as markup, so a candidate's ``[bold]`` or ``[/]`` prints as it is."""

from __future__ import annotations

import re

from rich.text import Text
from rich.tree import Tree

from sejury.execution.evidence import SuiteRun
from sejury.schema import Status, StrategyResult, TraceEvent
from sejury.strategies import spec
from sejury.traces.store import StoredJudgment
from sejury.viewers.common import (
    SHOWN_ARTIFACTS_SKIP,
    ExecutedSuite,
    abbreviate,
    artifact_text,
    executed_tests,
    execution_summary,
    fmt_score,
    fmt_time,
    label,
    merge_formula,
    merge_rows,
    plural,
    spread_text,
    tokens,
)

STATUS_STYLE = {Status.SCORED: "green", Status.UNSCORED: "yellow", Status.FAILED: "red", Status.SKIPPED: "dim"}
PROMPT_CHARS = 240  # per message, unless full
SYSTEM_CHARS = 60
REPLY_CHARS = 480
OUTPUT_CHARS = 300  # stdout / stderr tails
SAMPLE_CHARS = 400


_LEADING_BLOCK = re.compile(r"\[BEGIN ([A-Z ]+)\]\n.*?\n\[END \1\]\s*", re.DOTALL)


def _instructions(prompt: str) -> str:
    """A juror's prompt, abbreviated: the sample's data it starts with (shown in the header) is
    named, not repeated, so what is left to read is what this call asks."""
    names, at = [], 0
    while m := _LEADING_BLOCK.match(prompt, at):
        names.append(m.group(1).lower())
        at = m.end()
    rest = abbreviate(prompt[at:], PROMPT_CHARS)
    return f"[the sample's {', '.join(names)}: {at} characters]\n{rest}" if names else rest


def _t(*parts: str | Text | tuple[str, str]) -> Text:
    return Text.assemble(*parts)


def _field(name: str, value: str) -> Text:
    return _t((f"{name}: ", "bold"), value)


def _header(tree: Tree, stored: StoredJudgment) -> None:
    v, s, cfg = stored.verdict, stored.sample, stored.config
    score = (_t((f"{fmt_score(v.score)}/100", "bold green"), " scored") if v.status == "scored"
             else _t(("unscored", "bold yellow"), ": no team member produced a score"))
    if v.scale is not None and v.scaled_score is not None:
        score.append(f"  →  {fmt_score(v.scaled_score)} on {v.scale.low:g}-{v.scale.high:g}")
    tree.add(_t(("score ", "bold"), score, "   spread ", spread_text(v)))
    tree.add(_field("team", ", ".join(f"{m.paper_name} {m.value}" for m in v.team)))
    tree.add(_field("when", f"{fmt_time(stored.created)}   model {v.model or cfg.get('model', '?')}   "
                            f"prompts {v.prompt_version or '?'}"))
    tree.add(_field("cost", f"{plural(v.llm_calls, 'LLM call')}, {tokens(v)}, "
                            f"{v.seconds:.1f} s"))
    settings = {k: val for k, val in cfg.items() if k not in ("model", "team") and val is not None}
    if settings:
        tree.add(_field("settings", ", ".join(f"{k}={artifact_text(val)}" for k, val in settings.items())))
    node = tree.add(Text("sample", style="bold"))
    for name, text in (("problem", s.problem), ("candidate", s.candidate), ("reference", s.reference),
                       ("tests", s.tests)):
        if text:
            node.add(_t((f"{name}: ", "cyan"), abbreviate(text.strip(), SAMPLE_CHARS)))


def _llm_call(parent: Tree, e: TraceEvent, full: bool) -> None:
    head = _t(("llm_call ", "magenta"), (e.step or "call", "bold"), f" #{e.attempt or 1}",
              f" · {e.finish_reason or '?'} · {tokens(e)} · {e.seconds:.2f} s")
    if e.score is not None:
        head.append_text(_t(" → ", (f"score {fmt_score(e.score)}", "green")))
    if e.error:
        head.append_text(_t(" → ", (e.error, "yellow")))
    node = parent.add(head)
    prompt = node.add(Text("prompt", style="cyan"))
    for m in e.messages or []:
        role, content = m.get("role", "?"), m.get("content", "").strip()
        if not full:  # the system prompt is the same in every call: its start is enough
            content = (f"{content[:SYSTEM_CHARS].rstrip()}... ({len(content)} characters)"
                       if role == "system" and len(content) > SYSTEM_CHARS else _instructions(content))
        prompt.add(_t((f"{role}: ", "dim"), content))
    reply = (e.reply or "").strip()
    node.add(_t(("reply: ", "cyan"), reply if full else abbreviate(reply, REPLY_CHARS)))
    if e.reasons and full:  # else they are the juror's reasons, listed above
        node.add(_t(("parsed reasons: ", "cyan"), " | ".join(e.reasons)))


def _tail(text: str, full: bool) -> str:
    text = text.rstrip()
    return text if full or len(text) <= OUTPUT_CHARS else "..." + text[-OUTPUT_CHARS:]


def _sandbox_run(parent: Tree, e: TraceEvent, full: bool) -> None:
    try:
        run = SuiteRun.model_validate(e.detail or {})
    except ValueError:
        parent.add(_t(("sandbox_run ", "blue"), e.step or "", f" · {artifact_text(e.detail)}"))
        return
    ok = run.loaded and run.passed == run.total
    node = parent.add(_t(("sandbox_run ", "blue"), (e.step or "run", "bold"), f" · {run.status} · ",
                         (f"{run.passed}/{run.total} passed", "green" if ok else "yellow"),
                         "" if run.loaded else " · does not load", f" · {run.seconds:.2f} s"))
    if run.load_error:
        node.add(_t(("load error: ", "red"), _tail(run.load_error, full)))
    if run.stdout_tail.strip():
        node.add(_t(("stdout: ", "dim"), _tail(run.stdout_tail, full)))
    if run.stderr_tail.strip():
        node.add(_t(("stderr: ", "dim"), _tail(run.stderr_tail, full)))


def _event(parent: Tree, e: TraceEvent, full: bool) -> None:
    if e.kind == "llm_call":
        _llm_call(parent, e, full)
    elif e.kind == "sandbox_run":
        _sandbox_run(parent, e, full)
    elif e.kind == "cache_hit":
        parent.add(_t(("cache_hit", "blue"), ": result reused from the cache; its original trace follows"))
    elif e.kind == "skip":
        parent.add(_t(("skip", "dim"), f": {e.error or ''}"))
    elif e.kind == "error":
        attempt = f" (attempt {e.attempt})" if e.attempt else ""
        parent.add(_t(("error", "red"), f"{attempt}: {e.error or ''}"))
    else:
        parent.add(_t((e.kind, "dim"), f": {artifact_text(e.detail or e.error or '')}"))


def _tests(parent: Tree, suite: ExecutedSuite) -> None:
    head = _t((suite.title, "bold"))
    if suite.execution is not None:
        head.append(f": {execution_summary(suite.execution)}")
    node = parent.add(head)
    mark = {"pass": ("PASS", "green"), "fail": ("FAIL", "red"), "invalid": ("INVALID", "yellow"),
            "not run": ("NOT RUN", "dim")}
    for row in suite.rows:
        word, style = mark[row.outcome]
        ref = {True: "ok on reference", False: "fails on reference", None: "no reference"}[row.on_reference]
        line = _t((f"{word:<7}", f"bold {style}"), " ", abbreviate(" ".join(row.test.split()), 160),
                  (f"   [{ref}]", "dim"))
        if row.why:
            line.append(f"  ← {abbreviate(row.why, 160)}", style="dim")
        node.add(line)
    if suite.note:
        node.add(Text(suite.note, style="dim italic"))


def _juror(tree: Tree, r: StrategyResult, full: bool, followers: str) -> None:
    style = STATUS_STYLE[r.status]
    head = _t((label(r), "bold"), "  ", (r.status.value, style))
    if r.score is not None:
        head.append_text(_t(" ", (fmt_score(r.score), f"bold {style}")))
    head.append(f" · {plural(r.llm_calls, 'call')} · {r.seconds:.2f} s"
                f" · {tokens(r)}")
    if r.cached:
        head.append(" · cached", style="blue")
    if not r.in_team:
        head.append(f" · feeds {followers}, not in the team", style="dim")
    node = tree.add(head)
    for reason in r.reasons:
        node.add(_t("• ", reason))
    if r.detail:
        node.add(Text(r.detail, style=style))
    for key, value in r.artifacts.items():
        if key not in SHOWN_ARTIFACTS_SKIP:
            node.add(_t((f"{key}: ", "cyan"), abbreviate(artifact_text(value), 300 if not full else 0)))
    if r.artifacts.get("tests"):
        node.add(_t(("tests written: ", "cyan"), abbreviate(str(r.artifacts["tests"]), 0 if full else 300)))
    for suite in executed_tests(r):
        _tests(node, suite)
    if r.trace:
        trace = node.add(Text("trace", style="bold dim"))
        for e in r.trace:
            _event(trace, e, full)


def judgment_tree(stored: StoredJudgment, *, full: bool = False) -> Tree:
    """The whole judgment; ``full`` shows prompts, replies and outputs uncut."""
    v, s = stored.verdict, stored.sample
    tree = Tree(_t(("judgment ", "bold"), (stored.judgment_id, "bold cyan"), "   sample ",
                   (s.id, "bold"), f"  ({v.task.value}, {s.language})"), guide_style="dim")
    _header(tree, stored)
    for name, r in v.strategies.items():
        followers = ", ".join(v.strategies[f].strategy.paper_name for f in v.strategies
                              if name in spec(f).feeders) or "another member"
        _juror(tree, r, full, followers)
    merge = tree.add(_t(("merge", "bold"), ": ", merge_formula(v)))
    for row in merge_rows(v):
        mark = ("✓", "green") if row.counted else ("·", "dim")
        merge.add(_t(mark, " ", (row.label, "bold" if row.counted else ""), "  ",
                     (fmt_score(row.score), STATUS_STYLE[row.status]), f"  {row.note}"))
    if v.spread is not None:
        merge.add(_t(("spread ", "dim"), spread_text(v)))
    return tree
