"""Per-language runners: turn (program, generated tests) into files + a command for a sandbox,
and read back which tests passed.

Every test becomes a *unit* run on its own (a failing or crashing assertion does not hide the
others), and the harness reports ``@@LOAD OK|FAIL`` (does the program load / compile at all:
executability) and ``@@T <i> PASS|FAIL <why>`` per unit.  Units the harness never reports (the
run timed out, crashed, or ran out of memory) count as failed.

Python: plain asserts and ``def test_*`` functions (split with ``ast``), each under an alarm.
JavaScript: node, ``console.assert`` made to throw.  Java: javac + a generated main.  C++: g++ with
``assert`` turned into a throwing check.  Go: ``go test`` with ``t.Errorf`` turned into a
recoverable failure.  For compiled languages a unit that does not compile is marked failed and
the rest are compiled again without it.
"""

from __future__ import annotations

import ast
import json
import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field

from pydantic import BaseModel

from sejury.sandbox.base import ExecResult, ExecStatus, SandboxProvider

# Part of the cache key of S5 with execution: bump it when how programs and tests are built or
# read changes, so cached pass ratios computed the old way are not reused.
RUNNERS_VERSION = "2"
LANGUAGES = ("python", "javascript", "java", "cpp", "go")
_ALIASES = {"py": "python", "js": "javascript", "node": "javascript", "c++": "cpp", "golang": "go"}
PYTHON_PRELUDE = ("import math, re, sys, string, itertools, collections, heapq, functools, bisect\n"
                  "from typing import *\n")


def language_of(name: str) -> str | None:
    lang = _ALIASES.get(name.lower(), name.lower())
    return lang if lang in LANGUAGES else None


@dataclass
class Suite:
    setup: str  # run once before the units (imports, helpers, shared fixtures)
    units: list[str]


class RunReport(BaseModel):
    """The outcome of one suite on one program."""

    loaded: bool  # the program loads / compiles (executability)
    passed: list[bool]  # one per unit
    reasons: list[str]  # why each unit failed ("" when it passed)
    status: ExecStatus  # of the last sandbox run
    seconds: float
    load_error: str = ""
    stderr_tail: str = ""
    runs: int = 1  # sandbox runs it took (compile retries)

    @property
    def n_passed(self) -> int:
        return sum(self.passed)


# --------------------------------------------------------------------------- splitting tests

def _balanced_statements(text: str) -> list[str]:
    """Split C-like code into top-level statements by line, keeping brackets and strings whole."""
    out: list[str] = []
    cur: list[str] = []
    depth, quote = 0, ""
    for line in text.splitlines():
        if not line.strip() and not cur:
            continue
        cur.append(line)
        i = 0
        while i < len(line):
            ch = line[i]
            if quote:
                if ch == "\\":
                    i += 1
                elif ch == quote:
                    quote = ""
            elif line.startswith("//", i):
                break
            elif ch in "\"'`":
                quote = ch
            elif ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
            i += 1
        if quote == "'" or quote == '"':
            quote = ""  # unterminated on this line: do not let it swallow the rest
        if depth <= 0:
            stmt = "\n".join(cur).strip()
            if stmt and not stmt.startswith("//"):
                out.append(stmt)
            cur, depth = [], 0
    if cur:
        out.append("\n".join(cur).strip())
    return out


_CHECK = {
    "javascript": re.compile(r"assert|throw"),
    "java": re.compile(r"assert|throw|AssertionError"),
    "cpp": re.compile(r"\bassert\b|throw"),
    "go": re.compile(r"t\.(Errorf|Error|Fatalf|Fatal|Fail)\b|panic\("),
}


