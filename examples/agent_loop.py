"""A small coding agent that uses sejury as its judge: generate -> judge -> feed back -> retry.

    .venv/bin/python examples/agent_loop.py                     # embedded model, Docker sandbox
    .venv/bin/python examples/agent_loop.py --from-scratch      # the model writes the first attempt too
    .venv/bin/python examples/agent_loop.py --attempts 2 --no-execute
    .venv/bin/python examples/agent_loop.py --from-scratch --samples 4   # best of 4 per round (judge.rank)

A LangGraph loop on the embedded model end to end, starting from a buggy draft (or, with
``--from-scratch``, from the model's own first attempt);
``judge.as_tool()`` judges it (the problem's tests really run in the sandbox as the
``sample_tests`` juror; ``--team sample_tests,direct`` adds the model's own opinion); when the verdict is a FAIL,
the tool's text (failing tests, the lowest jurors' reasons) goes back to the model, which tries
again, up to ``--attempts`` times.  With ``--samples K`` the model writes K attempts per round (sampled
at temperature 0.8) and ``judge.arank`` picks the one the evidence backs (tests written once for
the problem and the problem's own tests, run on all K) before it is judged.  It prints every
attempt and exits 0 when an attempt passed, 1 when none did (the agent's failure, reported
honestly), 2 on a setup error.
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import Any, TypedDict

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langgraph.graph import END, START, StateGraph

from sejury import Judge
from sejury.agent import ReviewPolicy

PROBLEM = ("Write a Python function second_largest(xs) that returns the second largest distinct value "
           "in the list xs, or None when xs has fewer than two distinct values.")
TESTS = ("assert second_largest([3, 1, 2]) == 2\n"
         "assert second_largest([5, 5, 4]) == 4\n"
         "assert second_largest([7, 7]) is None\n"
         "assert second_largest([]) is None\n"
         "assert second_largest([-1, -3, -2]) == -2\n")
# The draft the agent starts from (a common slip: no de-duplication); --from-scratch generates one.
DRAFT = "def second_largest(xs):\n    if len(xs) < 2:\n        return None\n    return sorted(xs)[-2]\n"


class LoopState(TypedDict, total=False):
    messages: list[BaseMessage]
    code: str
    attempt: int
    passed: bool
    feedback: str


def code_of(reply: str) -> str:
    """The code of a reply: its first fenced block, else the whole reply."""
    m = re.search(r"```(?:python|py)?\s*\n(.*?)```", reply, re.S)
    return (m.group(1) if m else reply).strip() + "\n"


def build_loop(judge: Judge, attempts: int, policy: ReviewPolicy, samples: int = 1) -> Any:
    tool = judge.as_tool(policy)
    model = judge.llm.model  # the same model writes the code (a stronger one would do better)

    async def generate(state: LoopState) -> LoopState:
        attempt = state.get("attempt", 0) + 1
        if samples <= 1:
            reply = await model.ainvoke(state["messages"])
            text = reply.content if isinstance(reply.content, str) else str(reply.content)
            print(f"\n--- attempt {attempt}: the model wrote ---\n{code_of(text)}", flush=True)
            return {"messages": [*state["messages"], AIMessage(text)], "code": code_of(text), "attempt": attempt}
        texts = []
        for k in range(samples):  # one at a time: the embedded model serves one request well
            reply = await model.bind(temperature=0.8, seed=1000 * attempt + k).ainvoke(state["messages"])
            texts.append(reply.content if isinstance(reply.content, str) else str(reply.content))
        ranking = await judge.arank(PROBLEM, [code_of(t) for t in texts], tests=TESTS,
                                    problem_id=f"agent-round-{attempt}")
        best = ranking.chosen if ranking.chosen is not None else 0
        print(f"\n--- attempt {attempt}: the model wrote {samples}; sejury ranked them ---\n"
              + "\n".join(f"#{c.rank} sample {c.index}: score {c.score:g}; " + "; ".join(c.reasons)
                          for c in ranking.candidates)
              + f"\n--- attempt {attempt}: sample {best} chosen ---\n{code_of(texts[best])}", flush=True)
        return {"messages": [*state["messages"], AIMessage(texts[best])], "code": code_of(texts[best]),
                "attempt": attempt}

    async def judge_it(state: LoopState) -> LoopState:
        call = {"name": tool.name, "args": {"problem": PROBLEM, "candidate": state["code"], "tests": TESTS,
                                            "id": f"agent-attempt-{state['attempt']}"},
                "id": f"call-{state['attempt']}", "type": "tool_call"}
        msg: ToolMessage = await tool.ainvoke(call)
        feedback = msg.artifact
        print(f"--- sejury says ---\n{msg.content}", flush=True)
        retry = HumanMessage("A judge reviewed your code:\n" + str(msg.content)
                             + "\nFix the code. Reply with the whole corrected function in one ```python block.")
        return {"passed": bool(feedback["passed"]), "feedback": str(msg.content),
                "messages": [*state["messages"], retry]}

    def route(state: LoopState) -> str:
        return END if state.get("passed") or state["attempt"] >= attempts else "generate"

    g = StateGraph(LoopState)
    g.add_node("generate", generate)
    g.add_node("judge", judge_it)
    g.add_conditional_edges(START, lambda s: "judge" if s.get("code") else "generate", ["generate", "judge"])
    g.add_edge("generate", "judge")
    g.add_conditional_edges("judge", route, ["generate", END])
    return g.compile(name="coding-loop")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--attempts", type=int, default=3)
    ap.add_argument("--threshold", type=float, default=100.0)
    ap.add_argument("--team", default=None, help="the jurors (default: sample_tests, i.e. the problem's tests, "
                    "run; direct when not executing)")
    ap.add_argument("--no-execute", action="store_true", help="judge without running the tests (no Docker)")
    ap.add_argument("--model", default=None, help="a judge model (default: the embedded one)")
    ap.add_argument("--samples", type=int, default=1, help="attempts the model writes per round; with more than "
                    "one, judge.rank picks the one to judge (needs the sandbox)")
    ap.add_argument("--from-scratch", action="store_true", help="generate the first attempt instead of judging "
                    "the bundled buggy draft first")
    args = ap.parse_args(argv)
    execute = not args.no_execute
    # The embedded 1.5B model's own opinion is near noise (it scores the buggy draft 100): by default
    # the verdict rests on the problem's tests, really run; --team sample_tests,direct adds its opinion.
    team = args.team or ("sample_tests" if execute else "direct")
    try:
        judge = Judge(args.model, team=team, execute=execute, cache=False)
    except Exception as exc:  # no Docker engine, no model ...
        print(f"cannot set up the judge: {exc}", file=sys.stderr)
        return 2
    if args.samples > 1 and not execute:
        print("--samples needs the sandbox: ranking runs the attempts", file=sys.stderr)
        return 2
    loop = build_loop(judge, args.attempts, ReviewPolicy(threshold=args.threshold), args.samples)
    start: LoopState = {"messages": [
        SystemMessage("You are a careful Python programmer. Reply with code in one ```python block."),
        HumanMessage(PROBLEM)]}
    if not args.from_scratch:
        print(f"--- attempt 1: the draft ---\n{DRAFT}", flush=True)
        start = {"messages": [*start["messages"], AIMessage(f"```python\n{DRAFT}```")], "code": DRAFT, "attempt": 1}
    from sejury.api import run_sync

    try:
        final = run_sync(loop.ainvoke(start))
    finally:
        judge.close()
    ok = bool(final.get("passed"))
    print(f"\n{'PASSED' if ok else 'NOT PASSED'} after {final['attempt']} attempt(s) (team {team}, "
          f"threshold {args.threshold:g})")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
