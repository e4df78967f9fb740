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
tests were no evidence.  Not read: mocks (``jest.fn``, ``jest.mock``), snapshots, chai's
``expect(x).to.equal(y)``; the tests counted by reading the text (a ``describe.each`` runs its
first table row's tests only).
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


def units(stmt: str, copies: Copies) -> list[str]:
    """One unit per test of a top-level block: the block, then the checker's run of that test (as
    many as ``copies`` leaves room for)."""
    return copies.keep(f"{RESET}();\n{stmt}\n{RUN}({k});" for k in range(len(_TEST.findall(code_only(stmt)))))


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
    title = re.match(r"\s*(['\"`])", unit[at:])
    if title is None:
        return unit
    start = at + title.end() - 1
    name = unit[start + 1:string_end(unit, start)]
    block = unit.split("\n", 1)[1] if unit.startswith(RESET) else unit
    outer = _DESCRIBE.match(block)
    if outer and name:
        return f"{block[outer.end():string_end(block, outer.end() - 1)]} > {name}"
    return name or unit


_DESCRIBE = re.compile(r"\s*(?:describe|context|suite)\s*(?:\.\s*(?:only|skip)\s*)?\(\s*['\"`]")

