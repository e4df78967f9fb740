"""One stored judgment as ONE standalone HTML page (``sejury trace ID --html out.html``).

Inline CSS only, no script, no external resource at all (a Content-Security-Policy of
``default-src 'none'`` says so to the browser too).  The page shows a summary card (the merged
score, the team), the sample, one section per juror with each LLM call's prompt and raw reply side
by side, the executed tests, the sandbox runs with their output, and the merge.  Every stored
string is escaped: a candidate may hold ``</pre><script>``.
"""

from __future__ import annotations

from html import escape
from importlib import resources

from sejury.execution.evidence import SuiteRun
from sejury.merge import GROUNDS
from sejury.schema import Status, StrategyResult, TraceEvent, Verdict
from sejury.strategies import spec
from sejury.traces.store import StoredJudgment
from sejury.viewers.common import (
    SHOWN_ARTIFACTS_SKIP,
    ExecutedSuite,
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

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"

CSS = resources.files("sejury.viewers").joinpath("trace_page.css").read_text(encoding="utf-8")

_STATUS_BADGE = {Status.SCORED: "b-scored", Status.UNSCORED: "b-unscored", Status.FAILED: "b-failed",
                 Status.SKIPPED: "b-skipped"}
_OUTCOME_BADGE = {"pass": ("pass", "b-pass"), "fail": ("fail", "b-fail"), "invalid": ("invalid", "b-invalid"),
                  "not run": ("not run", "b-notrun")}


def e(text: object) -> str:
    return escape(str(text), quote=True)


def _badge(text: str, cls: str) -> str:
    return f'<span class="badge {cls}">{e(text)}</span>'


def _pre(text: str) -> str:
    return f"<pre>{e(text)}</pre>"


def _anchor(name: str) -> str:
    return "juror-" + "".join(c if c.isalnum() or c in "-_" else "-" for c in name)


def _summary(stored: StoredJudgment) -> str:
    v = stored.verdict
    if v.status == "scored":
        score = f'<div class="bigscore">{e(fmt_score(v.score))}<small>/100</small></div>'
        if v.scale is not None and v.scaled_score is not None:
            score += f'<div class="muted">{e(fmt_score(v.scaled_score))} on {v.scale.low:g}-{v.scale.high:g}</div>'
    else:
        score = '<div class="bigscore unscored">unscored</div>'
    score += _badge(v.status, "b-scored" if v.status == "scored" else "b-unscored")
    if v.passed is not None and v.pass_mark is not None:
        score += _badge(f"{'pass' if v.passed else 'fail'} at {v.pass_mark:g}", "b-pass" if v.passed else "b-fail")
    if v.needs_review:
        score += _badge("needs review", "b-warn")
    chips = "".join(
        f'<a class="chip" href="#{e(_anchor(name))}">{e(label(r))}'
        f' {_badge(r.status.value, _STATUS_BADGE[r.status])}<b>{e(fmt_score(r.score))}</b></a>'
        for name, r in v.strategies.items())
    team = ", ".join(f"{m.paper_name} {m.value}" for m in v.team)
    settings = {k: val for k, val in stored.config.items() if k not in ("model", "team") and val is not None}
    facts = [("team", e(team)), ("members", f'<div class="chips">{chips}</div>'), ("spread", e(spread_text(v))),
             ("cost", e(f"{plural(v.llm_calls, 'LLM call')} · {tokens(v)} · "
                        f"{v.seconds:.1f} s")),
             ("model", e(f"{v.model or stored.config.get('model', '?')} · prompts {v.prompt_version or '?'}"))]
    if v.grounds is not None:
        facts.append(("verdict", e(f"{v.merge.replace('_', '-')} merge; rests on {GROUNDS[v.grounds]}")))
    if v.against:
        facts.append(("against", "".join(f"<div>{e(a)}</div>" for a in v.against)))
    if v.needs_review:
        facts.append(("needs review", "".join(f"<div>{e(r)}</div>" for r in v.review_reasons)))
    if settings:
        facts.append(("settings", e(", ".join(f"{k}={artifact_text(val)}" for k, val in settings.items()))))
    dl = "".join(f"<dt>{k}</dt><dd>{val}</dd>" for k, val in facts)
    return (f'<section class="card summary" id="summary"><div class="scorebox">{score}</div>'
            f'<dl class="facts">{dl}</dl></section>')


def _sample(stored: StoredJudgment) -> str:
    s = stored.sample
    parts = [f"<h2>Sample <span class=\"muted\">{e(s.id)}</span></h2>", "<h3>problem</h3>", _pre(s.problem)]
    cand = f"<div><h3>candidate</h3>{_pre(s.candidate)}</div>"
    if s.reference:
        parts.append(f'<div class="grid2">{cand}<div><h3>reference</h3>{_pre(s.reference)}</div></div>')
    else:
        parts.append(cand + '<p class="note">no reference</p>')
    if s.tests:
        parts += ["<h3>the sample's tests</h3>", _pre(s.tests)]
    if s.metadata:
        items = "".join(f"<h4>{e(k)}</h4>{_pre(artifact_text(val))}" for k, val in s.metadata.items())
        parts.append(f"<details><summary>metadata ({len(s.metadata)} fields)</summary>{items}</details>")
    return f'<section class="card" id="sample">{"".join(parts)}</section>'


def _messages(messages: list[dict[str, str]]) -> str:
    out = []
    for m in messages:
        role, content = m.get("role", "?"), m.get("content", "")
        body = f'<div class="role">{e(role)}</div>{_pre(content)}'
        if role == "system":  # the same in every call: folded
            body = f"<details><summary>system prompt ({len(content)} characters)</summary>{_pre(content)}</details>"
        out.append(f'<div class="msg">{body}</div>')
    return "".join(out)


def _llm_call(ev: TraceEvent) -> str:
    head = [f'<span class="step">{e(ev.step or "call")}</span>', f"<span>attempt {ev.attempt or 1}</span>",
            f"<span>finish: {e(ev.finish_reason or '?')}</span>",
            f"<span>{e(tokens(ev))}</span>", f"<span>{ev.seconds:.2f} s</span>"]
    if ev.score is not None:
        head.append(_badge(f"score {fmt_score(ev.score)}", "b-scored"))
    if ev.error:
        head.append(_badge(ev.error, "b-unscored"))
    parsed = ""
    if ev.score is not None or ev.reasons:
        reasons = "".join(f"<li>{e(r)}</li>" for r in ev.reasons or [])
        listed = f'<ul class="reasons">{reasons}</ul>' if reasons else ""
        parsed = f'<div class="parsed"><b>parsed:</b> score {e(fmt_score(ev.score))}{listed}</div>'
    return (f'<div class="call llm-call"><div class="call-head">{"".join(head)}</div><div class="pair">'
            f'<div class="col prompt"><h4>prompt</h4>{_messages(ev.messages or [])}</div>'
            f'<div class="col reply"><h4>raw reply</h4>{_pre(ev.reply or "")}{parsed}</div></div></div>')


def _sandbox_run(ev: TraceEvent) -> str:
    try:
        run = SuiteRun.model_validate(ev.detail or {})
    except ValueError:
        return f'<div class="run"><div class="head">sandbox run {e(ev.step or "")}</div>' \
               f"{_pre(artifact_text(ev.detail))}</div>"
    ok = run.loaded and run.passed == run.total
    head = [f'<span class="step">sandbox · {e(ev.step or "run")}</span>', _badge(run.status, "b-dim"),
            _badge(f"{run.passed}/{run.total} passed", "b-ok" if ok else "b-warn")]
    if not run.loaded:
        head.append(_badge("does not load", "b-bad"))
    head.append(f'<span class="muted">{run.seconds:.2f} s</span>')
    body = ""
    if run.load_error:
        body += f"<h4>load error</h4>{_pre(run.load_error)}"
    if run.stdout_tail.strip():
        body += f"<h4>stdout (tail)</h4>{_pre(run.stdout_tail)}"
    if run.stderr_tail.strip():
        body += f"<h4>stderr (tail)</h4>{_pre(run.stderr_tail)}"
    if body:
        body = f"<details{'' if ok else ' open'}><summary>output</summary>{body}</details>"
    return f'<div class="run"><div class="head">{"".join(head)}</div>{body}</div>'


def _event(ev: TraceEvent) -> str:
    if ev.kind == "llm_call":
        return _llm_call(ev)
    if ev.kind == "sandbox_run":
        return _sandbox_run(ev)
    if ev.kind == "cache_hit":
        return f'<p class="event">{_badge("cache hit", "b-info")} result reused from the cache; its original ' \
               "trace follows</p>"
    if ev.kind == "skip":
        return f'<p class="event">{_badge("skip", "b-skipped")} {e(ev.error or "")}</p>'
    if ev.kind == "error":
        attempt = f" (attempt {ev.attempt})" if ev.attempt else ""
        return f'<p class="event">{_badge("error", "b-bad")}{e(attempt)} {e(ev.error or "")}</p>'
    return f'<p class="event">{_badge(ev.kind, "b-dim")} {e(artifact_text(ev.detail or ev.error or ""))}</p>'


def _tests(suite: ExecutedSuite) -> str:
    summary = e(execution_summary(suite.execution)) if suite.execution else ""
    out = [f'<h3 class="tests-title">{e(suite.title)}</h3>'
           + (f'<p class="tests-summary">{summary}</p>' if summary else "")]
    if suite.rows:
        rows = []
        for i, row in enumerate(suite.rows, 1):
            word, cls = _OUTCOME_BADGE[row.outcome]
            ref = {True: _badge("pass", "b-pass"), False: _badge("fail", "b-fail"),
                   None: '<span class="muted">—</span>'}[row.on_reference]
            cand = {True: _badge("pass", "b-pass"), False: _badge("fail", "b-fail"),
                    None: '<span class="muted">not run</span>'}[row.on_candidate]
            rows.append(f'<tr class="test-row"><td class="num">{i}</td><td><code>{e(row.test)}</code></td>'
                        f"<td>{ref}</td><td>{cand}</td><td>{_badge(word, cls)}</td>"
                        f"<td><code>{e(row.why)}</code></td></tr>")
        out.append('<table class="tests"><colgroup><col class="c-num"><col class="c-test"><col class="c-run">'
                   '<col class="c-run"><col class="c-run"><col class="c-out"></colgroup>'
                   '<thead><tr><th class="num">#</th><th>test</th><th>on reference</th>'
                   "<th>on candidate</th><th>result</th><th>output</th></tr></thead>"
                   f"<tbody>{''.join(rows)}</tbody></table>")
    if suite.note:
        out.append(f'<p class="note">{e(suite.note)}</p>')
    return "".join(out)


def _followers(v: Verdict, feeder: str) -> str:
    names = [v.strategies[f].strategy.paper_name for f in v.strategies if feeder in spec(f).feeders]
    return ", ".join(names) or "another member"


def _juror(v: Verdict, name: str, r: StrategyResult) -> str:
    score = f'<span class="score">{e(fmt_score(r.score))}</span>' if r.score is not None else ""
    head = (f'<h2><span class="paper">{e(r.strategy.paper_name)}</span> {e(r.strategy.value)} '
            f'{_badge(r.status.value, _STATUS_BADGE[r.status])}{score}'
            f'{_badge("cached", "b-info") if r.cached else ""}</h2>')
    stats = [plural(r.llm_calls, "LLM call"),
             tokens(r), f"{r.seconds:.2f} s"]
    if not r.in_team:
        stats.append(f"feeds {_followers(v, name)}; not in the team")
    parts = [head, '<div class="stats">' + "".join(f"<span>{e(x)}</span>" for x in stats) + "</div>"]
    if r.reasons:
        parts.append('<ul class="reasons">' + "".join(f"<li>{e(x)}</li>" for x in r.reasons) + "</ul>")
    if r.detail:
        parts.append(f'<p class="detail {r.status.value}">{e(r.detail)}</p>')
    shown = {k: val for k, val in r.artifacts.items() if k not in SHOWN_ARTIFACTS_SKIP}
    if shown:
        parts.append('<div class="kvs">' + "".join(
            f'<div class="kv"><span class="k">{e(k)}</span><code>{e(artifact_text(val))}</code></div>'
            for k, val in shown.items()) + "</div>")
    if r.artifacts.get("tests"):
        parts.append(f"<details><summary>the tests it wrote</summary>{_pre(str(r.artifacts['tests']))}</details>")
    parts += [_tests(suite) for suite in executed_tests(r)]
    if r.trace:
        parts.append("<h3>trace</h3>" + "".join(_event(ev) for ev in r.trace))
    return f'<article class="card juror" id="{e(_anchor(name))}">{"".join(parts)}</article>'


def _merge(v: Verdict) -> str:
    rows = []
    for row in merge_rows(v):
        rows.append(f'<tr class="{"counted" if row.counted else ""}"><td>{e(row.label)}</td>'
                    f"<td>{_badge(row.status.value, _STATUS_BADGE[row.status])}</td>"
                    f'<td class="num">{e(fmt_score(row.score))}</td>'
                    f"<td>{_badge('averaged', 'b-ok') if row.counted else _badge('not counted', 'b-dim')}</td>"
                    f"<td>{'' if row.counted else e(row.note)}</td></tr>")
    return (f'<section class="card" id="merge"><h2>Merge</h2><div class="formula">{e(merge_formula(v))}</div>'
            '<table class="merge"><thead><tr><th>member</th><th>status</th><th class="num">score</th><th>merge</th>'
            f"<th>why not</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
            f'<p class="muted">spread of the scored members: {e(spread_text(v))}</p></section>')


def render_html(stored: StoredJudgment) -> str:
    """The whole page, as a string (UTF-8 when written)."""
    v, s = stored.verdict, stored.sample
    meta = [v.task.value, s.language, f"model {v.model or stored.config.get('model', '?')}",
            fmt_time(stored.created)]
    jurors = "".join(_juror(v, name, r) for name, r in v.strategies.items())
    return page("judgment", s.id, stored.judgment_id, meta,
                f'{_summary(stored)}{_sample(stored)}<section id="jurors">{jurors}</section>{_merge(v)}')


def page(what: str, name: str, trace_id: str, meta: list[str], main: str) -> str:
    """A standalone trace page around ``main`` (HTML): a judgment's, a ranking's or a comparison's."""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{e(CSP)}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{e(f'{name} · {what} {trace_id} · sejury')}</title>"
        f"<style>{CSS}</style></head><body>"
        f'<header class="top"><div class="brand">sejury · {e(what)} trace</div>'
        f'<h1>{e(name)}<span class="jid">{e(trace_id)}</span></h1>'
        f'<div class="meta">{"".join(f"<span>{e(x)}</span>" for x in meta)}</div></header>'
        f"<main>{main}</main>"
        f"<footer>sejury trace {e(trace_id)} · a standalone page: it loads nothing</footer>"
        "</body></html>\n")
