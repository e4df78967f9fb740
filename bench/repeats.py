"""The judge's own variance, measured: ``sejury batch --repeats K --temperature T`` on a random draw of a
shared dataset, then ``sejury evaluate`` for each juror's test-retest agreement (issue 16).

    .venv/bin/python bench/repeats.py --data ../shared/data/humaneval_python.jsonl --n 12 --repeats 3 \\
        --temperature 0.7 --team S1-ref,S3,S5-exec --execute -o bench-out/repeats

Writes the draw, the run file (resumable: re-run the command after a kill) and the evaluation to
``-o``; prints the evaluation's variance table and the wall time.  Uses the embedded model and,
with ``--execute``, the Docker sandbox.  Nothing else should run on the model meanwhile.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="../shared/data/humaneval_python.jsonl")
    ap.add_argument("--n", type=int, default=12)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--temperature", type=float, default=0.7)
    ap.add_argument("--team", default="S1-ref,S3,S5-exec")
    ap.add_argument("--execute", action="store_true")
    ap.add_argument("--concurrency", type=int, default=4)
    ap.add_argument("-o", "--output", type=Path, default=Path("bench-out/repeats"))
    args = ap.parse_args()

    rows = [json.loads(x) for x in Path(args.data).read_text().splitlines() if x.strip()]
    draw = random.Random(args.seed).sample(rows, args.n)
    args.output.mkdir(parents=True, exist_ok=True)
    data = args.output / "draw.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in draw))
    run = args.output / "run.jsonl"
    cli = [sys.executable, "-m", "sejury.cli"]
    t0 = time.perf_counter()
    judged = subprocess.run([*cli, "batch", str(data), "-o", str(run), "--team", args.team,
                             "--repeats", str(args.repeats), "--temperature", str(args.temperature),
                             "--concurrency", str(args.concurrency), *(["--execute"] if args.execute else [])])
    wall = time.perf_counter() - t0
    if judged.returncode != 0:
        sys.exit(f"sejury batch exited {judged.returncode}; re-run to resume")
    ev = subprocess.run([*cli, "evaluate", str(run), "-o", str(args.output / "evaluation"),
                         "--n", str(max(2, args.n // 3)), "--ns", ""], capture_output=True, text=True)
    if ev.returncode != 0:
        sys.exit(ev.stderr)
    report = (args.output / "evaluation" / "report.md").read_text()
    start = report.find("The judge's own variance")
    print(report[start:report.find("\n\n", report.find("| --- |", start))] if start >= 0 else report)
    print(f"\n{args.n} samples x {args.repeats} repeats at temperature {args.temperature}, team {args.team}: "
          f"{wall:.0f} s for this invocation of the batch (2-core machine: see docs/models.md)")


if __name__ == "__main__":
    main()
