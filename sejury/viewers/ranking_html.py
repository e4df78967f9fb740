"""A stored ranking or comparison as ONE standalone HTML page (``sejury trace rID --html out.html``).

The same page as a judgment's (``html.py``: inline CSS, no script, nothing loaded, every stored
string escaped): a summary card (the attempt chosen, whether the tests were validated on a
reference, the rule, why the choice needs review, the cost), the attempts ranked with their
evidence, the tests the model wrote once for all of them, and every model call and sandbox run in
order.  A comparison adds the model's choice in each order and whether it followed the position.
"""

from __future__ import annotations

from sejury.rank.compare import Comparison
from sejury.rank.records import RankedCandidate, Ranking, TieBreak, TiePair
from sejury.traces.store import StoredRanking
from sejury.viewers.common import fmt_time, plural
from sejury.viewers.html import _badge, _event, _pre, e, page


def _name(c: RankedCandidate) -> str:
    return c.id or f"#{c.index}"


def _fraction(done: int | None, total: int | None) -> str:
    return f"{done}/{total}" if total else "—"


def _table(candidates: list[RankedCandidate], chosen: int | None) -> str:
    rows = []
    for c in candidates:
        flags = (_badge("chosen", "b-pass") if c.index == chosen else "") + \
            (_badge("needs review", "b-warn") if c.needs_review else "") + \
            ("" if c.loaded else _badge("does not load", "b-bad"))
        reasons = "".join(f"<div>{e(r)}</div>" for r in c.reasons)
        rows.append(f'<tr class="attempt-row"><td class="num">{c.rank}</td><td>{e(_name(c))} {flags}</td>'
                    f'<td class="num">{e(f"{c.score:g}" if c.loaded else "—")}</td><td class="num">{c.group}</td>'
                    f'<td class="num">{c.support:g}</td><td class="num">{_fraction(c.tests_passed, c.tests_total)}</td>'
                    f'<td class="num">{_fraction(c.examples_passed, c.examples_total)}</td>'
                    f'<td class="num">{_fraction(c.agreed, c.inputs)}</td>'
                    f'<td class="num">{_fraction(c.user_tests_passed, c.user_tests_total)}</td><td>{reasons}</td></tr>')
    return ('<table class="attempts"><thead><tr><th class="num">rank</th><th>attempt</th><th class="num">score</th>'
            '<th class="num">group</th><th class="num">alike</th><th class="num">tests</th>'
            '<th class="num">examples</th><th class="num">reference</th><th class="num">yours</th>'
            '<th>what it rests on</th></tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table>")


def _said(v: str | None, pair: TiePair, r: Ranking) -> str:
    """The model's choice in one order, by attempt (a, b: the pair's own, whatever the order shown)."""
    if v is None:
        return _badge("unreadable", "b-warn") + ' <span class="muted">no vote</span>'
    if v == "tie":
        return "alike"
    return "chose " + e(r.attempt_name(pair.a if v == "a" else pair.b))


_COUNTED = {"flipped": ("flipped: the position chose", "b-warn"), "unreadable": ("no vote", "b-warn"),
            "alike": ("alike", "b-dim")}


def _tie_break(r: Ranking, tb: TieBreak) -> str:
    """Who was tied at the top, each pair asked in both orders (the model's choice in each, whether it
    flipped, both replies), and the choice and why."""
    by_index = {c.index: c for c in r.candidates}
    rows = []
    for i in [*tb.attempts, *tb.not_asked]:
        group = by_index[i].group if i in by_index else None
        alike = [c.index for c in r.candidates if c.group == group and c.index != i]
        wins = f"{tb.wins[tb.attempts.index(i)]}" if i in tb.attempts else "not asked"
        rows.append(f'<tr class="tied-row"><td>{e(r.attempt_name(i))}'
                    f"{' ' + _badge('chosen', 'b-pass') if i == tb.chosen else ''}</td>"
                    f"<td>{e(', '.join(r.attempt_name(x) for x in alike) or '—')}</td>"
                    f'<td class="num">{e(wins)}</td></tr>')
    tied = ('<table class="tied"><thead><tr><th>attempt asked (one per behaviour)</th>'
            '<th>the same behaviour</th><th class="num">pairs won</th></tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table>")
    pairs, replies = [], []
    for p in tb.pairs:
        a, b = e(r.attempt_name(p.a)), e(r.attempt_name(p.b))
        word, cls = (f"{r.attempt_name(p.a if p.winner == 'a' else p.b)} wins", "b-pass") \
            if p.counted == "won" else _COUNTED[p.counted]
        said = [f'<span class="muted">{who} shown first:</span> '
                + _said(p.verdicts[k] if k < len(p.verdicts) else None, p, r) for k, who in enumerate((a, b))]
        pairs.append(f'<tr class="tie-pair"><td>{a} vs {b}</td><td>{said[0]}</td><td>{said[1]}</td>'
                     f"<td>{'yes' if p.flipped else 'no'}</td><td>{_badge(word, cls)}</td></tr>")
        shown = "".join(f'<div class="col"><div class="muted">{who} shown first</div>{_pre(text)}</div>'
                        for who, text in zip((a, b), p.replies, strict=False))
        replies.append(f'<details class="tie-replies" open><summary>the model\'s replies, {a} vs {b}</summary>'
                       f'<div class="pair">{shown}</div></details>')
    table = ('<table class="tie-pairs"><thead><tr><th>pair</th><th>one order: the model</th>'
             '<th>the other order: the model</th><th>flipped</th><th>counted</th></tr></thead>'
             f"<tbody>{''.join(pairs)}</tbody></table>")
    return (f'<section class="card" id="tie-break"><h2>The model\'s tie-break</h2>'
            f'<p class="tie-outcome">{e(r.tie_break_line)}</p>'
            f"<h3>Tied at the top ({plural(len(tb.attempts) + len(tb.not_asked), 'behaviour')}, score "
            f"{e(f'{tb.score:g}')})</h3>{tied}"
            f"<h3>Each pair, asked in both orders</h3>{table}{''.join(replies)}"
            f'<p class="note">A choice that follows the position (the one shown first, both times) counts as a tie; '
            "a reply unreadable after its repair turn is no vote. The whole calls (prompt and reply) are under "
            "Model calls, as tie_break_I_J (attempt I shown first).</p></section>")


def _facts(facts: list[tuple[str, str]]) -> str:
    return '<dl class="facts">' + "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in facts) + "</dl>"


def _review(needs: bool, reasons: list[str]) -> list[tuple[str, str]]:
    return [("needs review", "".join(f"<div>{e(r)}</div>" for r in reasons) or "yes")] if needs else []


def _cost(r: Ranking | Comparison) -> tuple[str, str]:
    return "cost", e(f"{plural(r.model_calls, 'model call')} · {r.sandbox_runs} sandbox runs · {r.seconds:g} s")


def _ranking(r: Ranking) -> tuple[str, str, str]:
    best = r.best
    head = (f"chose {_name(best)}, score {best.score:g}" if best else "no attempt loads")
    written = "" if r.written_tests is None else "; " + r.written_tests.replace(" tests written", " written", 1)
    facts = [("tests", e(("validated on the reference" if r.validated else "not validated: no reference, attempts "
                          "count by agreement") + written + f"; {r.probe_inputs} inputs recorded")),
             ("rule", e(r.rule)),
             *([("tie-break", e(r.tie_break_line))] if r.tie_break_line else []),
             *_review(r.needs_review, r.reasons),
             _cost(r)]
    body = (f'<section class="card" id="attempts"><h2>{plural(len(r.candidates), "attempt")}, best first</h2>'
            f"{_table(r.candidates, r.chosen)}</section>")
    if r.tie_break is not None:
        body += _tie_break(r, r.tie_break)
    if r.tests:
        body += f'<section class="card" id="tests"><h2>The tests the model wrote</h2>{_pre(r.tests)}</section>'
    return head, _facts(facts), body


def _comparison(c: Comparison) -> tuple[str, str, str]:
    head = {"a": f"{_name(c.a)} is better", "b": f"{_name(c.b)} is better", "tie": "a tie"}[c.winner]
    asked = ", ".join(f"{order}: {v or 'unreadable'}" for order, v in zip(("A/B", "B/A"), c.model_verdicts,
                                                                           strict=False))
    facts = [("decided by", e(c.decided_by)),
             ("tests", e("validated on the reference" if c.validated else "not validated: no reference")),
             *([("model", e(asked + ("; its choice followed the position: counted a tie" if c.flipped else "")))]
               if c.model_verdicts else []),
             *_review(c.needs_review, c.reasons),
             _cost(c)]
    chosen = {"a": c.a.index, "b": c.b.index}.get(c.winner)
    body = f'<section class="card" id="attempts"><h2>The two attempts</h2>{_table([c.a, c.b], chosen)}</section>'
    return head, _facts(facts), body


def render_ranking_html(stored: StoredRanking) -> str:
    """The whole page, as a string (UTF-8 when written)."""
    record: Ranking | Comparison
    if stored.kind == "compare":
        record = compared = Comparison.model_validate(stored.body)
        head, facts, body = _comparison(compared)
    else:
        record = ranked = Ranking.model_validate(stored.body)
        head, facts, body = _ranking(ranked)
    what = "comparison" if stored.kind == "compare" else "ranking"
    review = _badge("needs review", "b-warn") if record.needs_review else ""
    meta = [record.language, f"model {stored.model}", fmt_time(stored.created)]
    events = "".join(_event(ev) for ev in record.events) or '<p class="note">no event was recorded</p>'
    return page(what, record.problem_id, stored.ranking_id, meta,
                f'<section class="card summary" id="summary"><div class="scorebox"><div class="verdict">{e(head)}'
                f"</div>{review}</div>{facts}</section>{body}"
                f'<section class="card" id="events"><h2>Model calls and sandbox runs</h2>{events}</section>')