# Small models ignore "only call it" and write whole programs: the solution again, then a main.
# The tests are taken from the body of main / the test functions, and any statement that defines a
# name the reference defines is dropped, so a copy of the reference can never mask the candidate.
_ENTRY = {
    "java": re.compile(r"static\s+void\s+main\s*\([^)]*\)\s*(?:throws\s+[\w\s,.]+)?\{"),
    "cpp": re.compile(r"\bint\s+main\s*\([^)]*\)\s*\{"),
    "go": re.compile(r"func\s+Test\w*\s*\(\s*\w+\s+\*testing\.T\s*\)\s*\{"),
    "javascript": re.compile(r"(?!)"),  # scripts have no entry point
}
_DEFINES = {
    "javascript": re.compile(r"^(?:export\s+)?(?:async\s+)?(?:function\s*\*?\s*(\w+)|class\s+(\w+)|"
                             r"(?:const|let|var)\s+(\w+)\s*=)"),
    "java": re.compile(r"^(?:public\s+|final\s+|abstract\s+)*(?:class|interface|record)\s+(\w+)"),
    "cpp": re.compile(r"^(?:template\s*<[^>]*>\s*)?(?:class|struct)\s+(\w+)|"
                      r"^[\w:<>,\s*&]+?\b(\w+)\s*\([^;]*\)\s*(?:const\s*)?\{"),
    "go": re.compile(r"^func\s+(?:\([^)]*\)\s*)?(\w+)|^type\s+(\w+)"),
}


def _block_bodies(text: str, start: re.Pattern[str]) -> list[str]:
    """The contents of every ``{...}`` block opened by a match of ``start`` (brace-balanced)."""
    bodies = []
    for m in start.finditer(text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        bodies.append(text[m.end():i - 1])
    return bodies


def defined_names(language: str, program: str) -> set[str]:
    """Top-level names a program defines (functions, classes, variables)."""
    lang = language_of(language)
    if lang == "python":
        try:
            tree = ast.parse(program)
        except SyntaxError:
            return set(re.findall(r"^(?:def|class)\s+(\w+)", program, flags=re.M))
        names = set()
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Assign):
                names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        return names
    pattern = _DEFINES.get(lang or "")
    if pattern is None:
        return set()
    found = set()
    for stmt in _balanced_statements(program):
        m = pattern.match(stmt.strip())
        if m:
            found |= {g for g in m.groups() if g}
    return found - {"main"}


def _split_c_like(language: str, tests: str, names: set[str]) -> Suite:
    bodies = _block_bodies(tests, _ENTRY[language])
    text = "\n".join(bodies) if bodies else tests
    setup: list[str] = []
    units: list[str] = []
    for stmt in _balanced_statements(text):
        if stmt.startswith(("#include", "import ", "package ", "using namespace", "return")):
            continue  # the harness provides these; a `return` would end the harness early
        m = _DEFINES[language].match(stmt)
        if m and ({g for g in m.groups() if g} & names or stmt.startswith(("func ", "class ", "public class"))):
            continue  # a (re)definition, not a test
        (units if _CHECK[language].search(stmt) else setup).append(stmt)
    return Suite("\n".join(setup), units)


def _split_python(tests: str, names: set[str]) -> Suite:
    try:
        tree = ast.parse(tests)
    except SyntaxError:
        lines = tests.splitlines()
        return Suite("", [ln.strip() for ln in lines if ln.strip().startswith("assert")])
    setup: list[str] = []
    units: list[str] = []
    for node in tree.body:
        src = ast.get_source_segment(tests, node) or ""
        if isinstance(node, ast.Assert):
            units.append(src)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            if node.body and all(isinstance(s, ast.Assert) for s in node.body) and not node.args.args:
                units += [ast.get_source_segment(tests, s) or "" for s in node.body]  # one unit per assert
            else:
                units.append(f"{src}\n{node.name}()")
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and \
                isinstance(node.value.func, ast.Name) and node.value.func.id.startswith("test"):
            continue  # a call of a test function we already run
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            methods = [m.name for m in node.body if isinstance(m, ast.FunctionDef) and m.name.startswith("test")]
            units += [f"{src}\n{node.name}().{m}()" for m in methods]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name in names:
            continue  # a copy of the solution: it would mask the candidate
        elif isinstance(node, ast.If) and "__main__" in (ast.get_source_segment(tests, node.test) or ""):
            continue  # a main guard; its asserts, if any, repeat the ones above
        else:
            setup.append(src)
    return Suite("\n".join(setup), units)


def split_tests(language: str, tests: str, reference: str = "") -> Suite:
    """Units and setup; definitions of names the ``reference`` defines are dropped."""
    lang = language_of(language)
    if lang is None:
        raise ValueError(f"no runner for {language!r}; runners: {', '.join(LANGUAGES)}")
    names = defined_names(lang, reference)
    if lang == "python":
        return _split_python(tests, names)
    return _split_c_like(lang, tests, names)


# --------------------------------------------------------------------------- programs

