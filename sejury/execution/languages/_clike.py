"""Splitting tests in the C-like languages (JavaScript, Java, C++, Go) into units by statement.

Small models ignore "only call it" and write whole programs: the solution again, then a main.  The
tests are taken from the body of main / the test functions, and any statement that defines a name
the reference defines is dropped, so a copy of the reference can never mask the candidate.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from sejury.execution.languages.base import Copies, Suite

# One line that opens a C++ / Java function: ``[modifiers] RET NAME(PARAMS) [const] [throws ...] {``
SIGNATURE = (r"^[ \t]*(?:(?:public|private|protected|static|final|inline|constexpr)\s+)*"
             r"(?P<ret>[\w:<>,\s\[\]*&]+?)\s+(?P<name>\w+)\s*\((?P<params>[^)]*)\)\s*"
             r"(?:const\s*)?(?:throws\s+[\w\s,.]+)?\{\s*$")
_STATEMENT_WORDS = {"if", "for", "while", "switch", "catch", "return", "else", "new"}


def is_signature(m: re.Match[str]) -> bool:
    """A ``SIGNATURE`` match that declares a function, not a statement that looks like one
    (``else if (x) {``, ``return f(x) {``)."""
    return m.group("name") not in _STATEMENT_WORDS and not set(m.group("ret").split()) & _STATEMENT_WORDS


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
        bodies.append(text[m.end():i - 1] if depth == 0 else text[m.end():])  # unclosed: to the end
    return bodies


def complete_part(tests: str) -> str:
    """Test text cut off mid-statement (a reply that reached the token limit: braces left open)
    back to its last line that ends a statement (``;`` or ``}``), so the incomplete tail does not
    break the compile of every test before it.  For languages that end statements with ``;``."""
    if brace_balance(tests) <= 0:
        return tests
    lines = tests.splitlines()
    while lines and not _code_of(lines[-1]).rstrip().endswith((";", "}")):
        lines.pop()
    return "\n".join(lines) + "\n" if lines else tests


def _code_of(line: str) -> str:
    """A line without its trailing ``//`` comment (strings kept whole)."""
    i = 0
    while i < len(line):
        if line[i] in "\"'`":
            i = string_end(line, i)
        elif line.startswith("//", i):
            return line[:i]
        i += 1
    return line


def defined_names(defines: re.Pattern[str], program: str) -> set[str]:
    """Top-level names a program defines, read with the language's ``defines`` pattern."""
    found = set()
    for stmt in balanced_statements(program):
        m = defines.match(stmt.strip())
        if m:
            found |= {g for g in m.groups() if g}
    return found - {"main"}


def split_c_like(tests: str, names: set[str], *, entry: re.Pattern[str], defines: re.Pattern[str],
                 check: re.Pattern[str], terminated: bool = False,
                 replay: Callable[[str], str | None] | None = None, checking: frozenset[str] = frozenset()) -> Suite:
    """Units are the statements that check something (``check``); the others are setup.  Tests
    inside an ``entry`` block (main, a Go test function) are taken from its body.  ``terminated``:
    the language ends statements with ``;`` (a text cut off mid-statement loses its tail).
    ``replay``: each unit first runs again the setup statements since the previous unit, as this
    makes them (a declaration as an assignment; None: not replayed), so a unit sees its own test
    case's values (``arr = ...; expected = ...; if ... {}`` per case), not the last case's.
    ``checking``: functions defined outside the text read (C++'s file scope) that check something."""
    if terminated:
        tests = complete_part(tests)
    bodies = block_bodies(tests, entry)
    text = "\n".join(bodies) if bodies else tests
    setup: list[str] = []
    units: list[str] = []
    helpers: set[str] = set(checking)  # functions defined that check something: their calls are the tests
    helper_call = calls_of(helpers) if helpers else None  # a call of one of them
    since: list[str] = []  # setup statements since the last unit, as ``replay`` makes them
    statements = balanced_statements(text)
    if statements and brace_balance(statements[-1]) > 0:
        statements.pop()  # a reply cut off mid-statement (``if f(1) != 2 {`` and no more): it cannot compile
    for stmt in statements:
        if stmt.startswith(("#include", "import ", "package ", "using namespace", "return")):
            continue  # the harness provides these; a `return` would end the harness early
        m = defines.match(stmt)
        defined = {g for g in m.groups() if g} if m else set()
        if m and (defined & names or stmt.startswith(("func ", "class ", "public class"))):
            continue  # a (re)definition, not a test
        checks = check.search(stmt) is not None
        if defined and "{" in stmt and checks:
            # a helper (``function check(a, want) { console.assert(f(a) === want); }``): defining
            # it tests nothing (as a unit it passed on every program); each call of it is a test
            helpers |= defined
            helper_call = calls_of(helpers)
            setup.append(stmt)
        elif checks or (helper_call is not None and not defined and helper_call.search(stmt)):
            units.append("\n".join([*since, stmt]))
            since = []
        else:
            setup.append(stmt)
            if replay is not None and (again := replay(stmt)) is not None:
                since.append(again)
    return Suite("\n".join(setup), units)


def calls_of(names: Iterable[str]) -> re.Pattern[str]:
    """A call of any of ``names`` by its bare name (group 1: the name), not a method of something."""
    return re.compile(rf"(?<![\w$.])({'|'.join(map(re.escape, sorted(names)))})\s*\(")


def string_end(text: str, i: int) -> int:
    """The index of the quote closing the string or character literal opened at ``text[i]``.
    Escapes are skipped (as in JavaScript template literals too); a ``"`` or ``'`` literal ends
    at the end of its line, a backtick one may span lines."""
    quote, j = text[i], i + 1
    while j < len(text) and text[j] != quote and not (quote != "`" and text[j] == "\n"):
        j += 2 if text[j] == "\\" else 1
    return j


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
            i = string_end(code, i)
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


def closing(text: str, i: int) -> int:
    """The index of the bracket closing the one at ``text[i]`` (strings and comments skipped), or -1."""
    pairs = {"{": "}", "(": ")", "[": "]"}
    stack = [pairs[text[i]]]
    j = i + 1
    while j < len(text) and stack:
        ch = text[j]
        if text.startswith("//", j):
            j = text.find("\n", j)
            if j < 0:
                return -1
        elif ch in "\"'`":
            j = string_end(text, j)
        elif ch in pairs:
            stack.append(pairs[ch])
        elif ch in "}])" and ch != stack.pop():
            return -1
        j += 1
    return j - 1 if not stack else -1


def top_level_items(body: str) -> list[str]:
    """The comma-separated items of a literal's body, split at depth 0 only; comments between
    items are left out (``{2, 3}, // the last row``)."""
    items, start, j = [], 0, 0
    cut: list[tuple[int, int]] = []  # the comments at depth 0
    while j < len(body):
        ch = body[j]
        if ch in "{([":
            end = closing(body, j)
            j = len(body) if end < 0 else end
        elif ch in "\"'`":
            j = string_end(body, j)
        elif body.startswith(("//", "/*"), j):
            end = body.find("\n" if body[j + 1] == "/" else "*/", j + 2)
            end = len(body) if end < 0 else end + (0 if body[j + 1] == "/" else 2)
            cut.append((j, end))
            j = end - 1
        elif ch == ",":
            items.append((start, j))
            start = j + 1
        j += 1
    items.append((start, len(body)))
    out = []
    for a, b in items:
        text = "".join(body[x:y] for x, y in _uncut(a, b, cut)).strip()
        if text:
            out.append(text)
    return out


def _uncut(a: int, b: int, cut: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The spans of ``[a, b)`` outside the ``cut`` ones."""
    spans, at = [], a
    for x, y in cut:
        if y <= a or x >= b:
            continue
        spans.append((at, max(at, x)))
        at = max(at, y)
    spans.append((at, b))
    return spans


def split_commas(text: str, opening: str = "([{", closing_: str = ")]}") -> list[str]:
    """``text`` split at the commas outside brackets (``opening``/``closing_``; add ``<``/``>``
    for a parameter list with generic types), blank parts dropped."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += ch in opening
        depth -= ch in closing_
        if ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    return [p for p in [*parts, text[start:]] if p.strip()]


# the line a GoogleTest fixture's unit ends with (``_gtest._in_fixture``; a macro of ``sealed_cpp/gtest.hpp``),
# and a JUnit unit run in an instance of its class's members (``_junit_class.in_instance``)
FIXTURE_CLOSE = "sejury_fixture_close"
INSTANCE_CLOSE = "}}.sejuryRun();"
# ``Class.method``, ``Class.Nested.method``, a parameterized row's ``[2]``
_TITLE = re.compile(r"^\{\n// (\w+(?:\.\w+)+(?:\[\d+\])?)\n")


_DECLARES = re.compile(r"^\s*(?:final\s+)?[\w.]+(?:<[^;=()]*>)?(?:\[\])*\s+\w+\s*=(?!=)")


def titled_units(title: str, before: list[str], body: str, check: re.Pattern[str], copies: Copies,
                 as_check: Callable[[str], str] = lambda stmt: stmt) -> list[str]:
    """The units of one named test (a JUnit method, a GoogleTest ``TEST``): for each statement of
    ``body`` that ``check`` finds, a block of ``before``, the body's statements before it, then it
    (``as_check`` of it), its first line naming the test (``// SolutionTest.adds``: ``titled_name``
    reads it); as many as ``copies`` leaves room for."""
    units, before = [], list(before)
    for stmt in balanced_statements(body):
        if not check.search(stmt):
            before.append(stmt)
            continue
        if copies.take(unit := "{\n" + "\n".join([f"// {title}", *before, as_check(stmt)]) + "\n}"):
            units.append(unit)
        if _DECLARES.match(stmt):  # a check naming its value (``var e = assertThrows(...)``): later ones read it
            before.append(stmt)
    return units


def within(unit: str, opening: list[str], close: str) -> str:
    """A unit of ``titled_units`` run inside a construct of the harness's (a GoogleTest fixture, a
    JUnit class's instance): its block and title line, ``opening``, the unit's statements, then
    ``close`` (``FIXTURE_CLOSE`` or ``INSTANCE_CLOSE``, which ``titled_name`` reads past), ``}``."""
    head, _, inner = unit.partition("\n")
    title, _, inner = inner.partition("\n")
    return "\n".join([head, title, *opening, inner.removesuffix("\n}").rstrip("\n"), close, "}"])


def checks_or_calls(check: re.Pattern[str], helpers: Iterable[str]) -> re.Pattern[str]:
    """``check``, or a call of one of ``helpers`` (functions that check: each call is a check)."""
    names = set(helpers)
    return re.compile(f"{check.pattern}|{calls_of(names).pattern}") if names else check


def titled_name(unit: str) -> str:
    """A unit made as a block whose first line names its test (JUnit's ``// SolutionTest.adds``,
    GoogleTest's ``// Digits.Negative``), as a reader names it: that name and the unit's check
    (``SolutionTest.adds: assertEquals(3, s.add(1, 2));``); any other unit as it is."""
    if (m := _TITLE.match(unit)) is None:
        return unit
    last = unit.rstrip().removesuffix("}").rstrip().removesuffix(FIXTURE_CLOSE).removesuffix(INSTANCE_CLOSE)
    last = last.rstrip().rsplit("\n", 1)[-1]
    return f"{m.group(1)}: {last}"
