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
