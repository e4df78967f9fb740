"""JavaScript tests in Jest's, Mocha's and node:test's form: ``describe``/``it``/``test`` blocks.

A top-level ``describe`` (or a bare ``it``/``test``) with N tests in it gives N units, the k-th
being the block itself then ``sejuryTest(k)``: the sealed checker's ``bdd.js`` registers the
block's tests as the block runs, then runs the k-th with the hooks around it (``beforeAll``,
``beforeEach``, the test, ``afterEach``, ``afterAll``, outer to inner and back), as those runners
do, and throws its first failure; an async test (a promise, a ``done`` callback) is awaited.
``expect`` has Jest's common matchers (``toBe``, ``toEqual``, ``toStrictEqual``, ``toThrow``,
``toBeCloseTo``, ``toContain``, ``toHaveLength``, ``toMatchObject``, ``.not``, ``.resolves``, ...),
comparing plain data the checker holds.  A skipped test fails (it checks nothing); ``test.each``
is one unit running every row.  ``require('./rle')`` in the tests is the program under test, and
``require('@jest/globals')``, ``'vitest'``, ``'node:test'``, ``'mocha'`` are ``bdd.js`` itself.

Before, these tests gave no unit at all ("no test could be read"): a JavaScript developer's own
tests were no evidence.  chai's ``expect``/``assert`` are ``sealed_js/chai.js``.  ``jest.fn()`` and
the tests' callbacks are lent to the program (``sealed_js/checker.js``); ``jest.spyOn`` on the
console sees what the program logs.  Not read: ``jest.mock``, snapshots.

A unit cut out of its block holds one test's text (``sejuryReset(true)``): when that text registers
several tests, a ``describe.each``'s rows or a loop's (``for (const x of xs) it(...)``), the unit
runs each in turn, its first failure the unit's.  Until ``RUNNERS_VERSION`` 51 it ran the first only.
"""

from __future__ import annotations

import re

from sejury.execution.languages._clike import string_end
from sejury.execution.languages.base import Copies

RUN, RESET = "sejuryTest", "sejuryReset"
# a statement that is a block of tests, or a test
BLOCK = re.compile(r"^(?:describe|context|suite|it|test|specify)\s*(?:\.\s*(?:only|skip|each|todo|concurrent)\b)?"
                   r"\s*\(")
# a check standing alone beside the blocks (its own unit, as in a plain script)
CHECK = re.compile(r"^(?:console\.assert|assert(?:\.\w+)?|expect)\s*\(")
# one test: it(...), test(...), test.only(...), test.each(table)(...) counted once
_TEST = re.compile(r"(?<![\w$.])(?:it|test|specify)\s*(?:\.\s*(?:only|skip|todo|concurrent|each)\s*)?\(")


def code_only(text: str) -> str:
    """``text`` with its strings' and comments' contents blanked (the same length)."""
    out, i = list(text), 0
    while i < len(text):
        c = text[i]
        if c in "\"'`":
            end = string_end(text, i)
            out[i + 1:end] = " " * max(0, end - i - 1)
            i = end + 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = len(text) if end < 0 else end
            out[i:end] = " " * (end - i)
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = len(text) if end < 0 else end + 2
            out[i:end] = " " * (end - i)
            i = end
        else:
            i += 1
    return "".join(out)


def is_block(stmt: str) -> bool:
    return BLOCK.match(stmt.lstrip()) is not None


def uses_blocks(statements: list[str]) -> bool:
    """Do the tests come as describe/it/test blocks?"""
    return any(is_block(s) for s in statements)


def _close(code: str, at: int) -> int | None:
    """Where the bracket opened at ``code[at]`` closes (``code`` with strings and comments blanked),
    or None when it does not, or brackets of different kinds cross before it."""
    stack: list[str] = []
    for i in range(at, len(code)):
        if code[i] in "([{":
            stack.append(")]}"["([{".index(code[i])])
        elif code[i] in ")]}":
            if not stack or stack.pop() != code[i]:
                return None  # a bracket of another kind (a regex literal's ``\)``): not told apart
            if not stack:
                return i
    return None


