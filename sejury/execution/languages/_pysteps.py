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
    seen: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Assign):
            seen += [n for t in node.targets for n in _plain_names(t)]
    return {n for n in seen if seen.count(n) > 1}


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
    """The steps seen so far, in order, and where the current segment (since the last unit) starts."""

    tested: set[str]
    all: list[Step] = field(default_factory=list)
    segment_from: int = 0

    @property
    def names(self) -> set[str]:
        return set().union(*(s.touches for s in self.all)) if self.all else set()

    def add(self, node: ast.stmt, src: str) -> None:
        self.all.append(step(node, src, self.tested))

    def for_check(self, unit: ast.AST) -> list[str]:
        """The steps a top-level unit runs first; the unit then closes the segment."""
        chosen = _closure(self.all, loads(unit), keep_from=self.segment_from)
        self.segment_from = len(self.all)
        return [self.all[i].src for i in sorted(chosen)]

    def for_function(self, unit: ast.AST) -> list[str]:
        """The steps a test function's unit runs first (its body reads the module's final names)."""
        chosen = _closure(self.all, loads(unit), keep_from=len(self.all))
        return [s.src for i, s in enumerate(self.all) if i in chosen or not s.calls_tested]


def _closure(steps: list[Step], needed: set[str], keep_from: int) -> set[int]:
    """Walking back: every step from ``keep_from`` on, and before it the steps that touch a name
    still needed (an outright assignment ends the need for that name's earlier values)."""
    need, chosen = set(needed), set()
    for i in range(len(steps) - 1, -1, -1):
        s = steps[i]
        if i >= keep_from or s.touches & need:
            chosen.add(i)
            need = (need - s.kills) | s.loads
    return chosen


def with_steps(steps: list[str], unit: str) -> str:
    return "\n".join([*steps, unit]) if steps else unit
