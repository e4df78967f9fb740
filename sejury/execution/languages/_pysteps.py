"""The steps of a Python test script: the statements between its checks that compute what the checks
read (``df, ax = task_func(x)``, then ``assert ...``; ``df = task_func(y)``, then ``assert ...``).

Run once as the suite's setup, such steps went wrong two ways: every check saw the last test's
values, and the first step that raised stopped the setup, so every later check failed on the
reference with ``NameError``.  Each unit now carries its own steps: for a check at the top level,
the steps since the previous unit, plus the earlier steps that assign a name those read (the last
assignment of each); for a test function's unit, the steps that assign a name it reads, and those
that do not call the function under test (files written, seeds set: cheap to repeat)."""

from __future__ import annotations

import ast
import heapq
from bisect import bisect_left
from collections import Counter
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Step:
    """One top-level statement that is neither a check nor a definition."""

    src: str
    loads: frozenset[str]
    kills: frozenset[str]  # names it assigns outright: an earlier value of them is not needed
    touches: frozenset[str]  # names it assigns or changes (``df['x'] = ...``, ``xs.append(1)``)
    calls_tested: bool  # calls a function the reference defines (or, with no reference, any call)


def _base(node: ast.expr) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Starred)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _plain_names(target: ast.expr) -> set[str]:
    if isinstance(target, ast.Name):
        return {target.id}
    if isinstance(target, (ast.Tuple, ast.List)):
        return set().union(*(_plain_names(t) for t in target.elts)) if target.elts else set()
    if isinstance(target, ast.Starred):
        return _plain_names(target.value)
    return set()


def _called_names(node: ast.AST) -> set[str]:
    return {c.func.id if isinstance(c.func, ast.Name) else c.func.attr
            for c in ast.walk(node) if isinstance(c, ast.Call) and isinstance(c.func, (ast.Name, ast.Attribute))}


def loads(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def reassigned(tree: ast.Module) -> set[str]:
    """Names the module's top level assigns more than once (``labels = ['A']`` ... ``labels = []``)."""
    seen = Counter(n for node in tree.body if isinstance(node, ast.Assign) for t in node.targets
                   for n in _plain_names(t))
    return {n for n, times in seen.items() if times > 1}


def is_step(node: ast.stmt, step_names: set[str], reassigned: set[str]) -> bool:
    """A statement that computes (holds a call), reads what a step computed, or assigns a name
    the module assigns again; a literal assignment made once (``cases = [...]``) stays in the
    setup, where table-driven loops find it."""
    if isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return False
    if isinstance(node, ast.Assign) and set().union(*(_plain_names(t) for t in node.targets)) & reassigned:
        return True
    return any(isinstance(n, ast.Call) for n in ast.walk(node)) or bool(loads(node) & step_names)


def guarded_import(node: ast.Import | ast.ImportFrom, src: str, tested: set[str]) -> str | None:
    """A test's import, guarded so that one that fails does not stop the setup; None for an import
    of the function under test itself (``from your_module import task_func``: the program defines it)."""
    if isinstance(node, ast.ImportFrom) and not node.level and tested and \
            all(a.name in tested for a in node.names):
        return None
    return guarded(src)


def guarded(src: str) -> str:
    """``src`` (an import) in a ``try`` that lets it fail without stopping what follows."""
    return "try:\n" + "\n".join("    " + ln for ln in src.splitlines()) + "\nexcept Exception:\n    pass"


def step(node: ast.stmt, src: str, tested: set[str]) -> Step:
    kills: set[str] = set()
    if isinstance(node, ast.Assign):
        kills = set().union(*(_plain_names(t) for t in node.targets))
    elif isinstance(node, ast.AnnAssign) and node.value is not None:
        kills = _plain_names(node.target)
    stored = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    changed = {b for n in ast.walk(node) if isinstance(n, (ast.Attribute, ast.Subscript))
               and isinstance(n.ctx, ast.Store) and (b := _base(n)) is not None}
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Attribute):
        changed |= {b} if (b := _base(node.value.func.value)) is not None else set()  # ``xs.append(1)``
    if isinstance(node, ast.AugAssign) and (b := _base(node.target)) is not None:
        changed.add(b)
    called = _called_names(node)
    return Step(src, frozenset(loads(node) | changed - kills), frozenset(kills), frozenset(stored | changed),
                calls_tested=bool(called & tested) if tested else bool(called))


@dataclass
class Steps:
    """The steps seen so far, in order, and where the current segment (since the last unit) starts.
    Each name's steps are indexed (``touching``), so finding a unit's steps costs what it keeps,
    not a walk over every step of the script (a script of 30,000 steps and checks took minutes)."""

    tested: set[str]
    all: list[Step] = field(default_factory=list)
    segment_from: int = 0
    names: set[str] = field(default_factory=set)  # every name a step touches
    touching: dict[str, list[int]] = field(default_factory=dict)  # name -> the steps touching it, in order
    cheap: list[int] = field(default_factory=list)  # the steps that call nothing under test

    def add(self, node: ast.stmt, src: str) -> None:
        self.append(step(node, src, self.tested))

    def append(self, s: Step) -> None:
        for name in s.touches:
            self.touching.setdefault(name, []).append(len(self.all))
        if not s.calls_tested:
            self.cheap.append(len(self.all))
        self.names |= s.touches
        self.all.append(s)

    def for_check(self, unit: ast.AST) -> list[str]:
        """The steps a top-level unit runs first; the unit then closes the segment."""
        chosen = self._closure(loads(unit), keep_from=self.segment_from)
        self.segment_from = len(self.all)
        return [self.all[i].src for i in sorted(chosen)]

    def for_function(self, unit: ast.AST) -> list[str]:
        """The steps a test function's unit runs first (its body reads the module's final names):
        those it needs, and those that call nothing under test."""
        chosen = self._closure(loads(unit), keep_from=len(self.all))
        return [self.all[i].src for i in sorted(chosen.union(self.cheap))]

    def _closure(self, needed: set[str], keep_from: int) -> set[int]:
        """Walking back: every step from ``keep_from`` on, and before it the steps that touch a name
        still needed (an outright assignment ends the need for that name's earlier values)."""
        need, chosen = set(needed), set()
        for i in range(len(self.all) - 1, keep_from - 1, -1):
            chosen.add(i)
            need = (need - self.all[i].kills) | self.all[i].loads
        # below the segment, the next step to look at is the latest one touching a name still needed
        heap: list[tuple[int, str]] = []

        def push(name: str, below: int) -> None:
            at = self.touching.get(name, [])
            if (k := bisect_left(at, below)) > 0:
                heapq.heappush(heap, (-at[k - 1], name))

        for name in need:
            push(name, keep_from)
        while heap:
            i, name = heapq.heappop(heap)
            i = -i
            if name not in need:
                continue  # an outright assignment after it ended the need; a later need pushed it anew
            if i not in chosen:
                chosen.add(i)
                s = self.all[i]
                before = need
                need = (need - s.kills) | s.loads
                for added in need - before:
                    push(added, i)
            if name in need:
                push(name, i)
        return chosen


def with_steps(steps: list[str], unit: str) -> str:
    return "\n".join([*steps, unit]) if steps else unit