def assemble_program(language: str, problem: str, code: str) -> str:
    """The program to test.  HumanEval-style samples give a signature in the problem and only a
    body as the candidate; then the program is problem + body (as the benchmark's harness does)."""
    if language_of(language) == "python":
        first = next((ln for ln in code.splitlines() if ln.strip()), "")
        try:
            compile(code, "candidate", "exec")
            standalone = not first[:1].isspace()
        except SyntaxError:
            standalone = False
        if not standalone:
            for body in (code, _reindent_first_line(code)):
                joined = problem.rstrip() + "\n" + body
                try:
                    compile(joined, "candidate", "exec")
                    return joined
                except SyntaxError:
                    pass
        return code
    return code


def _reindent_first_line(code: str) -> str:
    """A body whose first line lost its indentation (``x = 0\n    for ...``, as datasets that strip
    generations store it) gets the body's indentation back: that of its least indented later line."""
    lines = code.splitlines()
    i = next((k for k, ln in enumerate(lines) if ln.strip()), None)
    if i is None or lines[i][:1].isspace():
        return code
    indents = [len(ln) - len(ln.lstrip()) for ln in lines[i + 1:] if ln.strip()]
    body = min((n for n in indents if n > 0), default=4)
    lines[i] = " " * body + lines[i]
    return "\n".join(lines)


# --------------------------------------------------------------------------- harnesses

_PY_HARNESS = r'''
import json, signal, sys, traceback
def _alarm(signum, frame):
    raise TimeoutError("test took too long")
signal.signal(signal.SIGALRM, _alarm)
ns = {"__name__": "solution"}
try:
    exec(compile(open("solution.py").read(), "solution.py", "exec"), ns)
except BaseException as e:
    print("@@LOAD FAIL", type(e).__name__, str(e)[:300].replace("\n", " "), flush=True)
    sys.exit(3)
print("@@LOAD OK", flush=True)
suite = json.load(open("tests.json"))
base = dict(ns)
try:
    exec(compile(suite["setup"], "setup", "exec"), base)
except BaseException as e:
    print("@@SETUP FAIL", type(e).__name__, str(e)[:300].replace("\n", " "), flush=True)
for i, src in suite["units"]:
    env = dict(base)
    signal.alarm(PER_TEST)
    try:
        exec(compile(src, f"test_{i}", "exec"), env)
        signal.alarm(0)
        print(f"@@T {i} PASS", flush=True)
    except BaseException as e:
        signal.alarm(0)
        print(f"@@T {i} FAIL", type(e).__name__, str(e)[:200].replace("\n", " "), flush=True)
'''

_JS_HARNESS = r'''
const fs = require("fs"), vm = require("vm");
globalThis.assert = require("assert");
console.assert = (c, ...m) => { if (!c) throw new Error("assertion failed " + m.join(" ")); };
try {
  vm.runInThisContext(fs.readFileSync("solution.js", "utf8"), { filename: "solution.js" });
} catch (e) {
  console.log("@@LOAD FAIL " + String(e).slice(0, 300).replace(/\n/g, " "));
  process.exit(3);
}
console.log("@@LOAD OK");
const suite = JSON.parse(fs.readFileSync("tests.json", "utf8"));
try { vm.runInThisContext(suite.setup, { filename: "setup" }); }
catch (e) { console.log("@@SETUP FAIL " + String(e).slice(0, 300).replace(/\n/g, " ")); }
suite.units.forEach(([i, src]) => {
  try { vm.runInThisContext(src, { filename: `test_${i}`, timeout: PER_TEST_MS }); console.log(`@@T ${i} PASS`); }
  catch (e) { console.log(`@@T ${i} FAIL ` + String(e).slice(0, 200).replace(/\n/g, " ")); }
});
'''


@dataclass
class Harness:
    files: dict[str, str]
    command: str
    unit_lines: dict[int, tuple[int, int]] = field(default_factory=dict)  # unit -> lines in test file
    test_file: str = ""


def _java_class(code: str) -> str:
    m = re.search(r"public\s+(?:final\s+|abstract\s+)*class\s+(\w+)", code)
    return m.group(1) if m else "Solution"


def _wrap_units(units: dict[int, str], before: list[str], indent: str, make: Callable[[int, str], str],
                ) -> tuple[str, dict[int, tuple[int, int]]]:
    lines = list(before)
    spans: dict[int, tuple[int, int]] = {}
    for i, unit in units.items():
        start = len(lines) + 1
        lines += [indent + ln for ln in make(i, unit).splitlines()]
        spans[i] = (start, len(lines))
    return "\n".join(lines), spans


