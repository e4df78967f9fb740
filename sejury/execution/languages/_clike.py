"""Splitting tests in the C-like languages (JavaScript, Java, C++, Go) into units by statement.

Small models ignore "only call it" and write whole programs: the solution again, then a main.  The
tests are taken from the body of main / the test functions, and any statement that defines a name
the reference defines is dropped, so a copy of the reference can never mask the candidate.
"""

from __future__ import annotations

import re

from sejury.execution.languages.base import Suite


def balanced_statements(text: str) -> list[str]:
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


def block_bodies(text: str, start: re.Pattern[str]) -> list[str]:
    """The contents of every ``{...}`` block opened by a match of ``start`` (brace-balanced)."""
    bodies = []
    for m in start.finditer(text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        bodies.append(text[m.end():i - 1])
    return bodies


def defined_names(defines: re.Pattern[str], program: str) -> set[str]:
    """Top-level names a program defines, read with the language's ``defines`` pattern."""
    found = set()
    for stmt in balanced_statements(program):
        m = defines.match(stmt.strip())
        if m:
            found |= {g for g in m.groups() if g}
    return found - {"main"}


def split_c_like(tests: str, names: set[str], *, entry: re.Pattern[str], defines: re.Pattern[str],
                 check: re.Pattern[str]) -> Suite:
    """Units are the statements that check something (``check``); the others are setup.  Tests
    inside an ``entry`` block (main, a Go test function) are taken from its body."""
    bodies = block_bodies(tests, entry)
    text = "\n".join(bodies) if bodies else tests
    setup: list[str] = []
    units: list[str] = []
    for stmt in balanced_statements(text):
        if stmt.startswith(("#include", "import ", "package ", "using namespace", "return")):
            continue  # the harness provides these; a `return` would end the harness early
        m = defines.match(stmt)
        if m and ({g for g in m.groups() if g} & names or stmt.startswith(("func ", "class ", "public class"))):
            continue  # a (re)definition, not a test
        (units if check.search(stmt) else setup).append(stmt)
    return Suite("\n".join(setup), units)


def brace_balance(code: str) -> int:
    """``{`` minus ``}`` outside strings, character literals and comments."""
    depth, i, n = 0, 0, len(code)
    while i < n:
        ch = code[i]
        if code.startswith("//", i):
            i = code.find("\n", i)
            i = n if i < 0 else i
        elif code.startswith("/*", i):
            i = code.find("*/", i + 2)
            i = n if i < 0 else i + 2
            continue
        elif ch in "\"'`":
            j = i + 1
            while j < n and code[j] != ch and not (ch != "`" and code[j] == "\n"):
                j += 2 if code[j] == "\\" else 1
            i = j
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        i += 1
    return depth


def assemble_c_like(problem: str, code: str) -> str:
    """The program to test.  Benchmarks in the HumanEval family (HumanEval-X, MultiPL-E) give the
    problem as the code up to an open signature (``long f(std::string value) {``) and the candidate
    as the body, often without the closing braces, which their harness adds: so do we.  A candidate
    that repeats the signature is a whole solution and stands alone."""
    if brace_balance(problem) <= 0:
        return code  # the problem is prose or complete code: the candidate is the program
    signature = next((ln.strip() for ln in reversed(problem.splitlines()) if ln.strip()), "")
    if signature and signature.rstrip("{ ").strip() in code:
        return code
    joined = problem.rstrip("\n") + "\n" + code
    return joined + "\n}" * max(0, brace_balance(joined)) + "\n"
