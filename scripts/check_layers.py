"""The package's shape, checked: no import cycle between sejury's top-level packages and modules
(counting the imports that run when a module loads: module level, outside ``if TYPE_CHECKING:``),
and no module over 350 lines.

    .venv/bin/python scripts/check_layers.py   # prints the graph's cycles and the long modules; exit 1 on either
"""

from __future__ import annotations

import ast
import graphlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "sejury"
MAX_LINES = 350


def node_of(module: str) -> str | None:
    """``sejury.checks.probe`` -> ``checks``; ``sejury.api`` -> ``api``; the package root -> None."""
    parts = module.split(".")
    return parts[1] if parts[0] == "sejury" and len(parts) > 1 else None


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def load_time_imports(tree: ast.Module, package: str) -> set[str]:
    """The sejury modules a module imports when it loads."""
    found: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for stmt in body:
            if isinstance(stmt, ast.If):
                if not _type_checking(stmt.test):
                    visit(stmt.body)
                visit(stmt.orelse)
            elif isinstance(stmt, ast.Try):
                for block in (stmt.body, *(h.body for h in stmt.handlers), stmt.orelse, stmt.finalbody):
                    visit(block)
            elif isinstance(stmt, ast.Import):
                found.update(a.name for a in stmt.names)
            elif isinstance(stmt, ast.ImportFrom):
                base = stmt.module or ""
                if stmt.level:  # relative: from the package, one level up per dot after the first
                    parent = package.rsplit(".", stmt.level - 1)[0]
                    base = f"{parent}.{base}" if base else parent
                found.add(base)
                found.update(f"{base}.{a.name}" for a in stmt.names)

    visit(tree.body)
    return {m for m in found if m.startswith("sejury")}


def graph() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {}
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT.parent).with_suffix("")
        module = ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)
        package = module if rel.name == "__init__" else module.rsplit(".", 1)[0]
        source = node_of(module)
        if source is None:
            continue
        for target in map(node_of, load_time_imports(ast.parse(path.read_text(encoding="utf-8")), package)):
            if target is None or target == source:
                continue
            if (ROOT / target).exists() or (ROOT / f"{target}.py").exists():
                edges.setdefault(source, set()).add(target)
    return edges


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    try:
        tuple(graphlib.TopologicalSorter(edges).static_order())
    except graphlib.CycleError as exc:
        return list(exc.args[1])
    return None


def long_modules() -> list[str]:
    out = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = str(path.relative_to(ROOT))
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > MAX_LINES:
            out.append(f"{rel}: {n} lines (at most {MAX_LINES})")
    return out


def main() -> int:
    edges = graph()
    found = cycle(edges)
    long = long_modules()
    if found:
        print("import cycle between packages: " + " -> ".join(found))
    for line in long:
        print("too long: " + line)
    if not found and not long:
        print(f"ok: {len(edges)} packages and modules import others, no cycle; no module over {MAX_LINES} lines")
    return 1 if found or long else 0


if __name__ == "__main__":
    sys.exit(main())