def build_harness(language: str, program: str, suite: Suite, active: dict[int, str], *,
                  per_test: int = 5) -> Harness:
    lang = language_of(language)
    if lang == "python":
        return Harness({"solution.py": PYTHON_PRELUDE + program,
                        "tests.json": json.dumps({"setup": suite.setup, "units": list(active.items())}),
                        "harness.py": _PY_HARNESS.replace("PER_TEST", str(per_test))},
                       "python3 -B harness.py")
    if lang == "javascript":
        return Harness({"solution.js": program,
                        "tests.json": json.dumps({"setup": suite.setup, "units": list(active.items())}),
                        "harness.js": _JS_HARNESS.replace("PER_TEST_MS", str(per_test * 1000))},
                       "node harness.js")
    if lang == "java":
        cls = _java_class(program)
        head = ["import java.util.*;", "import java.util.stream.*;", "public class SejuryTestMain {",
                "  public static void main(String[] args) throws Exception {"]
        head += ["    " + ln for ln in suite.setup.splitlines()]
        body, spans = _wrap_units(active, head, "    ", lambda i, u: (
            f"try {{\n{textwrap.indent(u, '  ')}\n  System.out.println(\"@@T {i} PASS\");\n"
            f"}} catch (Throwable e) {{ System.out.println(\"@@T {i} FAIL \" + e); }}"))
        body += "\n  }\n}\n"
        return Harness(
            {f"{cls}.java": "import java.util.*;\nimport java.util.stream.*;\n" + program,
             "SejuryTestMain.java": body},
            f"mkdir -p out && (javac -nowarn -d out {cls}.java 2>&1 || {{ echo '@@LOAD FAIL'; exit 3; }}) "
            "&& echo '@@LOAD OK' && (javac -nowarn -cp out -d out SejuryTestMain.java 2>&1 "
            "|| { echo '@@TESTS NOCOMPILE'; exit 4; }) && java -ea -Xss16m -XX:+UseSerialGC -cp out SejuryTestMain",
            spans, "SejuryTestMain.java")
    if lang == "cpp":
        head = ["#include <bits/stdc++.h>", "using namespace std;", "#define main sejury_candidate_main",
                '#include "solution.cpp"', "#undef main", "#undef assert",
                '#define assert(c) do { if (!(c)) throw std::runtime_error("assertion failed: " #c); } while (0)',
                "int main() {"]
        head += ["  " + ln for ln in suite.setup.splitlines()]
        body, spans = _wrap_units(active, head, "  ", lambda i, u: (
            f"try {{\n{textwrap.indent(u, '  ')}\n  puts(\"@@T {i} PASS\");\n}} "
            f"catch (std::exception& e) {{ printf(\"@@T {i} FAIL %s\\n\", e.what()); }} "
            f"catch (...) {{ puts(\"@@T {i} FAIL exception\"); }}\nfflush(stdout);"))
        body += "\n  return 0;\n}\n"
        prog = "#include <bits/stdc++.h>\nusing namespace std;\n" + program
        return Harness(
            {"solution.cpp": prog, "test_main.cpp": body},
            "(g++ -std=c++17 -fsyntax-only -Dmain=sejury_candidate_main solution.cpp 2>&1 "
            "|| { echo '@@LOAD FAIL'; exit 3; }) && echo '@@LOAD OK' && "
            "(g++ -std=c++17 -O0 -o test_main test_main.cpp 2>&1 || { echo '@@TESTS NOCOMPILE'; exit 4; }) "
            "&& ./test_main", spans, "test_main.cpp")
    if lang == "go":
        src = re.sub(r"^\s*package\s+\w+", "package sandbox", program, count=1, flags=re.M)
        if not re.search(r"^\s*package\s", src, flags=re.M):
            src = "package sandbox\n\n" + src
        pkgs = sorted({p for p in ("reflect", "strings", "math", "sort", "strconv")
                       if re.search(rf"\b{p}\.", suite.setup + "\n".join(active.values()))})
        imports = "\n".join(f'  "{p}"' for p in ["fmt", "testing", *pkgs])
        head = ["package sandbox", "", f"import (\n{imports}\n)", "",
                "type sejuryFailure struct{ msg string }",
                "func sejuryFail(format string, a ...interface{}) { panic(sejuryFailure{fmt.Sprintf(format, a...)}) }",
                "// subtests run inline, so their failures stay in this unit's goroutine",
                "func sejuryRun(t *testing.T, name string, f func(t *testing.T)) bool { f(t); return true }",
                "", "func TestSejury(t *testing.T) {", "  _ = t"]
        head += ["  " + ln for ln in suite.setup.splitlines()]

        def go_unit(i: int, u: str) -> str:
            u = re.sub(r"\bt\.(Errorf|Error|Fatalf|Fatal)\(", "sejuryFail(", u)
            u = re.sub(r"\bt\.Run\(", "sejuryRun(t, ", u)
            return (f"func() {{\n  defer func() {{ if r := recover(); r != nil {{ "
                    f"fmt.Printf(\"@@T {i} FAIL %v\\n\", r) }} else {{ fmt.Println(\"@@T {i} PASS\") }} }}()\n"
                    f"{textwrap.indent(u, '  ')}\n}}()")

        body, spans = _wrap_units(active, head, "  ", go_unit)
        body += "\n}\n"
        # `go vet` is off: generated tests often print with mismatched verbs, which is no failure
        return Harness(
            {"go.mod": "module sandbox\n\ngo 1.19\n", "solution.go": src, "sejury_test.go": body},
            "(go build ./ 2>&1 || { echo '@@LOAD FAIL'; exit 3; }) && echo '@@LOAD OK' && "
            "(go test -c -vet=off -o t.test ./ 2>&1 || { echo '@@TESTS NOCOMPILE'; exit 4; }) && "
            "./t.test -test.run TestSejury -test.v", spans, "sejury_test.go")
    raise ValueError(f"no runner for {language!r}")


