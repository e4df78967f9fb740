"""One timed run for bench/prompt_cache.py: judge a JSONL file with the embedded model and print
one JSON line (wall seconds from the first sample to the last verdict, model start excluded).

It imports whichever ``sejury`` is first on the path, so the same runner times this checkout and
a baseline revision (``PYTHONPATH=<worktree>``); it uses only API that both have.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from pathlib import Path

from sejury import Judge, Sample


async def main(args: argparse.Namespace) -> None:
    samples = [Sample.model_validate_json(line) for line in Path(args.data).read_text().splitlines() if line.strip()]
    team = args.team.split(",") if args.team else None
    # building the judge starts (or joins) the model server: not part of the timed work
    judge = Judge("embedded", team=team, cache=False, traces=False, prompt_cache_mb=args.prompt_cache_mb)
    t0 = time.perf_counter()
    verdicts = []
    async for _, v in judge.ajudge_many(samples, concurrency=args.concurrency):
        if isinstance(v, BaseException):
            raise v
        verdicts.append(v)
    wall = time.perf_counter() - t0
    await judge.aclose()
    print(json.dumps({
        "wall": wall, "samples": len(verdicts), "llm_calls": sum(v.llm_calls for v in verdicts),
        "prompt_tokens": sum(v.prompt_tokens for v in verdicts),
        "completion_tokens": sum(v.completion_tokens for v in verdicts),
        "unscored_jurors": sum(1 for v in verdicts for r in v.strategies.values()
                               if r.status == "unscored"),
        "scores": {v.sample_id: {k: r.score for k, r in v.strategies.items()} for v in verdicts},
    }))


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("data")
    ap.add_argument("--team", default="")
    ap.add_argument("--prompt-cache-mb", type=int, default=0)
    ap.add_argument("--concurrency", type=int, default=4)
    asyncio.run(main(ap.parse_args()))
