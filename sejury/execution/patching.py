"""Applying a unified diff to a program, for running program-repair candidates.

whatthepatch parses and applies; when a hunk's line numbers do not fit the program (patches taken
from a larger file), each hunk is placed where its old lines (context and removals) occur once.
"""

from __future__ import annotations

from collections import OrderedDict

import whatthepatch

from sejury.errors import SejuryError


class PatchError(SejuryError):
    """The patch is not a unified diff, or does not fit the program."""


def apply_patch(source: str, diff: str) -> str:
    diffs = [d for d in whatthepatch.parse_patch(diff) if d.changes]
    if not diffs:
        raise PatchError("no unified diff hunk found")
    if len({(d.header.new_path if d.header else None) for d in diffs}) > 1:
        raise PatchError("the patch changes several files; only single-file programs can be run")
    text = source
    for d in diffs:
        try:
            text = "\n".join(whatthepatch.apply_diff(d, text)) + "\n"
        except Exception:
            text = _apply_by_content(text, d)
    return text


def _apply_by_content(source: str, diff: whatthepatch.patch.diffobj) -> str:
    lines = source.splitlines()
    hunks: OrderedDict[int, list[whatthepatch.patch.Change]] = OrderedDict()
    for change in diff.changes:
        hunks.setdefault(change.hunk, []).append(change)
    start = 0
    for number, changes in hunks.items():
        old = [c.line for c in changes if c.old is not None]
        new = [c.line for c in changes if c.new is not None]
        at = _find(lines, old, start)
        if at is None:
            raise PatchError(f"hunk {number} does not match the program")
        lines[at:at + len(old)] = new
        start = at + len(new)
    return "\n".join(lines) + "\n"


def _find(lines: list[str], block: list[str], start: int) -> int | None:
    """Where ``block`` occurs exactly once (from ``start``), comparing lines without outer spaces."""
    want = [b.strip() for b in block]
    n = len(want)
    hits = [i for i in range(start, len(lines) - n + 1) if [x.strip() for x in lines[i:i + n]] == want]
    return hits[0] if len(hits) == 1 else None