_RESULT = re.compile(r"^@@T (\d+) (PASS|FAIL) ?(.*)$", re.M)
_COMPILE_ERR = re.compile(r"^(?:\./)?(?P<file>[\w.]+):(?P<line>\d+):", re.M)  # "file:line:" of a diagnostic


def _timeout_for(language: str) -> float:
    return 20.0 if language_of(language) in ("python", "javascript") else 90.0


async def run_suite(sandbox: SandboxProvider, language: str, program: str, suite: Suite, *,
                    timeout: float | None = None) -> RunReport:
    """Run every unit of ``suite`` against ``program``; compiled languages retry without the
    units that do not compile (twice at most)."""
    active = dict(enumerate(suite.units))
    reasons = {i: "" for i in active}
    limit = timeout or _timeout_for(language)
    seconds, runs = 0.0, 0
    res: ExecResult | None = None
    for _ in range(3):
        harness = build_harness(language, program, suite, active)
        res = await sandbox.run(harness.files, harness.command, timeout=limit)
        seconds += res.seconds
        runs += 1
        out = res.stdout
        if "@@LOAD OK" not in out:
            return RunReport(loaded=False, passed=[False] * len(suite.units),
                             reasons=["the program does not load"] * len(suite.units), status=res.status,
                             seconds=seconds, runs=runs, load_error=(out + res.stderr)[-1500:],
                             stderr_tail=res.stderr[-500:])
        if "@@TESTS NOCOMPILE" in out and harness.test_file:
            bad = {i for i, (a, b) in harness.unit_lines.items()
                   for m in _COMPILE_ERR.finditer(out)
                   if m.group("file") == harness.test_file and a <= int(m.group("line")) <= b}
            if not bad or len(bad) == len(active):
                for i in active:
                    reasons[i] = "tests do not compile"
                active = {}
                break
            for i in bad:
                reasons[i] = "does not compile"
                del active[i]
            continue
        break
    assert res is not None
    # every harness reports units by their index in the suite
    got = {int(m.group(1)): (m.group(2) == "PASS", m.group(3)) for m in _RESULT.finditer(res.stdout)}
    passed = []
    for i in range(len(suite.units)):
        if i in got:
            ok, why = got[i]
            passed.append(ok)
            reasons[i] = "" if ok else (why or "failed")
        else:
            passed.append(False)
            if not reasons[i]:
                reasons[i] = f"not reported ({res.status.value})"
    return RunReport(loaded=True, passed=passed, reasons=[reasons[i] for i in range(len(suite.units))],
                     status=res.status, seconds=seconds, runs=runs, stderr_tail=res.stderr[-500:])
