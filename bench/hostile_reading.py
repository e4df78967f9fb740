"""Texts written to break the judge's own reading of code, timed as a user meets them: ``sejury
probe`` on a Java candidate whose tree is 40,000 deep, and on one that tree-sitter cannot parse
within any reasonable memory; each run in a child limited to 8 GiB of address space (without the
limit the second took the VM's 24 GiB), its wall time, exit status and peak memory (of it or a
child it waited for: ``wait4``).  ``--before DIR`` runs the same on another checkout (a git worktree of an
older commit, first on ``PYTHONPATH``).

    .venv/bin/python bench/hostile_reading.py [--before /tmp/wt-before]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LIMIT = 8 << 30
DEEP = "class Solution {\n    public static int digits(int n) { return String.valueOf(Math.abs(n)).length(); }\n}\n"
CASES = {"a tree 40,000 deep (`int z = a<b<c...;`)": DEEP + "/* */ int z = " + "a<b<c" * 20_000 + ";\n",
         "100 kB of `a<b<c` (tree-sitter's recovery)": DEEP + "a<b<c" * 20_000 + "\n"}


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))


def probe(candidate: str, env: dict[str, str]) -> tuple[float, int, int, str]:
    """(wall s, exit status, peak MB, last line of stderr) of one ``sejury probe``."""
    with tempfile.TemporaryDirectory() as work:
        sample = {"id": "hostile-java", "task": "code_generation", "language": "java",
                  "problem": "class Solution {\n    public static int digits(int n) {\n", "candidate": candidate,
                  "reference": DEEP.replace("String.valueOf", "Integer.toString")}
        Path(work, "s.jsonl").write_text(json.dumps(sample) + "\n")
        cmd = [sys.executable, "-m", "sejury.cli", "probe", "s.jsonl", "--team", "BLEU", "--no-verify", "-o", "out",
               "--cache-path", "r.sqlite", "--trace-path", "t.sqlite"]
        t0 = time.monotonic()
        proc = subprocess.Popen(cmd, cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                preexec_fn=_limited, env={**os.environ, "COLUMNS": "200", **env})
        assert proc.stderr is not None
        err = proc.stderr.read()
        _, status, usage = os.wait4(proc.pid, 0)  # this run's own figures (and its waited children's)
        proc.returncode = code = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - t0
        peak = usage.ru_maxrss >> 10
        lines = [ln.strip(" │") for ln in err.splitlines() if ln.strip(" │")]
        return wall, code, peak, (lines[-1] if lines else "")[:110]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", type=Path)
    args = ap.parse_args()
    variants = ([("before", {"PYTHONPATH": str(args.before)})] if args.before else []) + [("after", {})]
    print("| text | variant | wall s | exit | peak MB | last line of stderr |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, candidate in CASES.items():
        for variant, env in variants:
            wall, code, peak, last = probe(candidate, env)
            print(f"| {name} | {variant} | {wall:.1f} | {code} | {peak:,} | {last} |", flush=True)


if __name__ == "__main__":
    main()
