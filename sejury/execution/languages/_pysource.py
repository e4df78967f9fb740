"""A Python text's statements as text, each found in time proportional to its own length.

``ast.get_source_segment`` splits the whole text into lines at every call: cutting a suite of
2,000 asserts (44 kB) into units took 8 s (``bench/split_scaling.py``), and a 1 MB test text (the
server's body limit) would have taken hours, a denial of service any sample's ``tests`` could
mount.  ``Source`` splits the lines once and gives the same segments (``segment``), and a class
without the members a unit does not need (``cut``).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable

# the line ends ``ast`` counts (``\r\n``, ``\r``, ``\n``; not the form feed or the other ends
# ``str.splitlines`` knows), each line kept with its end, as ``ast.get_source_segment`` splits them
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


# what ``ast.parse`` raises on a text it cannot parse: a syntax error, a NUL byte (``ValueError``),
# nesting too deep for the parser (``RecursionError``, or ``MemoryError`` from its stack, as for
# ``"ab " * 33_000``): a sample's text is never trusted to parse
UNPARSEABLE = (SyntaxError, ValueError, RecursionError, MemoryError)


def parsed(tests: str) -> tuple[ast.Module, str] | None:
    """The suite parsed; when it does not parse, without the top-level statements that do not (a
    reply cut off mid-function, ``def test_last():`` with no body; one mistyped line), else None."""
    lines = tests.splitlines()
    for _ in range(MAX_CUTS):
        text = "\n".join(lines)
        try:
            return ast.parse(text), text
        except (ValueError, RecursionError, MemoryError):  # UNPARSEABLE but a syntax error: no line to cut
            return None
        except SyntaxError as err:
            at = min(max((err.lineno or len(lines)) - 1, 0), len(lines) - 1) if lines else 0
            starts = [i for i, ln in enumerate(lines) if ln[:1] not in ("", " ", "\t", "#", ")", "]", "}")]
            begin = max((i for i in starts if i <= at), default=0)
            end = min((i for i in starts if i > at), default=len(lines))
            if not lines or (begin, end) == (0, len(lines)):
                return None
            lines = lines[:begin] + lines[end:]
    return None


MAX_CUTS = 20  # statements dropped at most before the suite counts as unparseable


def _pad(text: str) -> str:
    return "".join(c if c in "\f\t" else " " for c in text)


def _lines(node: ast.stmt) -> range:
    """The lines a statement of a class's body is on, its decorators included."""
    start = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
    return range(start, (node.end_lineno or node.lineno) + 1)


class Source:
    def __init__(self, text: str) -> None:
        self.text = text
        self.lines: list[str] = _LINE.findall(text)

    def segment(self, node: ast.AST, *, padded: bool = False) -> str:
        """``ast.get_source_segment(text, node, padded=padded) or ""``, without re-reading the text."""
        lineno: int | None = getattr(node, "lineno", None)
        end_lineno: int | None = getattr(node, "end_lineno", None)
        col: int | None = getattr(node, "col_offset", None)
        end_col: int | None = getattr(node, "end_col_offset", None)
        if lineno is None or end_lineno is None or col is None or end_col is None:
            return ""
        if end_lineno > len(self.lines):  # a line end ``ast`` counts and the split did not: as ``ast`` cuts it
            return ast.get_source_segment(self.text, node, padded=padded) or ""
        first, last = self.lines[lineno - 1].encode(), self.lines[end_lineno - 1].encode()
        if lineno == end_lineno:
            return first[col:end_col].decode()
        padding = _pad(first[:col].decode()) if padded else ""
        return "".join([padding + first[col:].decode(), *self.lines[lineno:end_lineno - 1],
                        last[:end_col].decode()])

    def cut(self, node: ast.ClassDef, members: list[ast.stmt], omit: Iterable[ast.expr] = ()) -> Cut:
        """The class's text with ``members`` (of its body) that a unit may leave out (``Cut``), and
        without the decorators ``omit`` (pytest's fixture decorators: the unit calls them itself)."""
        return Cut(self, node, members, omit)


class Cut:
    """A class's text with members (each on lines of its own, decorators included) that a unit may
    leave out: the rest of the class is joined once, so the class with one member (``keeping``) costs
    what its own text costs, and a class of 2,000 tests gives 2,000 units of one test each, each
    made in time proportional to its length, not 2,000 copies of the class."""

    def __init__(self, source: Source, node: ast.ClassDef, members: list[ast.stmt],
                 omit: Iterable[ast.expr] = ()) -> None:
        end = node.end_lineno or node.lineno
        owner: dict[int, int] = {}  # line -> the member that holds it
        for k, m in enumerate(members):
            owner.update(dict.fromkeys(_lines(m), k))
        # the lines between the body's statements (blank, comments): not copied into every unit
        body = {n for m in node.body for n in _lines(m)}
        between = set(range(min(body), end + 1)) - body if body else set()
        between |= {n for d in omit for n in range(d.lineno, (d.end_lineno or d.lineno) + 1)}
        self.whole = source.segment(node) if node.lineno in owner or end == node.lineno else None
        rest: list[str] = []
        size = 0
        self.at: list[int] = [0] * len(members)  # where in the rest each member goes
        texts: list[list[str]] = [[] for _ in members]
        for n in range(node.lineno, end + 1):
            line = source.lines[n - 1]
            if n == node.lineno:
                line = line.encode()[node.col_offset:].decode()
            if n == end:
                line = line.encode()[:node.end_col_offset or 0].decode()
            if n in between:
                continue
            if (member := owner.get(n)) is None:
                rest.append(line)
                size += len(line)
            else:
                if not texts[member]:
                    self.at[member] = size
                texts[member].append(line)
        self.rest = "".join(rest)
        self.texts = ["".join(t) for t in texts]
        # a class whose body is only those members needs a ``pass`` when none is kept
        self.bare = " " * node.body[0].col_offset + "pass" if len(members) == len(node.body) else ""

    def keeping(self, kept: list[int]) -> str:
        """The class with only the members ``kept`` (indices into the members) of the optional ones."""
        if self.whole is not None:
            return self.whole
        out, last = [], 0
        for k in sorted(kept):  # the members in the class's order (neighbours share a place in the rest)
            out += [self.rest[last:self.at[k]], self.texts[k]]
            last = self.at[k]
        out.append(self.rest[last:])
        text = "".join(out).rstrip("\r\n")
        return f"{text}\n{self.bare}" if self.bare and not kept else text
