"""The sealed Go harness's checker stubs: each top-level function of the program, read with Go's
grammar (``signatures``), gets a stub of the same signature in the checker (``stub``) that sends
its arguments to the program's process (``sejuryCall`` in ``sealed_go/checker.go.txt``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sejury.execution.languages._parsers import node_text, parser

if TYPE_CHECKING:
    import tree_sitter as ts


def _types(params: ts.Node) -> list[str] | None:
    """The type of each parameter (or result) of a Go list (``a, b int, c ...string`` -> int, int,
    ...string); None when one cannot be read."""
    out: list[str] = []
    for decl in params.named_children:
        if decl.type == "comment":
            continue
        kind = decl.child_by_field_name("type")
        if decl.type not in ("parameter_declaration", "variadic_parameter_declaration") or kind is None:
            return None
        text = ("..." if decl.type == "variadic_parameter_declaration" else "") + node_text(kind)
        out += [text] * max(1, len(decl.children_by_field_name("name")))
    return out


def signatures(program: str) -> list[tuple[str, list[str], list[str]]]:
    """Each top-level function the program declares (no method, no generic function, not ``main``
    or ``init``): (name, parameter types, result types), the types as written.  Only the header is
    read: a body the grammar cannot follow (tree-sitter's Go lags the compiler) loses no function.
    A program tree-sitter cannot read within the judge's limits (``_parse_guard``) has none: its
    tests then do not compile, which leaves a reference unscored and fails a candidate."""
    out = []
    try:
        tree = parser("go").parse(program.encode())
    except ValueError:  # over the parse's time or memory limit
        return []
    stack = list(reversed(tree.root_node.named_children))
    while stack:
        node = stack.pop()
        if node.type == "ERROR":  # what follows an unreadable part may sit inside it
            stack.extend(reversed(node.named_children))
            continue
        name, params = node.child_by_field_name("name"), node.child_by_field_name("parameters")
        result = node.child_by_field_name("result")
        if (node.type != "function_declaration" or name is None or params is None or params.has_error
                or node.child_by_field_name("type_parameters") or (result is not None and result.has_error)):
            continue
        if node_text(name) in ("main", "init"):
            continue
        ptypes = _types(params)
        rtypes = [] if result is None else _types(result) if result.type == "parameter_list" else [node_text(result)]
        if ptypes is None or rtypes is None:
            continue
        out.append((node_text(name), ptypes, rtypes))
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
