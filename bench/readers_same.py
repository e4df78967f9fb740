"""What the tree-sitter readers make of every program in the shared data, as digests, so a change
to how they read can be shown to change nothing on real code (and a run of the old commit compared).

    .venv/bin/python bench/readers_same.py --out /tmp/after.json [--limit N]
    PYTHONPATH=/tmp/wt-before .venv/bin/python bench/readers_same.py --out /tmp/before.json
    .venv/bin/python bench/readers_same.py --compare /tmp/before.json /tmp/after.json

Per row of ``../shared/data`` with code (HumanEval in five languages, APPS, BigCodeBench, CoNaLa, the
program-repair rows, ...):
the reference's and the candidate's one-bug mutants (``mutants.mutants``: operator, place, change,
and a digest of each mutated program) and equivalents (``variants.equivalents``, as ``sejury
probe`` makes them), each in the assembled program.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

import sejury
from sejury.checks.variants import equivalents
from sejury.execution import languages
from sejury.execution.mutants import mutants, region_of
from sejury.execution.runner import assemble_program

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def read_all(limit: int | None) -> dict[str, object]:
    out: dict[str, object] = {}
    for path in sorted(DATA.glob("*.jsonl")):
        rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        for row in rows[:limit]:
            lang = languages.get(str(row.get("language") or ""))
            if row.get("task") == "code_summarization" or lang is None or lang.grammar is None:
                continue
            got: dict[str, object] = {}
            for field in ("reference", "candidate"):
                code = row.get(field) or ""
                if not code.strip():
                    continue
                program = assemble_program(lang.name, row.get("problem") or "", code)
                span = region_of(program, code)
                got[field] = [(m.operator, m.line, m.column, m.before, m.after, _digest(m.program))
                              for m in mutants(lang.name, program, [span] if span else None)]
                if span is not None:
                    got[f"{field} equivalents"] = [(v.label, _digest(v.candidate))
                                                   for v in equivalents(lang.name, program, span, code, set())]
            out[f"{path.stem}:{row.get('id')}"] = got
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--limit", type=int, default=None, help="rows per data file")
    ap.add_argument("--compare", nargs=2, type=Path)
    args = ap.parse_args()
    if args.compare:
        a, b = (json.loads(p.read_text()) for p in args.compare)
        differ = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
        print(f"{len(a)} and {len(b)} rows; {len(differ)} differ" + (f": {differ[:20]}" if differ else ""))
        sys.exit(1 if differ else 0)
    t0 = time.monotonic()
    got = read_all(args.limit)
    n = sum(len(v.get(f, [])) for v in got.values() if isinstance(v, dict) for f in ("reference", "candidate"))
    print(f"sejury from {Path(sejury.__file__).parent}: {len(got)} rows, {n} mutants, "
          f"{time.monotonic() - t0:.1f} s", file=sys.stderr)
    if args.out:
        args.out.write_text(json.dumps(got))


if __name__ == "__main__":
    main()
