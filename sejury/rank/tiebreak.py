"""The model breaks a tie at the top of a ranking (``Judge.rank(..., tie_break="model")``).

Where attempts that behave differently share the top score, the evidence cannot choose between
them.  One attempt per tied behaviour (the first in the evidence's order) is put to the model, two
at a time, by ``compare``'s machinery: its prompt and parsing, asked in both orders.  A choice that
follows the position (the one shown first, both times) is a tie; a reply that cannot be read after
the repair turn is no vote, and a pair with an order unread counts no win (one order alone cannot
show whether the position chose).  With k tied behaviours that is a round-robin of k(k-1)/2 pairs,
k(k-1) calls; at most ``MAX_TIED_BEHAVIOURS`` are asked (the first in the evidence's order), the
others follow them in their order.  The tied behaviours are then ordered by the pairs they won
(ties by the evidence's order), each behaviour's attempts together.  The model *settles* the tie
only when the top one won every pair it was in; either way the choice still needs review: an
opinion is weaker evidence than a run.  Where the evidence separates the top, nothing is asked."""

from __future__ import annotations

import itertools
import time

from sejury.context import JudgeContext
from sejury.rank import agreement
from sejury.rank.compare import ModelChoice, ask_both_orders
from sejury.rank.evidence import Collected, order
from sejury.rank.records import MAX_TIED_BEHAVIOURS, Ranking, TieBreak, TiePair
from sejury.strategies._calls import Recorder


async def break_ties(ctx: JudgeContext, c: Collected, ranking: Ranking, *, use_reference: bool,
                     use_stated: bool = True) -> Ranking:
    """``ranking`` (``order(c, ...)``'s) with its tied behaviours at the top ordered by the model,
    or, with no model call where the top score is not shared by different behaviours, a copy saying
    why (``tie_break_skipped``)."""
    tied = agreement.tied_behaviours(ranking.candidates, c.behaviours)
    if len(tied) < 2:
        return ranking.model_copy(update={"tie_break_skipped": skipped(ranking)})
    started = time.perf_counter()
    asked = [t.index for t in tied[:MAX_TIED_BEHAVIOURS]]
    rec = Recorder(c.rec.strategy)
    reference = c.problem.reference if use_reference else None
    pairs = []
    for a, b in itertools.combinations(asked, 2):
        m = await ask_both_orders(ctx, rec, c.problem, c.problem.candidates[a], c.problem.candidates[b],
                                  reference=reference, steps=(f"tie_break_{a}_{b}", f"tie_break_{b}_{a}"))
        pairs.append(tie_pair(a, b, m))
    wins = [sum(1 for p in pairs if _won(p) == i) for i in asked]
    by_wins = [i for _, _, i in sorted((-w, k, i) for k, (i, w) in enumerate(zip(asked, wins, strict=True)))]
    top = by_wins[0]
    tie = TieBreak(score=tied[0].score, attempts=asked, not_asked=[t.index for t in tied[MAX_TIED_BEHAVIOURS:]],
                   pairs=pairs, wins=wins, order=by_wins,
                   chosen=top if wins[asked.index(top)] == len(asked) - 1 else None, model_calls=rec.calls)
    tie.seconds = round(time.perf_counter() - started, 3)
    out = order(c, use_reference=use_reference, use_stated=use_stated, tie=tie)
    out.model_calls += rec.calls
    out.events = [*out.events, *rec.events]
    out.seconds = round(ranking.seconds + tie.seconds, 3)
    return out


def skipped(ranking: Ranking) -> str:
    """Why nothing was put to the model (the top score is not shared by different behaviours), in words."""
    ranked = ranking.candidates
    if not ranked or not ranked[0].loaded:
        return "not possible: no attempt loads or compiles"
    top, name = ranked[0], ranking.attempt_name
    if len(ranked) == 1:
        return f"not needed: one attempt ({name(top.index)})"
    level = [c for c in ranked[1:] if c.loaded and c.score == top.score
             and c.user_tests_passed == top.user_tests_passed]
    if level:  # they share the top score and behave alike (one group)
        return (f"not needed: the {len(level) + 1} attempts that share the top score ({top.score:g}) behave alike: "
                + ", ".join(name(c.index) for c in [top, *level][:5]))
    nxt = ranked[1]
    if not nxt.loaded:
        return f"not needed: only {name(top.index)} loads"
    ahead = (f"fails fewer of your tests than {name(nxt.index)}, at the same score" if nxt.score == top.score else
             f"scores {top.score:g}, the next ({name(nxt.index)}) {nxt.score:g}")
    return f"not needed: the evidence separates the top: {name(top.index)} {ahead}"


def _won(p: TiePair) -> int | None:
    return p.a if p.winner == "a" else p.b if p.winner == "b" else None


def tie_pair(a: int, b: int, m: ModelChoice) -> TiePair:
    """Compare's choice between attempts ``a`` and ``b`` as the tie-break counts it: a win only where
    both orders were read and the choice did not follow the position."""
    winner = m.winner if m.both_read else "tie"
    name = {"a": str(a), "b": str(b)}

    def vote(v: str | None, shown: int) -> str:
        said = f"chose {name[v]}" if v in name else "alike" if v == "tie" else "unreadable"
        return f"{said} with {shown} shown first"

    votes = f"{vote(m.verdicts[0], a)}, {vote(m.verdicts[1], b)}"
    if winner != "tie":
        outcome = f"{name[winner]} over {name['b' if winner == 'a' else 'a']} ({votes})"
    elif m.flipped:
        outcome = f"{a} vs {b}: the position decided, not the code ({votes})"
    elif not m.both_read:
        outcome = f"{a} vs {b}: no choice, a reply could not be read ({votes})"
    else:
        outcome = f"{a} vs {b}: alike ({votes})"
    return TiePair(a=a, b=b, verdicts=m.verdicts, replies=m.replies, winner=winner, flipped=m.flipped,
                   outcome=outcome)
