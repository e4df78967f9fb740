"""How the time to split a sample's tests into units grows with the tests' size, form by form: a
sample's ``tests`` is the judge's input (a server takes 1 MB of it), so splitting must stay about
linear, and the units it makes must stay bounded (``base.Copies``) however the text repeats.

    .venv/bin/python bench/split_scaling.py [--sizes 500,2000,8000] [--forms python-asserts,...]
                                            [--timeout 60] [--before DIR]

Each form is a suite of N tests in one of the shapes users write (plain asserts, ``def test_*``,
a ``unittest`` class, a Jest block, a JUnit class with a large field, Go test functions, steps
before each check, a table loop, ...).  Each (form, N) is split in a fresh process
(``runner.split_tests``), timed around the call; over ``--timeout`` seconds it is stopped and
shown as such.  The table gives the seconds, the units, their total characters, and the growth
exponent from the previous size (1 linear, 2 quadratic).  ``--before DIR``: the same cases under
``PYTHONPATH=DIR`` (a worktree of an older commit), each case's two runs back to back; a side
over the limit at one size is not run at the larger ones.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
from pathlib import Path

REF = {"python": "def f(x):\n    return x\n", "javascript": "function f(x) { return x; }\n",
       "java": "class Solution { static int f(int x) { return x; } }\n", "cpp": "int f(int x) { return x; }\n",
       "go": "package main\nfunc f(x int) int { return x }\n"}
PAD = "x" * 100_000


def suite(form: str, n: int) -> tuple[str, str]:
    """The language and the tests of ``form`` with ``n`` tests."""
    if form == "python-asserts":
        return "python", "\n".join(f"assert f({i}) == {i}" for i in range(n))
    if form == "python-functions":
        return "python", "\n".join(f"def test_{i}():\n    assert f({i}) == {i}\n" for i in range(n))
    if form == "python-unittest":
        body = "\n".join(f"    def test_{i}(self):\n        self.assertEqual(f({i}), {i})\n" for i in range(n))
        head = "import unittest\n\nclass T(unittest.TestCase):\n    def setUp(self):\n        self.k = 1\n\n"
        return "python", head + body
    if form == "python-steps":
        return "python", "\n".join(f"y{i} = f({i})\nassert y{i} == {i}" for i in range(n))
    if form == "python-table":
        rows = ", ".join(f"({i}, {i})" for i in range(n))
        return "python", f"cases = [{rows}]\nfor x, want in cases:\n    assert f(x) == want\n"
    if form == "javascript-jest":
        body = "\n".join(f"  test('t{i}', () => {{ expect(f({i})).toBe({i}); }});" for i in range(n))
        return "javascript", f"describe('d', () => {{\n  let k;\n  beforeEach(() => {{ k = 1; }});\n{body}\n}});\n"
    if form == "java-junit-field":
        body = "\n".join(f"    @Test\n    void t{i}() {{ assertEquals({i}, Solution.f({i})); }}" for i in range(n))
        return "java", f'class SolutionTest {{\n    String pad = "{PAD}";\n{body}\n}}\n'
    if form == "cpp-asserts":
        return "cpp", "\n".join(f"assert(f({i}) == {i});" for i in range(n))
    if form == "go-tests":
        return "go", "\n".join(f"func TestF{i}(t *testing.T) {{\n\tif f({i}) != {i} {{ t.Fatal(\"x\") }}\n}}"
                               for i in range(n))
    raise SystemExit(f"no form {form!r}")


FORMS = ["python-asserts", "python-functions", "python-unittest", "python-steps", "python-table",
         "javascript-jest", "java-junit-field", "cpp-asserts", "go-tests"]

_CHILD = """
import json, sys, time
sys.path.insert(0, {bench!r})
from split_scaling import REF, suite
from sejury.execution.runner import split_tests
language, tests = suite({form!r}, {n})
t = time.perf_counter()
s = split_tests(language, tests, REF[language])
print(json.dumps({{"seconds": time.perf_counter() - t, "units": len(s.units), "unit_chars": sum(map(len, s.units)),
                  "chars": len(tests)}}))
"""


def run(form: str, n: int, timeout: float, pythonpath: str | None) -> dict[str, float] | None:
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    code = _CHILD.format(bench=str(Path(__file__).resolve().parent), form=form, n=n)
    try:
        # run in the bench's folder: ``-c`` puts the working folder first on the path, and a checkout's
        # own ``sejury`` there would win over ``PYTHONPATH``
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout,
                             env=env, check=True, cwd=Path(__file__).resolve().parent)
    except subprocess.TimeoutExpired:
        return None
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="500,2000,8000")
    ap.add_argument("--forms", default=",".join(FORMS))
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--before", help="a checkout of an older commit, run by PYTHONPATH")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    sides = [("before", args.before), ("after", None)] if args.before else [("this", None)]
    print("| form | tests | chars | " + " | ".join(f"{side} s | {side} units | {side} unit chars | {side} growth"
                                                  for side, _ in sides) + " |")
    print("|---|---:|---:|" + "---:|---:|---:|---:|" * len(sides))
    for form in args.forms.split(","):
        last: dict[str, tuple[int, float] | None] = {side: None for side, _ in sides}
        stopped: set[str] = set()
        for n in sizes:
            cells, chars = [], len(suite(form, n)[1])
            for side, path in sides:
                if side in stopped:  # over the limit at a smaller size
                    cells += ["not run", "", "", ""]
                    continue
                r = run(form, n, args.timeout, path)
                if r is None:
                    cells += [f"> {args.timeout:.0f}", "", "", ""]
                    stopped.add(side)
                    continue
                prev = last[side]
                growth = (f"{math.log(r['seconds'] / prev[1]) / math.log(n / prev[0]):.2f}"
                          if prev and prev[1] > 0.02 and r["seconds"] > 0 else "")
                cells += [f"{r['seconds']:.3f}", f"{r['units']:.0f}", f"{r['unit_chars']:.0f}", growth]
                last[side] = (n, r["seconds"])
            print(f"| {form} | {n} | {chars} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