_CHAINED = re.compile(r"\s*(?:\.\s*[\w$]+\s*)?\(")  # ``test.each(table)(...)``, ``it(...).timeout(5)``


def _tests(code: str) -> list[tuple[int, int]] | None:
    """Where each test call of a block starts and ends (its chained calls included), in order; None
    when one does not close or one holds another (the block is then left whole)."""
    spans: list[tuple[int, int]] = []
    for m in _TEST.finditer(code):
        if spans and m.start() < spans[-1][1]:
            return None
        end = _close(code, m.end() - 1)
        while end is not None and (chained := _CHAINED.match(code, end + 1)):
            end = _close(code, chained.end() - 1)
        if end is None:
            return None
        spans.append((m.start(), end + 1))
    return spans


def units(stmt: str, copies: Copies) -> list[str]:
    """One unit per test of a top-level block: the block with its other tests cut out (each unit
    as long as the block's hooks and that test, not the whole block: a block of 2,000 tests is
    2,000 small units), then the checker's run of it; as many as ``copies`` leaves room for."""
    code = code_only(stmt)
    spans = _tests(code)
    if spans is None:  # left whole: the k-th test the block registers is run
        return copies.keep(f"{RESET}();\n{stmt}\n{RUN}({k});" for k in range(len(_TEST.findall(code))))
    # the block without its tests, once: what lies between two tests is kept, except that the
    # blank lines and semicolons between tests cut out run together as one ``;``
    rest: list[str] = []
    size, at, merged = 0, [], False
    for (_, end), (start, _) in zip([(0, 0), *spans], [*spans, (len(stmt), 0)], strict=True):
        gap = stmt[end:start]
        if end > 0 and start < len(stmt) and _BLANK.fullmatch(gap):
            gap = "" if merged else ";\n"
            merged = True
        else:
            merged = False
        rest.append(gap)
        size += len(gap)
        at.append(size)  # test k goes after the k-th gap
    text = "".join(rest)
    return copies.keep(f"{RESET}(true);\n{text[:at[k]]}{stmt[start:end]}{text[at[k]:]}\n{RUN}(0);"
                       for k, (start, end) in enumerate(spans))


_BLANK = re.compile(r"[\s;]*")


_RUN_CALL = re.compile(rf"\n{RUN}\((\d+)\);\s*$")


def named(unit: str) -> str:
    """A unit as a reader names it: the name of its test (the k-th ``it``/``test`` of its block)."""
    if (m := _RUN_CALL.search(unit)) is None:
        return unit
    code, k = code_only(unit), int(m.group(1))
    found = list(_TEST.finditer(code))
    if k >= len(found):
        return unit
    at = found[k].end()
    if "each" in found[k].group() and (table := _close(code, at - 1)) is not None and \
            (call := re.compile(r"\s*\(").match(code, table + 1)):
        at = call.end()  # ``test.each(table)('title', ...)``: the title is the second call's
    title = re.match(r"\s*(['\"`])", unit[at:])
    if title is None:
        return unit
    start = at + title.end() - 1
    name = unit[start + 1:string_end(unit, start)]
    block = unit.split("\n", 1)[1] if unit.startswith(RESET) else unit
    outer = _DESCRIBE.match(block)
    if outer is None and (rows := _DESCRIBE_EACH.match(block)) is not None and \
            (table := _close(code_only(block), rows.end() - 1)) is not None:
        outer = _TITLE_CALL.match(block, table + 1)  # ``describe.each(table)('title %i', ...)``
    if outer and name:
        return f"{block[outer.end():string_end(block, outer.end() - 1)]} > {name}"
    return name or unit


_DESCRIBE = re.compile(r"\s*(?:describe|context|suite)\s*(?:\.\s*(?:only|skip)\s*)?\(\s*['\"`]")
_DESCRIBE_EACH = re.compile(r"\s*(?:describe|context|suite)\s*\.\s*each\s*\(")
_TITLE_CALL = re.compile(r"\s*\(\s*['\"`]")

