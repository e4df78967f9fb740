"""The sealed Go harness's checker stubs: each top-level function of the program, read from its
signature (``signatures``), gets a stub of the same signature in the checker (``stub``) that sends
its arguments to the program's process (``sejuryCall`` in ``sealed_go/checker.go.txt``)."""

from __future__ import annotations

import re

from sejury.execution.languages import _clike

_FUNC = re.compile(r"^func\s+([A-Za-z_]\w*)\s*\(", re.M)  # a top-level function (no receiver, not generic)
_NAMED = re.compile(r"^([A-Za-z_]\w*)\s+(\S.*)$", re.S)
_TYPE_WORDS = {"chan", "func", "map", "struct", "interface"}


def _types(params: str) -> list[str] | None:
    """The type of each parameter (or result) of a Go list (``a, b int, c []string`` -> int, int,
    []string); None when it cannot be read."""
    items = _clike.top_level_items(params)
    named = [(_NAMED.match(x) if x.split()[0] not in _TYPE_WORDS else None) for x in items]
    if not any(named):
        return items
    out: list[str | None] = [m.group(2).strip() if m else None for m in named]
    for i in range(len(out) - 1, -1, -1):  # a, b int: a takes b's type
        if out[i] is None:
            if i + 1 >= len(out) or out[i + 1] is None:
                return None
            out[i] = out[i + 1]
    return [t for t in out if t is not None]


def _body(program: str, at: int) -> int:
    """Where the body of a function whose parameters close at ``at`` opens: the first ``{`` after
    them that is no result type's (``interface{}``, ``struct{...}``, ``map[string]interface{}``)."""
    body = program.find("{", at)
    while body > 0 and re.search(r"\b(?:interface|struct)\s*$", program[at + 1:body]):
        end = _clike.closing(program, body)
        body = program.find("{", end) if end > 0 else -1
    return body


def signatures(program: str) -> list[tuple[str, list[str], list[str]]]:
    """Each top-level function the program declares: (name, parameter types, result types)."""
    out = []
    for m in _FUNC.finditer(program):
        name = m.group(1)
        if name in ("main", "init"):
            continue
        close = _clike.closing(program, m.end() - 1)
        body = _body(program, close) if close > 0 else -1
        if body < 0:
            continue
        params, results = _types(program[m.end():close]), program[close + 1:body].strip()
        if results.startswith("(") and results.endswith(")"):
            rtypes = _types(results[1:-1])
        else:
            rtypes = [results] if results else []
        if params is None or rtypes is None:
            continue
        out.append((name, params, rtypes))
    return out


def stub(name: str, params: list[str], results: list[str]) -> str:
    variadic = bool(params) and params[-1].startswith("...")
    args = ", ".join(f"p{i} {t}" for i, t in enumerate(params))
    res = "" if not results else results[0] if len(results) == 1 else f"({', '.join(results)})"
    lines = [f"func {name}({args}) {res} {{"]
    lines += [f"\tvar r{i} {t}" for i, t in enumerate(results)]
    lines.append(f"\tsejuryCall({name!r}, {str(variadic).lower()}, []interface{{}}{{"
                 + ", ".join(f"&p{i}" for i in range(len(params))) + "}, []interface{}{"
                 + ", ".join(f"&r{i}" for i in range(len(results))) + "})")
    if results:
        lines.append("\treturn " + ", ".join(f"r{i}" for i in range(len(results))))
    return "\n".join(lines).replace(f"({name!r}", f'("{name}"') + "\n}\n"
