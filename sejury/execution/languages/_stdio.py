"""How each language builds and runs a program that reads standard input and prints (the form of
APPS, CodeContests, Codeforces): the ``stdio`` of its ``Language``.  ``build`` is the load check
(a syntax check for the interpreted ones, the compile for the others), ``run`` reads one input
on stdin.  The loop around them is ``execution/stdio.py``'s.  Each ``*_READS`` is its language's
``reads_stdin``: what a program that reads standard input contains."""

from __future__ import annotations

import contextlib
import re
import textwrap

from sejury.execution.languages import _clike
from sejury.execution.languages.base import StdioProgram
from sejury.sandbox import cxx, jvm

# fractions.gcd left Python in 3.9; programs of APPS's time still import it
_GCD = "setattr(__import__('fractions'), 'gcd', getattr(__import__('fractions'), 'gcd', __import__('math').gcd))\n"


def python_compat(program: str) -> str:
    """The program as APPS's harness ran it: wrapped in a function when it only compiles as one
    (a top-level ``return`` or ``nonlocal``), and with ``fractions.gcd`` when it reads it."""
    try:
        compile(program, "main.py", "exec")
    except SyntaxError as exc:
        if any(word in str(exc.msg) for word in ("outside function", "nonlocal")):
            wrapped = "def sejury_program():\n" + textwrap.indent(program, "    ") + "\n\nsejury_program()\n"
            with contextlib.suppress(SyntaxError, ValueError):
                program = compile(wrapped, "main.py", "exec") and wrapped
    except ValueError:  # null bytes: the load check says so
        pass
    return _GCD + program if re.search(r"\bfractions\b", program) and "gcd" in program else program


PYTHON_READS = re.compile(r"\binput\s*\(|\bsys\s*\.\s*stdin\b|\bstdin\s*\.\s*read|open\s*\(\s*0\b")
JAVASCRIPT_READS = re.compile(r"process\s*\.\s*stdin|readFileSync\s*\(\s*(?:0|['\"]/dev/stdin['\"])|"
                              r"require\s*\(\s*['\"](?:node:)?readline['\"]")
JAVA_READS = re.compile(r"\bSystem\s*\.\s*in\b")
CPP_READS = re.compile(r"\b(?:std::)?cin\b|\bscanf\s*\(|\bgetchar\s*\(|\bfread\s*\(|\bgets\s*\(")
GO_READS = re.compile(r"\bos\s*\.\s*Stdin\b|\bfmt\s*\.\s*Scan")


def python(program: str) -> StdioProgram:
    return StdioProgram({"main.py": python_compat(program)},
                        "python3 -B -c \"import sys; compile(open('main.py').read(), 'main.py', 'exec')\"",
                        "python3 -B main.py")


def javascript(program: str) -> StdioProgram:
    return StdioProgram({"main.js": program}, "node --check main.js", "node main.js")


def cpp(program: str) -> StdioProgram:
    return StdioProgram({"main.cpp": program}, f"{cxx.OPTIMISED} -o prog main.cpp", "./prog")


def go(program: str) -> StdioProgram:
    return StdioProgram({"go.mod": "module prog\n\ngo 1.19\n", "main.go": program},
                        "(! command -v goimports >/dev/null || goimports -w main.go) && go build -o prog .",
                        "./prog")


_CLASS = re.compile(r"\bclass\s+([A-Za-z_$][\w$]*)")
_MAIN = re.compile(r"\bstatic\s+(?:final\s+)?void\s+main\s*\(")


def java_main_class(program: str) -> str:
    """The class whose ``main`` runs: the innermost class whose body holds the first ``static void
    main``; else the public class; else ``Main``."""
    main = _MAIN.search(program)
    best: tuple[int, str] | None = None
    for m in _CLASS.finditer(program):
        brace = program.find("{", m.end())
        end = _clike.closing(program, brace) if brace >= 0 else -1
        if main and brace < main.start() < end and (best is None or end - brace < best[0]):
            best = (end - brace, m.group(1))
    if best:
        return best[1]
    public = re.search(r"\bpublic\s+(?:final\s+)?class\s+([A-Za-z_$][\w$]*)", program)
    return public.group(1) if public else "Main"


def java(program: str) -> StdioProgram:
    cls = java_main_class(program)
    return StdioProgram({f"{cls}.java": program}, f"mkdir -p out && {jvm.JAVAC} -d out {cls}.java",
                        f"java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xss64m -cp out {cls}")
