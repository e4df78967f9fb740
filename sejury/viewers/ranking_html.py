"""A stored ranking or comparison as ONE standalone HTML page (``sejury trace rID --html out.html``).

The same page as a judgment's (``html.py``: inline CSS, no script, nothing loaded, every stored
string escaped): a summary card (the attempt chosen, whether the tests were validated on a
reference, the rule, why the choice needs review, the cost), the attempts ranked with their
evidence, the tests the model wrote once for all of them, and every model call and sandbox run in
order.  A comparison adds the model's choice in each order and whether it followed the position.
"""

from __future__ import annotations

from sejury.rank.compare import Comparison
from sejury.rank.records import RankedCandidate, Ranking
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


def _facts(facts: list[tuple[str, str]]) -> str:
    return '<dl class="facts">' + "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in facts) + "</dl>"


def _review(needs: bool, reasons: list[str]) -> list[tuple[str, str]]:
    return [("needs review", "".join(f"<div>{e(r)}</div>" for r in reasons) or "yes")] if needs else []


def _cost(r: Ranking | Comparison) -> tuple[str, str]:
    return "cost", e(f"{plural(r.model_calls, 'model call')} · {r.sandbox_runs} sandbox runs · {r.seconds:g} s")


def _ranking(r: Ranking) -> tuple[str, str, str]:
    best = r.best
    head = (f"chose {_name(best)}, score {best.score:g}" if best else "no attempt loads")
    facts = [("tests", e(("validated on the reference" if r.validated else "not validated: no reference, attempts "
                          "count by agreement") + f"; {r.tests_total} written once"
                         + (f", {r.tests_valid} valid on the reference" if r.tests_valid is not None else "")
                         + r.left_out
                         + f"; {r.probe_inputs} inputs recorded")),
             ("rule", e(r.rule)), *_review(r.needs_review, r.reasons),
             _cost(r)]
    body = (f'<section class="card" id="attempts"><h2>{plural(len(r.candidates), "attempt")}, best first</h2>'
            f"{_table(r.candidates, r.chosen)}</section>")
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
