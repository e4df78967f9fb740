"""Ranking where agents and graphs use it: a LangChain tool and a LangGraph graph (one node).

    tool = judge.as_rank_tool()          # an agent passes the problem and its attempts, reads the choice
    graph = rank_graph(judge)            # {"request": RankRequest} in, {"ranking": Ranking, "summary": str}
                                         # out (RankRequest's options too: tie_break="model", ...)
    compare_tool(judge), compare_graph(judge)   # the same for two attempts ({"comparison": Comparison, ...})

``summary`` and ``compare_summary`` are the words the tools answer with; the graphs and ``/rank`` and
``/compare`` (``rank_reply``, ``compare_reply``) carry the same text in a ``summary`` field.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, TypedDict

from langchain_core.tools import StructuredTool
from langgraph.graph import END, START, StateGraph
from pydantic import BaseModel, Field

from sejury.rank.compare import Comparison
from sejury.rank.records import CompareRequest, Ranking, RankRequest

if TYPE_CHECKING:
    from langgraph.graph.state import CompiledStateGraph

    from sejury.api import Judge


class RankState(TypedDict, total=False):
    request: RankRequest
    ranking: Ranking
    summary: str  # ``summary(ranking)``: what the rank tool answers


class CompareState(TypedDict, total=False):
    request: CompareRequest
    comparison: Comparison
    summary: str  # ``compare_summary(comparison)``: what the compare tool answers


SUMMARY_HELP = "The record in words, as the agent tool answers: the choice first, then each attempt's evidence."


class RankReply(Ranking):
    """What ``POST /rank`` answers: the ``Ranking``, and the rank tool's words for it."""

    summary: str = Field(description=SUMMARY_HELP + " Its first line is `CHOSEN: attempt N` (or `NO CHOICE`); "
                                      "a `tie-break:` line follows where the model's tie-break was asked for.")


class CompareReply(Comparison):
    """What ``POST /compare`` answers: the ``Comparison``, and the compare tool's words for it."""

    summary: str = Field(description=SUMMARY_HELP + " Its first line is `BETTER: a`, `BETTER: b` or `TIE`, "
                                      "with what decided it.")


def rank_reply(r: Ranking) -> RankReply:
    return RankReply(**dict(r), summary=summary(r))


def compare_reply(c: Comparison) -> CompareReply:
    return CompareReply(**dict(c), summary=compare_summary(c))


async def rank_request(judge: Judge, req: RankRequest) -> Ranking:
    return await judge.arank(req.problem, req.candidates, language=req.language, reference=req.reference,
                             tests=req.tests, problem_id=req.problem_id, ids=req.ids, tie_break=req.tie_break,
                             form=req.form)


def rank_graph(judge: Judge) -> CompiledStateGraph[RankState, Any, RankState, RankState]:
    """A graph of one node, ``rank``: add it to a larger graph as a subgraph, or invoke it.  It sets
    ``ranking`` and ``summary`` (the rank tool's words for it)."""

    async def rank(state: RankState) -> RankState:
        r = await rank_request(judge, RankRequest.model_validate(state["request"]))
        return {"ranking": r, "summary": summary(r)}

    g = StateGraph(RankState)
    g.add_node("rank", rank)
    g.add_edge(START, "rank")
    g.add_edge("rank", END)
    return g.compile()


async def compare_request(judge: Judge, req: CompareRequest) -> Comparison:
    return await judge.acompare(req.problem, req.a, req.b, language=req.language, reference=req.reference,
                                tests=req.tests, problem_id=req.problem_id, form=req.form)


def compare_graph(judge: Judge) -> CompiledStateGraph[CompareState, Any, CompareState, CompareState]:
    """A graph of one node, ``compare``: {"request": CompareRequest} in, {"comparison": ..., "summary": the
    compare tool's words for it} out."""

    async def compare(state: CompareState) -> CompareState:
        c = await compare_request(judge, CompareRequest.model_validate(state["request"]))
        return {"comparison": c, "summary": compare_summary(c)}

    g = StateGraph(CompareState)
    g.add_node("compare", compare)
    g.add_edge(START, "compare")
    g.add_edge("compare", END)
    return g.compile()


def compare_summary(c: Comparison) -> str:
    """What an agent reads of a comparison: the better attempt and what decided it, then both attempts' evidence."""
    head = "TIE" if c.winner == "tie" else f"BETTER: {c.winner}"
    return (f"{head} (decided by {c.decided_by}{'; NEEDS REVIEW' if c.needs_review else ''})\n"
            + "\n".join([*c.reasons, "a: " + "; ".join(c.a.reasons), "b: " + "; ".join(c.b.reasons)]))


def compare_tool(judge: Judge, *, name: str = "compare_attempts") -> StructuredTool:
    """Two attempts in, the better one (a, b or tie) and why out (the ``Comparison`` as artifact)."""

    async def arun(**kwargs: Any) -> tuple[str, Comparison]:
        c = await compare_request(judge, CompareRequest.model_validate(kwargs))
        return compare_summary(c), c

    return _tool(arun, name, CompareRequest, (
        "Decide which of two attempts at one coding problem is correct: tests run on both in a sandbox first; "
        "where they do not separate them a model judges both orders. Returns a, b or tie and why."))


def _tool(arun: Callable[..., Coroutine[Any, Any, tuple[str, Any]]], name: str, schema: type[BaseModel],
          description: str) -> StructuredTool:
    """A tool answering with text for the model and the record as the tool message's artifact."""

    def run(**kwargs: Any) -> tuple[str, Any]:
        from sejury.api import run_sync

        return run_sync(arun(**kwargs))

    return StructuredTool.from_function(func=run, coroutine=arun, name=name, args_schema=schema,
                                        response_format="content_and_artifact", description=description)


def summary(r: Ranking) -> str:
    """What an agent reads: the choice, then each attempt's score and evidence, best first."""
    if r.chosen is None:
        return "NO CHOICE: no attempt loads or compiles.\n" + "\n".join(
            f"attempt {c.index}: {'; '.join(c.reasons)}" for c in r.candidates)
    lines = [f"CHOSEN: attempt {r.chosen}" + (" (NEEDS REVIEW: " + "; ".join(r.reasons) + ")" if r.needs_review
                                               else "")]
    if r.tie_break_line:  # the model's tie-break, or why it was asked for and not run
        lines.append("tie-break: " + r.tie_break_line)
    for c in r.candidates:
        lines.append(f"#{c.rank} attempt {c.index}: score {c.score:g}; " + "; ".join(c.reasons))
    return "\n".join(lines)


def as_rank_tool(judge: Judge, *, name: str = "rank_attempts") -> StructuredTool:
    """The ranking as a LangChain tool: a problem and its attempts in, the choice and its evidence out
    (as text; the ``Ranking`` is the tool message's artifact)."""

    async def arun(**kwargs: Any) -> tuple[str, Ranking]:
        r = await rank_request(judge, RankRequest.model_validate(kwargs))
        return summary(r), r

    return _tool(arun, name, RankRequest, (
        "Pick the best of several attempts at one coding problem. Tests are written once and run on every "
        "attempt in a sandbox; attempts that behave alike and pass the tests rank first. Give your own tests in "
        "`tests` when you have them; `tie_break: \"model\"` lets the model choose where attempts that behave "
        "differently score the same. Returns the chosen attempt's index and why."))
